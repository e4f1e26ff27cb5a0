import EPFCatalog

/// The questions of `epf lookup` and `epf search`, answered from a
/// PostgreSQL catalog: the read engine (`CatalogReadEngine`) over one
/// connection (`PostgresReadSource`), so the same `SearchResponse` as
/// `Catalog` gives from a SQLite catalog of the same content, in the same
/// order. Search reads `epf_search_application` (`PostgresSearchIndex`).
///
/// Each lookup or search reads one snapshot (a REPEATABLE READ, READ ONLY
/// transaction). Never writes. Not thread-safe: one connection, used from
/// one thread at a time.
public typealias PostgresCatalog = CatalogReadEngine<PostgresReadSource>

extension CatalogReadEngine where Source == PostgresReadSource {
    /// Connects to the catalog at `target`. Throws when it cannot, or when
    /// the schema has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it
    ///   (`CatalogTableNames.resolve`), and throws when the schema holds
    ///   application tables under several prefixes.
    public convenience init(target: PostgresTarget, tablePrefix: String? = nil) throws(CatalogError) {
        try self.init(source: try PostgresReadSource(target: target), tablePrefix: tablePrefix)
    }

    /// The catalog's server and database.
    public var target: PostgresTarget { source.target }
}
