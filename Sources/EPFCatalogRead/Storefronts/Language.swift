import EPFCatalogCore

/// The language a lookup or search answers in, as Apple's `lang`
/// parameter gives it (`en`, `ja`, `en_us`, `ja-JP`), matched against
/// `application_detail.language_code` (`EN`, `JA`, `ZH_CN`, ...).
public struct Language: Sendable, Equatable {
    /// The code as given, upper-cased, `-` made `_` (`JA_JP`).
    public let code: String
    /// Its language part (`JA`).
    package var base: Substring { code.split(separator: "_").first ?? Substring(code) }

    /// English: Apple's default.
    package static let english = Language(validated: "EN")

    private init(validated code: String) { self.code = code }

    /// `text` as a language. Throws for text that is not a language code:
    /// two or three letters, then optionally `_` or `-` and a region or
    /// script of letters and digits.
    public init(_ text: String) throws(CatalogError) {
        let code = text.uppercased().replacingOccurrences(of: "-", with: "_")
        let parts = code.split(separator: "_", omittingEmptySubsequences: false)
        let isLanguage = (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
        let isRest = parts.dropFirst().allSatisfy {
            (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        guard isLanguage, isRest, parts.count <= 3 else {
            throw CatalogError(.usage, detail: "'\(text)' is not a language code", hint: "Give a language such as en, ja or ja_JP")
        }
        self.code = code
    }

    /// How well `languageCode` (from the catalog) matches: 2 for the same
    /// code, 1 for the same language (`JA` for `ja_jp`, or `ZH_CN` for
    /// `zh`), 0 for another language.
    func matchScore(_ languageCode: String) -> Int {
        let other = languageCode.uppercased().replacingOccurrences(of: "-", with: "_")
        if other == code { return 2 }
        return (other.split(separator: "_").first ?? Substring(other)) == base ? 1 : 0
    }
}
