import EPFCatalog

/// The questions of `epf lookup` and `epf search`, answered from a
/// PostgreSQL catalog: the same `SearchResponse` as `Catalog` gives from a
/// SQLite catalog of the same content, in the same order, being the same
/// read engine (`CatalogReadEngine`) over one connection
/// (`PostgresReadSource`). Search reads `epf_search_application`
/// (`PostgresSearchIndex`). The conveniences of `CatalogQuerying`
/// (`lookup(ids:country:language:)`, `search(term:country:...)`) come
/// with it.
///
/// Each lookup or search reads one snapshot (a REPEATABLE READ, READ ONLY
/// transaction). Never writes. Not thread-safe: one connection, used from
/// one thread at a time.
public final class PostgresCatalog: CatalogQuerying {
    /// The read engine over the catalog's connection.
    package let engine: CatalogReadEngine<PostgresReadSource>

    /// Connects to the catalog at `target`. Throws when it cannot, or when
    /// the schema has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it, and
    ///   throws when the schema holds application tables under several
    ///   prefixes.
    public init(target: PostgresTarget, tablePrefix: String? = nil) throws(CatalogError) {
        engine = try CatalogReadEngine(source: try PostgresReadSource(target: target), tablePrefix: tablePrefix)
    }

    /// The catalog's server and database.
    package var target: PostgresTarget { engine.source.target }

    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States. Throws a
    /// `CatalogError` naming the countries the catalog has when `country`
    /// is not one of them.
    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try engine.storefront(for: country)
    }

    /// The applications with these Apple IDs, in the order given (an ID
    /// given twice answers once), priced in `storefront`, with the name,
    /// description and release notes in `language` when the application
    /// has it. Unknown IDs are left out.
    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try engine.lookup(ids: ids, in: storefront, language: language)
    }

    /// The applications whose title holds every word of `term`, whole-word
    /// matches first, then prefix-only ones, sold in `storefront` when the
    /// catalog has prices; at most `limit` from `offset`.
    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try engine.search(term: term, in: storefront, language: language, entity: entity, limit: limit, offset: offset)
    }
}
