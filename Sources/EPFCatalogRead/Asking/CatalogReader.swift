import EPFCatalogCore

/// The questions of Apple's Search and Lookup APIs, answered from a
/// catalog, whatever store holds it: `Catalog` (SQLite) and
/// `PostgresCatalog` (EPFPostgresReader) give the same `SearchResponse` for the
/// same catalog content, in the same order, each holding the same engine
/// (`CatalogReadEngine`) over its backend's `CatalogReadSource`.
///
/// What the engine draws on lives beside it, so that it is written once:
/// the country a user types (`StorefrontRequest`), a result assembled from
/// rows (`ResultAssembly`), the language a detail row is chosen by
/// (`Language`); and in EPFTextSearch, the search module, the order of a
/// search's results (`SearchRanking`, `SearchPaging`, `SearchOrder`) and
/// its words (`SearchQuery`, `SearchTokenizer`).
///
/// Implementations are not thread-safe: one connection, used from one
/// thread at a time.
public protocol CatalogReader: AnyObject {
    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States. Throws a
    /// `CatalogError` (with no underlying error) naming the countries the
    /// catalog has when `country` is not one of them.
    func storefront(for country: String?) throws(CatalogError) -> Storefront

    /// The applications with these Apple IDs, in the order given (an ID
    /// given twice answers once), priced in `storefront`, with the name,
    /// description and release notes in `language` when the application
    /// has it (see `Catalog.lookup(ids:country:language:)`). Unknown IDs are
    /// left out.
    func lookup(ids: [Int64], in storefront: Storefront, language: Language?) throws(CatalogError) -> SearchResponse

    /// `storefront(for: country)`, then `lookup(ids:in:language:)`, as one
    /// question: the storefront's row is read with the applications' rows,
    /// in one snapshot and, on PostgreSQL, one round trip. Throws what
    /// those two throw.
    func lookup(ids: [Int64], inCountry country: String?, language: Language?) throws(CatalogError) -> SearchResponse

    /// The applications whose title holds every word of `term`, popular
    /// first: those of `storefront`'s overall chart by rank
    /// (`SearchRanking`), then whole-word matches, then prefix-only ones,
    /// each in `SearchOrder`'s order; only those sold in `storefront` when
    /// the catalog has prices; at most `limit` from `offset` (see
    /// `Catalog.search(term:in:...)`).
    func search(
        term: String, in storefront: Storefront, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int
    ) throws(CatalogError) -> SearchResponse

    /// `storefront(for: country)`, then `search(term:in:...)`, as one
    /// question in one snapshot: the page finds the storefront itself,
    /// whose row is read with the results' (a round trip less on
    /// PostgreSQL). Throws what those two throw, the country's first.
    func search(
        term: String, inCountry country: String?, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int
    ) throws(CatalogError) -> SearchResponse

    /// The top `kind` chart of genre `genre` (36: the whole App Store) in
    /// `country`'s storefront: at most `limit` (1 to 200) of the popularity
    /// feed's chart, by rank, those free or paid there, named in `language`
    /// where they have it (see `Catalog.chart(_:inCountry:genre:limit:language:)`).
    func chart(_ kind: ChartKind, inCountry country: String?, genre: Int64, limit: Int, language: Language?) throws(CatalogError)
        -> AppChart

    /// The import journal, newest first (see
    /// `Catalog.journal(feed:table:status:limit:)`).
    func journal(feed: String?, table: String?, status: JournalRecord.Status?, limit: Int?) throws(CatalogError) -> [JournalRecord]

    /// How many applications a search for `term` finds in `storefront` in
    /// all (whole-word and prefix-only matches; `search` pages through
    /// them): what a page past them can say.
    func searchCount(term: String, in storefront: Storefront, entity: SoftwareEntity?) throws(CatalogError) -> Int

    /// When the newest file of the import journal was applied
    /// (`YYYY-MM-DD HH:MM:SS`, UTC; nil before any import), read through
    /// this connection: a health check. Throws when the catalog cannot be
    /// read, or a SQLite file was removed or replaced since it was opened.
    func lastImportTime() throws(CatalogError) -> String?
}

extension CatalogReader {
    /// The applications with these Apple IDs, in the order given (an ID
    /// given twice answers once), priced in `country`'s storefront (the
    /// United States when nil). Unknown IDs are left out: all unknown gives
    /// an empty response, not an error.
    ///
    /// - Parameter country: ISO alpha-2 (`US`), alpha-3 (`USA`) or a
    ///   storefront ID (`143441`); see `storefront(for:)`.
    ///   - language: the language of the name, description and release
    ///     notes (`en`, `ja`, `ja_JP`), from `application_detail` when the
    ///     application has it there; otherwise the `application` table's
    ///     own. nil: the `application` table's name and description, with
    ///     the release notes and screenshots of the English detail.
    public func lookup(ids: [Int64], country: String? = nil, language: String? = nil) throws(CatalogError) -> SearchResponse {
        try lookup(ids: ids, inCountry: country, language: try parsedLanguage(language, in: country))
    }

    /// The applications named by product links or IDs (see
    /// `ProductLink.appleID(from:)`); throws for the first one that is
    /// neither, before reading anything.
    public func lookup(links: [String], country: String? = nil, language: String? = nil) throws(CatalogError) -> SearchResponse {
        var ids: [Int64] = []
        for link in links { ids.append(try ProductLink.appleID(from: link)) }
        return try lookup(ids: ids, country: country, language: language)
    }

    /// The applications whose title holds every word of `term` (each word
    /// also as a prefix; case and diacritics folded; a CJK word matches
    /// inside a title), popular first (the storefront's chart by rank),
    /// then best match first, sold in `country`'s storefront and priced
    /// there.
    ///
    /// - Parameters:
    ///   - entity: only applications for these devices (`nil`: all).
    ///   - limit: at most this many results (Apple's default is 50).
    ///   - offset: results skipped before the first returned.
    public func search(
        term: String, country: String? = nil, language: String? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try search(
            term: term, inCountry: country, language: try parsedLanguage(language, in: country), entity: entity, limit: limit,
            offset: offset)
    }

    /// The language `text` names (nil: none given); for a malformed one,
    /// the refusal of `country` when it is refused too, as the country's
    /// refusal always came first.
    private func parsedLanguage(_ text: String?, in country: String?) throws(CatalogError) -> Language? {
        do throws(CatalogError) {
            return try text.map { (text) throws(CatalogError) in try Language(text) }
        } catch {
            _ = try storefront(for: country)
            throw error
        }
    }
}

/// The name `CatalogReader` had before "reader" came to mean one thing: a
/// query handle.
@available(*, deprecated, renamed: "CatalogReader")
public typealias CatalogQuerying = CatalogReader
