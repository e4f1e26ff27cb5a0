import EPFCatalog

/// Answers the questions of Apple's Search and Lookup APIs from a SQLite
/// catalog, locally: the read engine (`CatalogReadEngine`) over a
/// read-only connection (`SQLiteReadSource`), which keeps each query
/// prepared.
///
/// Not thread-safe: one `Catalog` (one SQLite connection, its prepared
/// statements) is used from one thread at a time; open one per thread.
public typealias Catalog = CatalogReadEngine<SQLiteReadSource>

extension CatalogReadEngine where Source == SQLiteReadSource {
    /// Opens the catalog at `path` read-only. Throws when there is no
    /// catalog there, or when it has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it
    ///   (`CatalogTableNames.resolve`), and throws when the catalog holds
    ///   application tables under several prefixes.
    public convenience init(path: String, tablePrefix: String? = nil) throws(CatalogError) {
        try self.init(source: try SQLiteReadSource(path: path), tablePrefix: tablePrefix)
    }

    /// The read-only connection.
    public var database: SQLiteDatabase { source.database }
}
