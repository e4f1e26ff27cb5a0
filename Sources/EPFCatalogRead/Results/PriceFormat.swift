import EPFCatalogCore

/// Prices written as the App Store shows them: `Free`, `$0.99`, `¥120`,
/// `2,99 €`... from a small fixed table of currencies (symbol, decimals,
/// symbol before or after), not from the system's locales, so the text is
/// the same on every machine.
package enum PriceFormat {
    /// How one currency is written.
    package struct Currency: Sendable, Equatable {
        /// The symbol (`$`, `¥`, `€`).
        package var symbol: String
        /// Digits after the decimal separator (0 for JPY and KRW).
        package var decimals: Int
        /// Whether the symbol follows the number (`2,99 €`).
        package var symbolAfter: Bool = false
        /// The decimal separator.
        package var decimalSeparator: Character = "."
        /// The thousands separator.
        package var groupSeparator: Character = ","
    }

    /// The currencies the App Store sells in most, by ISO 4217 code.
    package static let currencies: [String: Currency] = [
        "USD": Currency(symbol: "$", decimals: 2),
        "CAD": Currency(symbol: "$", decimals: 2),
        "AUD": Currency(symbol: "$", decimals: 2),
        "NZD": Currency(symbol: "$", decimals: 2),
        "MXN": Currency(symbol: "$", decimals: 2),
        "SGD": Currency(symbol: "$", decimals: 2),
        "HKD": Currency(symbol: "HK$", decimals: 2),
        "TWD": Currency(symbol: "NT$", decimals: 0),
        "JPY": Currency(symbol: "¥", decimals: 0),
        "CNY": Currency(symbol: "¥", decimals: 2),
        "KRW": Currency(symbol: "₩", decimals: 0),
        "GBP": Currency(symbol: "£", decimals: 2),
        "EUR": Currency(symbol: "€", decimals: 2, symbolAfter: true, decimalSeparator: ",", groupSeparator: "."),
        "CHF": Currency(symbol: "CHF ", decimals: 2),
        "INR": Currency(symbol: "₹", decimals: 0),
        "RUB": Currency(symbol: "₽", decimals: 0, symbolAfter: true, decimalSeparator: ",", groupSeparator: " "),
        "BRL": Currency(symbol: "R$ ", decimals: 2, decimalSeparator: ",", groupSeparator: "."),
        "SEK": Currency(symbol: "kr", decimals: 2, symbolAfter: true, decimalSeparator: ",", groupSeparator: " "),
        "NOK": Currency(symbol: "kr", decimals: 2, symbolAfter: true, decimalSeparator: ",", groupSeparator: " "),
        "DKK": Currency(symbol: "kr.", decimals: 2, symbolAfter: true, decimalSeparator: ",", groupSeparator: "."),
        "TRY": Currency(symbol: "₺", decimals: 2, decimalSeparator: ",", groupSeparator: "."),
        "ILS": Currency(symbol: "₪", decimals: 2),
        "ZAR": Currency(symbol: "R", decimals: 2),
    ]

    /// The word the App Store writes for a price of 0, by storefront
    /// (`storefront.country_code`), where a real response was found to
    /// show it (docs/query.md lists the sources); `Free` elsewhere.
    package static let freeWords: [String: String] = [
        "USA": "Free",
        "JPN": "無料",
    ]

    /// The word for a price of 0 in the storefront of `countryCode`
    /// (ISO alpha-3): `Free` where `freeWords` has none.
    package static func freeWord(countryCode: String?) -> String {
        countryCode.flatMap { freeWords[$0.uppercased()] } ?? "Free"
    }

    /// `price` in `currencyCode`: `free` (`Free`, `無料`) for 0; a currency
    /// not in the table is written `CODE 1.99` with two decimals.
    package static func format(_ price: Double, currencyCode: String, free: String = "Free") -> String {
        if price == 0 { return free }
        let currency =
            currencies[currencyCode.uppercased()]
            ?? Currency(symbol: currencyCode.uppercased() + " ", decimals: 2)
        let number = digits(price, currency)
        return currency.symbolAfter ? "\(number) \(currency.symbol)" : currency.symbol + number
    }

    /// The number with its separators, rounded to the currency's decimals.
    private static func digits(_ price: Double, _ currency: Currency) -> String {
        var scale: Int64 = 1
        for _ in 0..<currency.decimals { scale *= 10 }
        let scaled = Int64((abs(price) * Double(scale)).rounded())
        let whole = String(scaled / scale)
        var grouped = ""
        for (offset, digit) in whole.enumerated() {
            if offset > 0 && (whole.count - offset) % 3 == 0 { grouped.append(currency.groupSeparator) }
            grouped.append(digit)
        }
        if price < 0 { grouped = "-" + grouped }
        guard currency.decimals > 0 else { return grouped }
        let fraction = String(scaled % scale)
        return grouped + String(currency.decimalSeparator)
            + String(repeating: "0", count: currency.decimals - fraction.count) + fraction
    }
}
