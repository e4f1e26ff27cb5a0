import EPFCatalogCore

/// How the rows the read engine reads become a `SoftwareResult`
/// (`CatalogReadEngine`), whatever backend they come from.
@usableFromInline
package enum ResultAssembly {
    /// The IDs of a lookup as it answers them: in the order given, each
    /// once.
    @inlinable
    package static func distinct(_ ids: [Int64]) -> [Int64] {
        guard ids.count > 1 else { return ids }
        var seen = Set<Int64>(minimumCapacity: ids.count)
        return ids.filter { seen.insert($0).inserted }
    }

    /// The fewest results a page asks for: the rule of `epf search
    /// --limit` and of the API's `limit` alike (a page of none answers
    /// nothing a user asked).
    package static let fewestResults = 1

    /// Throws for a limit below `fewestResults` or a negative offset.
    @usableFromInline
    package static func checkPage(limit: Int, offset: Int) throws(CatalogError) {
        guard limit >= fewestResults, offset >= 0 else {
            throw CatalogError(
                .usage, detail: "limit must be \(fewestResults) or more and offset 0 or more", hint: "Give --limit 20 --offset 0")
        }
    }

    /// The error for a catalog whose application table has no search index.
    @usableFromInline
    package static func noSearchIndex(_ name: String) -> CatalogError {
        CatalogError(
            .notFound,
            detail: "the catalog has no search index (\(name))",
            hint: "Import the application table again with this version of epf (epf import --force ...)")
    }

    /// Sets the field an `application` column fills.
    @usableFromInline
    package static func setApplication(_ column: String, _ text: String?, in result: inout SoftwareResult) {
        switch column {
        case "title": result.trackName = text
        case "artist_name": result.artistName = text
        case "seller_name": result.sellerName = text
        case "view_url": result.trackViewUrl = text
        // Empty is kept as "" (not left out): these are keys Apple always
        // sends, and `finish` derives the icon sizes from them.
        case "artwork_url_small": result.artworkUrl100 = text ?? ""
        case "artwork_url_large": result.artworkUrl512 = text ?? ""
        case "version": result.version = text
        case "itunes_release_date": result.releaseDate = text.map(appleDate)
        case "description": result.description = text
        case "recommended_age": result.contentAdvisoryRating = text
        case "download_size": result.fileSizeBytes = text ?? ""
        default: break
        }
    }

    /// From the application's `application_detail` rows (each: its
    /// non-empty values by column): the name, description and release
    /// notes in `language` (when the application has that language), the
    /// developer's site, screenshots, and the languages it has. Without a
    /// language, English for all but the name and description.
    @usableFromInline
    package static func addDetail(_ rows: [[String: String]], language: Language?, to result: inout SoftwareResult) {
        var codes: [String] = []
        var best: (score: Int, values: [String: String])?
        for values in rows {
            guard let code = values["language_code"] else { continue }
            codes.append(code.uppercased())
            let score = (language ?? .english).matchScore(code)
            if score > 0 && score > (best?.score ?? 0) { best = (score, values) }
        }
        guard !codes.isEmpty else { return }
        result.languageCodesISO2A = codes.sorted()
        guard let values = best?.values else { return }
        if language != nil {
            if let title = values["title"] { result.trackName = title }
            if let description = values["description"] { result.description = description }
        }
        result.releaseNotes = values["release_notes"]
        result.sellerUrl = values["company_url"]
        let screenshots = DetailColumns.screenshots.compactMap { values[$0] }
        let ipadScreenshots = DetailColumns.ipadScreenshots.compactMap { values[$0] }
        if !screenshots.isEmpty { result.screenshotUrls = screenshots }
        if !ipadScreenshots.isEmpty { result.ipadScreenshotUrls = ipadScreenshots }
    }

    /// `genres`, `genreIds`, `primaryGenre*` from the application's genres,
    /// primary first, then by ID; `withNames` when the catalog has the
    /// `genre` table.
    @usableFromInline
    package static func addGenres(_ rows: [(id: Int64, name: String?)], withNames: Bool, to result: inout SoftwareResult) {
        var ids: [String] = []
        var names: [String] = []
        for (id, name) in rows {
            ids.append(String(id))
            if let name { names.append(name) }
            if result.primaryGenreId == nil {
                result.primaryGenreId = id
                result.primaryGenreName = name
            }
        }
        guard !ids.isEmpty else { return }
        result.genreIds = ids
        if withNames { result.genres = names }
    }

    /// `price`, `currency`, `formattedPrice` (nothing when there is no
    /// price); a price of 0 is the storefront's word for free (`Free`, `無料`).
    @usableFromInline
    package static func addPrice(_ price: Double?, currency: String?, storefront: Storefront, to result: inout SoftwareResult) {
        guard let price else { return }
        result.price = price
        result.currency = currency
        result.formattedPrice = PriceFormat.format(
            price, currencyCode: currency ?? "USD", free: PriceFormat.freeWord(countryCode: storefront.countryCode))
    }

    /// What a result repeats, derives or writes for its storefront, once
    /// its rows are read: `trackCensoredName` (the name, in the language
    /// chosen), `trackContentRating` (the age rating), the icons at 60,
    /// 100 and 512 px from whichever EPF holds (`ArtworkURL`), and the App
    /// Store links of the application and its developer in `storefront`
    /// (`ProductLink.storefrontLink`).
    @usableFromInline
    package static func finish(_ result: inout SoftwareResult, storefront: Storefront) {
        result.trackCensoredName = result.trackName
        result.trackContentRating = result.contentAdvisoryRating
        if result.artworkUrl100 != nil || result.artworkUrl512 != nil {
            (result.artworkUrl60, result.artworkUrl100, result.artworkUrl512) = ArtworkURL.sizes(
                small: result.artworkUrl100, large: result.artworkUrl512)
        }
        let country = storefront.countryCode.flatMap(CountryCode.alpha2(forAlpha3:))
        if let link = result.trackViewUrl { result.trackViewUrl = ProductLink.storefrontLink(link, country: country) }
        if let link = result.artistViewUrl { result.artistViewUrl = ProductLink.storefrontLink(link, country: country) }
    }

    /// The price a stored text holds (a store that keeps numbers as text).
    package static func price(fromText text: String?) -> Double? {
        text.flatMap { Double($0.trimmingWhitespace) }
    }

    /// `popularity`, best first (the ranks as the store ordered them).
    @usableFromInline
    package static func addPopularity(_ ranks: [PopularityRank], to result: inout SoftwareResult) {
        if !ranks.isEmpty { result.popularity = ranks }
    }

    /// `YYYY-MM-DD[ HH:MM:SS]` as Apple writes dates: `YYYY-MM-DDTHH:MM:SSZ`.
    /// Other text comes back as it is.
    package static func appleDate(_ stored: String) -> String {
        let bytes = Array(stored.utf8)
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        guard bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ isDigit(bytes[$0]) })
        else { return stored }
        let date = String(decoding: bytes[0..<10], as: UTF8.self)
        if bytes.count == 19, bytes[10] == 0x20 { return date + "T" + String(decoding: bytes[11...], as: UTF8.self) + "Z" }
        return date + "T00:00:00Z"
    }
}

/// What a user's `--country` asks for, before any store is read.
@usableFromInline
package enum StorefrontRequest: Equatable, Sendable {
    /// Nothing given: the United States.
    case unitedStates
    /// A storefront ID (`143441`).
    case storefrontID(Int64)
    /// An ISO alpha-3 code, upper case (`USA`; alpha-2 `us` is mapped).
    case countryCode(String)
    /// Text that names no country.
    case unknown

    @usableFromInline
    package init(_ country: String?) {
        guard let text = country?.trimmingWhitespace, !text.isEmpty else {
            self = .unitedStates
            return
        }
        if let id = Int64(text), id > 0 {
            self = .storefrontID(id)
            return
        }
        switch text.count {
        case 2: self = CountryCode.alpha3(forAlpha2: text).map(StorefrontRequest.countryCode) ?? .unknown
        case 3: self = .countryCode(text.uppercased())
        default: self = .unknown
        }
    }

    /// The storefront `country` names, given a store's way of reading its
    /// `storefront` table (`hasTable` false: the catalog has none).
    ///
    /// - Parameters:
    ///   - byID: the `storefront` row of a storefront ID, if any.
    ///   - byCode: the row with this alpha-3 `country_code` (case
    ///     ignored), the smallest ID if several.
    ///   - knownCodes: every `country_code` of the table, sorted bytewise,
    ///     for the message when `country` is unknown.
    package static func resolve(
        _ country: String?, hasTable: Bool, byID: (Int64) throws(CatalogError) -> Storefront?,
        byCode: (String) throws(CatalogError) -> Storefront?, knownCodes: () throws(CatalogError) -> [String]
    ) throws(CatalogError) -> Storefront {
        let text = country?.trimmingWhitespace ?? ""
        func unknown() throws(CatalogError) -> CatalogError {
            unknownCountry(text, known: hasTable ? try knownCodes() : [])
        }
        switch StorefrontRequest(country) {
        case .unitedStates:
            if hasTable, let known = try byID(Storefront.unitedStatesID) { return known }
            return Storefront(id: Storefront.unitedStatesID, countryCode: "USA", name: nil)
        case .storefrontID(let id):
            guard hasTable else { return Storefront(id: id, countryCode: nil, name: nil) }
            if let known = try byID(id) { return known }
            throw try unknown()
        case .countryCode(let code):
            guard hasTable else {
                if code == "USA" { return Storefront(id: Storefront.unitedStatesID, countryCode: "USA", name: nil) }
                var error = CatalogError(
                    .usage,
                    detail: "the catalog has no storefront table to find country '\(text)' in",
                    hint: "Import the itunes feed's storefront table, or give a storefront ID (143462)")
                error.refusesStorefront = true
                throw error
            }
            if let row = try byCode(code) { return row }
            throw try unknown()
        case .unknown:
            throw try unknown()
        }
    }

    /// The error for a country the catalog does not have, listing those it has.
    static func unknownCountry(_ text: String, known: [String]) -> CatalogError {
        var error = CatalogError(
            .usage,
            detail: "unknown country '\(text)'",
            hint: known.isEmpty
                ? "Give an ISO country code (US, USA) or a storefront ID (143441)"
                : "Give an ISO country code or storefront ID of the catalog's storefronts: \(known.joined(separator: ", "))")
        error.refusesStorefront = true
        return error
    }
}
