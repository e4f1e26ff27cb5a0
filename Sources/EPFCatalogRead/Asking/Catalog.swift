import EPFCatalogCore

/// A catalog opened for lookups and searches: the questions of Apple's
/// Search and Lookup APIs, answered locally, as `SearchResponse` values
/// that encode to the JSON of Apple's responses (`jsonBytes()`). The
/// conveniences of `CatalogReader` (`lookup(ids:country:language:)`,
/// `lookup(links:country:language:)`,
/// `search(term:country:language:entity:limit:offset:)`) come with it.
///
/// One type for every backend; each backend's module adds the initializer
/// that opens its catalogs: `Catalog(path:)` for a SQLite file
/// (EPFSQLiteReader), `Catalog(target:)` for a PostgreSQL database
/// (EPFPostgresReader, which also names it `PostgresCatalog`). Both give the same responses for
/// the same catalog content, in the same order.
///
/// Inside, the package's read engine (`CatalogReadEngine`) over the
/// backend's read source. The backend's initializer makes the engine in its
/// own module, where `init(engine:)` (inlinable) turns its three questions
/// into closures: the engine is specialized for its source there, so a
/// question costs one indirect call and no dynamic dispatch per row.
///
/// Not thread-safe: one `Catalog` (one connection, its prepared
/// statements) is used from one thread at a time; open one per thread.
public final class Catalog: CatalogReader {
    @usableFromInline let storefrontOf: (String?) throws(CatalogError) -> Storefront
    @usableFromInline let lookupIn: ([Int64], Storefront, Language?) throws(CatalogError) -> SearchResponse
    @usableFromInline let lookupInCountry: ([Int64], String?, Language?) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchIn: (String, Storefront, Language?, SoftwareEntity?, Int, Int) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchInCountry: (String, String?, Language?, SoftwareEntity?, Int, Int) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchCountIn: (String, Storefront, SoftwareEntity?) throws(CatalogError) -> Int
    @usableFromInline let chartOf: (ChartKind, String?, Int64, Int, Language?) throws(CatalogError) -> AppChart
    @usableFromInline let lastImportOf: () throws(CatalogError) -> String?
    @usableFromInline let journalOf: (String?, String?, JournalRecord.Status?, Int?) throws(CatalogError) -> [JournalRecord]
    @usableFromInline let tablesChangedOf: () throws(CatalogError) -> Bool
    /// The engine (a `CatalogReadEngine` of the backend's source), for the
    /// package's tools and tests.
    @usableFromInline package let engine: AnyObject

    /// A catalog answering from `engine`.
    @inlinable
    package init<Source: CatalogReadSource>(engine: CatalogReadEngine<Source>) {
        self.engine = engine
        storefrontOf = { (country) throws(CatalogError) in try engine.storefront(for: country) }
        lookupIn = { (ids, storefront, language) throws(CatalogError) in
            try engine.lookup(ids: ids, in: storefront, language: language)
        }
        lookupInCountry = { (ids, country, language) throws(CatalogError) in
            try engine.lookup(ids: ids, inCountry: country, language: language)
        }
        searchIn = { (term, storefront, language, entity, limit, offset) throws(CatalogError) in
            try engine.search(term: term, in: storefront, language: language, entity: entity, limit: limit, offset: offset)
        }
        searchInCountry = { (term, country, language, entity, limit, offset) throws(CatalogError) in
            try engine.search(term: term, inCountry: country, language: language, entity: entity, limit: limit, offset: offset)
        }
        searchCountIn = { (term, storefront, entity) throws(CatalogError) in
            try engine.searchCount(term: term, in: storefront, entity: entity)
        }
        chartOf = { (kind, country, genre, limit, language) throws(CatalogError) in
            try engine.chart(kind, inCountry: country, genre: genre, limit: limit, language: language)
        }
        lastImportOf = { () throws(CatalogError) in try engine.lastImportTime() }
        journalOf = { (feed, table, status, limit) throws(CatalogError) in
            try engine.journal(feed: feed, table: table, status: status, limit: limit)
        }
        tablesChangedOf = { () throws(CatalogError) in try engine.tablesChanged() }
    }

    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States. Throws a
    /// `CatalogError` naming the countries the catalog has when `country`
    /// is not one of them.
    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try storefrontOf(country)
    }

    /// The applications with these Apple IDs, in the order given (an ID
    /// given twice answers once), priced in `storefront`, with the name,
    /// description and release notes in `language` when the application
    /// has them in it. Unknown IDs are left out.
    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try lookupIn(ids, storefront, language)
    }

    /// `storefront(for: country)`, then `lookup(ids:in:language:)`, as one
    /// question in one snapshot. Throws what those two throw.
    public func lookup(ids: [Int64], inCountry country: String?, language: Language?) throws(CatalogError) -> SearchResponse {
        try lookupInCountry(ids, country, language)
    }

    /// The applications whose title holds every word of `term`, popular
    /// first: those of `storefront`'s overall chart (the popularity feed,
    /// genre 36) by rank, then whole-word matches, then prefix-only ones;
    /// only those sold in `storefront` when the catalog has prices; at most
    /// `limit` from `offset`.
    ///
    /// - Parameters:
    ///   - language: the language of the name, description and release
    ///     notes, when an application has them in it.
    ///   - entity: only applications for these devices (nil: all).
    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try searchIn(term, storefront, language, entity, limit, offset)
    }

    /// `storefront(for: country)`, then `search(term:in:language:entity:limit:offset:)`,
    /// as one question in one snapshot. Throws what those two throw, the
    /// country's first.
    public func search(
        term: String, inCountry country: String?, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int
    ) throws(CatalogError) -> SearchResponse {
        try searchInCountry(term, country, language, entity, limit, offset)
    }

    /// How many applications a search for `term` finds in `storefront` in
    /// all, whole-word and prefix-only matches together.
    public func searchCount(term: String, in storefront: Storefront, entity: SoftwareEntity?) throws(CatalogError) -> Int {
        try searchCountIn(term, storefront, entity)
    }

    /// A top chart of the App Store, made from the popularity feed: the
    /// applications of the chart of genre `genre` (36, the default: the
    /// whole App Store) in `country`'s storefront that are free there
    /// (`.topFree`: price 0) or paid (`.topPaid`: above 0), by rank, at
    /// most `limit` (1 to 200), named in `language` where they have it. Its
    /// `jsonBytes(feedURL:)` is the JSON of
    /// Apple's RSS feed generator. Not Apple's live charts: the ranks are
    /// those of the popularity feed the catalog last imported (`updated`).
    ///
    /// ```swift
    /// let chart = try Catalog(path: "catalog.sqlite").chart(.topFree, inCountry: "US", limit: 10)
    /// for (rank, app) in chart.results.enumerated() { print(rank + 1, app.trackName ?? "") }
    /// ```
    ///
    /// Throws when the catalog has no popularity or price table, for an
    /// unknown country, and for a limit out of range (`.usage`).
    public func chart(
        _ kind: ChartKind, inCountry country: String?, genre: Int64 = AppChart.overallGenre, limit: Int = 100, language: Language? = nil
    ) throws(CatalogError) -> AppChart {
        try chartOf(kind, country, genre, limit, language)
    }

    /// Whether the catalog's tables changed since this catalog was opened
    /// (`CatalogReadEngine.tablesChanged`): open it again to use new ones.
    package func tablesChanged() throws(CatalogError) -> Bool {
        try tablesChangedOf()
    }

    /// When the newest file of the import journal was applied
    /// (ISO 8601, UTC; nil before any import). Throws when the catalog
    /// cannot be read, or a SQLite file was removed or replaced since it
    /// was opened: a health check.
    public func lastImportTime() throws(CatalogError) -> String? {
        try lastImportOf()
    }

    /// The catalog's import journal, newest first: one record per table
    /// file an import applied or refused, with when it ran and how it
    /// ended. What `epf history` lists, for every backend alike.
    ///
    /// ```swift
    /// for record in try Catalog(path: "catalog.sqlite").journal(status: .applied, limit: 10) {
    ///     print(record.startedAt, record.table, record.mode ?? "", record.rows)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - feed: only the files of this feed (`itunes`, `pricing`,
    ///     `popularity`, ...).
    ///   - table: only the files of this catalog table (with the
    ///     catalog's table prefix, if any).
    ///   - status: only the files that ended so.
    ///   - limit: at most this many records, the newest; nil: every one.
    /// - Returns: the records, newest first (by `JournalRecord.id`); empty
    ///   when no import has written a journal yet.
    /// - Throws: a `CatalogError`: `.usage` for a negative `limit`,
    ///   `.incompatible` for a status this version does not know (a newer
    ///   epf wrote it), or the backend's error when the journal cannot be
    ///   read.
    public func journal(feed: String? = nil, table: String? = nil, status: JournalRecord.Status? = nil, limit: Int? = nil)
        throws(CatalogError) -> [JournalRecord]
    {
        try journalOf(feed, table, status, limit)
    }
}
