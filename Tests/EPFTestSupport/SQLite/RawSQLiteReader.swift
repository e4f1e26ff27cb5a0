import CSQLite

/// A failed SQLite call of the tests' own reader (also the error of other
/// test helpers that need one).
public struct RawSQLiteError: Error, CustomStringConvertible {
    /// What failed, and SQLite's message.
    public var description: String

    /// An error saying `description`.
    public init(description: String) { self.description = description }
}

/// A read-only SQLite connection of the tests' own, through the C API and
/// not through the product's SQLite code: text is read as its stored bytes
/// (no decoding that could hide a bad byte) and every value keeps its
/// storage class.
///
/// SQLite-specific (CSQLite): with `StoredValue`, this folder is what would
/// move to a SQLite test-support target of its own.
public final class RawSQLiteReader {
    private let handle: OpaquePointer

    /// Opens the catalog at `path` read-only; throws when SQLite cannot.
    public init(path: String) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw RawSQLiteError(description: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = connection
    }

    deinit { sqlite3_close_v2(handle) }

    /// Column names and rows of a query.
    public func query(_ sql: String) throws -> (columns: [String], rows: [[StoredValue]]) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[StoredValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
            rows.append(
                (0..<count).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_NULL: return .null
                    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                    case SQLITE_TEXT:
                        let length = Int(sqlite3_column_bytes(statement, column))
                        guard length > 0, let text = sqlite3_column_text(statement, column) else { return .text([]) }
                        return .text(Array(UnsafeBufferPointer(start: text, count: length)))
                    default:
                        let length = Int(sqlite3_column_bytes(statement, column))
                        guard length > 0, let blob = sqlite3_column_blob(statement, column) else { return .blob([]) }
                        return .blob(Array(UnsafeRawBufferPointer(start: blob, count: length)))
                    }
                })
        }
        return (columns, rows)
    }

    /// The rows of a query.
    public func rows(_ sql: String) throws -> [[StoredValue]] { try query(sql).rows }
}
