/// A catalog opened for lookups and searches: the questions of Apple's
/// Search and Lookup APIs, answered locally, as `SearchResponse` values
/// that encode to the JSON of Apple's responses (`jsonBytes()`). The
/// conveniences of `CatalogQuerying` (`lookup(ids:country:language:)`,
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
public final class Catalog: CatalogQuerying {
    @usableFromInline let storefrontOf: (String?) throws(CatalogError) -> Storefront
    @usableFromInline let lookupIn: ([Int64], Storefront, Language?) throws(CatalogError) -> SearchResponse
    @usableFromInline let lookupInCountry: ([Int64], String?, Language?) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchIn: (String, Storefront, Language?, SoftwareEntity?, Int, Int) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchInCountry: (String, String?, Language?, SoftwareEntity?, Int, Int) throws(CatalogError) -> SearchResponse
    @usableFromInline let searchCountIn: (String, Storefront, SoftwareEntity?) throws(CatalogError) -> Int
    @usableFromInline let lastImportOf: () throws(CatalogError) -> String?
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
        lastImportOf = { () throws(CatalogError) in try engine.lastImportTime() }
    }

    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try storefrontOf(country)
    }

    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try lookupIn(ids, storefront, language)
    }

    public func lookup(ids: [Int64], inCountry country: String?, language: Language?) throws(CatalogError) -> SearchResponse {
        try lookupInCountry(ids, country, language)
    }

    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try searchIn(term, storefront, language, entity, limit, offset)
    }

    public func search(
        term: String, inCountry country: String?, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int
    ) throws(CatalogError) -> SearchResponse {
        try searchInCountry(term, country, language, entity, limit, offset)
    }

    public func searchCount(term: String, in storefront: Storefront, entity: SoftwareEntity?) throws(CatalogError) -> Int {
        try searchCountIn(term, storefront, entity)
    }

    public func lastImportTime() throws(CatalogError) -> String? {
        try lastImportOf()
    }
}
