import CSQLite
import EPFCatalogStore
import EPFFormat
import EPFSQLiteReader

/// How EPF columns become SQLite columns.
///
/// The loader decides each value's storage class (it binds an integer, a
/// double or text), so columns that hold numbers are declared with no type:
/// SQLite's INTEGER, REAL and NUMERIC affinities would rewrite the text the
/// loader keeps for values that do not fit (`12.5` or ` 7` in an INTEGER
/// column would become numbers, `99999999999999999999` a lossy REAL).
/// Columns that hold text are declared TEXT.
///
/// | declared type                  | SQLite column | stored as                          |
/// |--------------------------------|---------------|------------------------------------|
/// | BIGINT, INTEGER, INT, TINYINT  | (no type)     | integer; text kept when not one    |
/// | BOOLEAN                        | (no type)     | 0 / 1; text kept otherwise         |
/// | DECIMAL(p,s)                   | (no type)     | the nearest double; text otherwise |
/// | DATETIME, DATE, TIMESTAMP      | TEXT          | `YYYY-MM-DD[ HH:MM:SS]`            |
/// | VARCHAR, LONGTEXT, CLOB, other | TEXT          | the text, valid UTF-8              |
package enum SchemaMapping {
    /// The SQLite column type for a declared EPF type: empty (no affinity:
    /// values keep the class they were bound with) or TEXT.
    package static func affinity(for type: ColumnType) -> String {
        switch type.kind {
        case .integer, .boolean, .decimal: return ""
        case .date, .text, .freeText, .unknown: return "TEXT"
        }
    }

    /// The most columns a catalog table may have: SQLite's column limit
    /// (SQLITE_MAX_COLUMN: 2000 unless SQLite was built otherwise). A
    /// header with more is refused before any table is created.
    package static let maximumColumns: Int = {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        SQLiteLibrary.configured
        guard sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let connection else {
            return 2000
        }
        return Int(sqlite3_limit(connection, SQLITE_LIMIT_COLUMN, -1))
    }()
}
