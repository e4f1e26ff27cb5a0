import EPFCatalogRead

extension Catalog {
    /// Opens the SQLite catalog at `path` read-only, through a connection
    /// that keeps each query prepared (`SQLiteReadSource`). Throws when
    /// there is no catalog there, or when it has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it, and
    ///   throws when the catalog holds application tables under several
    ///   prefixes.
    public convenience init(path: String, tablePrefix: String? = nil) throws(CatalogError) {
        self.init(engine: try CatalogReadEngine(source: try SQLiteReadSource(path: path), tablePrefix: tablePrefix))
    }
}

extension Catalog {
    /// The read-only connection of a catalog opened by `init(path:)`.
    package var database: SQLiteDatabase? { (engine as? CatalogReadEngine<SQLiteReadSource>)?.source.database }
}
