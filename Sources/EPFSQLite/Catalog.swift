import EPFCatalog

/// Answers the questions of Apple's Search and Lookup APIs from a SQLite
/// catalog, locally: lookups by Apple ID or product link, searches by the
/// words of a title, priced in a storefront, as `SearchResponse` values
/// that encode to the JSON of Apple's responses (`jsonBytes()`).
///
/// Inside, the package's read engine (`CatalogReadEngine`) over a read-only
/// connection (`SQLiteReadSource`) that keeps each query prepared; the
/// engine is specialized for that source in this module, so a question
/// costs no dynamic dispatch per row. The conveniences of `CatalogQuerying`
/// (`lookup(ids:country:language:)`, `lookup(links:country:language:)`,
/// `search(term:country:language:entity:limit:offset:)`) come with it.
///
/// Not thread-safe: one `Catalog` (one SQLite connection, its prepared
/// statements) is used from one thread at a time; open one per thread.
public final class Catalog: CatalogQuerying {
    /// The read engine over the catalog's connection.
    package let engine: CatalogReadEngine<SQLiteReadSource>

    /// Opens the catalog at `path` read-only. Throws when there is no
    /// catalog there, or when it has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it, and
    ///   throws when the catalog holds application tables under several
    ///   prefixes.
    public init(path: String, tablePrefix: String? = nil) throws(CatalogError) {
        engine = try CatalogReadEngine(source: try SQLiteReadSource(path: path), tablePrefix: tablePrefix)
    }

    /// The read-only connection.
    package var database: SQLiteDatabase { engine.source.database }

    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States. Throws a
    /// `CatalogError` naming the countries the catalog has when `country`
    /// is not one of them.
    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try engine.storefront(for: country)
    }

    /// The applications with these Apple IDs, in the order given (an ID
    /// given twice answers once), priced in `storefront` (one
    /// `storefront(for:)` resolved), with the name, description and
    /// release notes in `language` when the application has it. Unknown
    /// IDs are left out.
    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try engine.lookup(ids: ids, in: storefront, language: language)
    }

    /// The applications whose title holds every word of `term`, whole-word
    /// matches first, then prefix-only ones, sold in `storefront` when the
    /// catalog has prices; at most `limit` from `offset`
    /// (`search(term:country:language:entity:limit:offset:)` in a
    /// storefront already resolved).
    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try engine.search(term: term, in: storefront, language: language, entity: entity, limit: limit, offset: offset)
    }
}
