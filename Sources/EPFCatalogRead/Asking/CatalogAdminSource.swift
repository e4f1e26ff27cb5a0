import EPFCatalogCore

/// What a backend adds to its `CatalogReadSource` for `CatalogAdminEngine`
/// (`epf tables`, `epf history`, `epf sql`): the SQL and the checks that
/// differ, nothing of what is listed or in which order.
package protocol CatalogAdminSource: CatalogReadSource {
    /// The catalog's tables (not views), without the database's own
    /// (SQLite's `sqlite_...`), in any order.
    func baseTables() throws(Failure) -> [String]
    /// SQL for the seconds between two ISO 8601 timestamps stored as
    /// text, `start` and `end` (column names), to the millisecond, as a
    /// floating-point number.
    func secondsBetween(_ start: String, _ end: String) -> String
    /// Runs exactly one statement that only reads: SQLite refuses writes
    /// when it prepares, PostgreSQL runs it in a READ ONLY transaction.
    func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]])
}
