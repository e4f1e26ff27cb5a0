import EPFCatalogRead

/// A `Catalog` opened on PostgreSQL (`Catalog(target:)`).
public typealias PostgresCatalog = Catalog

extension Catalog {
    /// Connects to the PostgreSQL catalog at `target`, through one
    /// connection (`PostgresReadSource`); search reads
    /// `epf_search_application` (`PostgresSearchIndex`). Each lookup or
    /// search reads one snapshot (a REPEATABLE READ, READ ONLY
    /// transaction). Throws when it cannot connect, or when the schema has
    /// no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it, and
    ///   throws when the schema holds application tables under several
    ///   prefixes.
    public convenience init(target: PostgresTarget, tablePrefix: String? = nil) throws(CatalogError) {
        self.init(
            engine: try CatalogReadEngine(source: try PostgresReadSource(target: target, searchPlans: true), tablePrefix: tablePrefix))
    }
}
