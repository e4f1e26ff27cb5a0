import EPFCatalogRead

/// Read-only access to a SQLite catalog for `epf tables`, `epf history`
/// and `epf sql`: the admin engine (`CatalogAdminEngine`) over a
/// read-only connection (`SQLiteReadSource`).
package typealias SQLiteCatalogAdmin = CatalogAdminEngine<SQLiteReadSource>

extension CatalogAdminEngine where Source == SQLiteReadSource {
    /// Opens the catalog at `path` read-only, answering from its last
    /// committed state. Throws when there is no catalog there.
    package convenience init(path: String) throws(CatalogError) {
        self.init(source: try SQLiteReadSource(path: path))
    }

    /// The read-only connection.
    package var database: SQLiteDatabase { source.database }
}
