import CSQLite

/// Why `SQLiteDatabase.readOnlyQuery(sql:)` did not run a statement.
public enum ReadOnlyQueryError: Error, Sendable, CustomStringConvertible {
    /// The text holds no statement (empty, or only comments).
    case noStatement
    /// The text holds more than one statement.
    case severalStatements
    /// The statement could change a database (INSERT, CREATE, a writing
    /// PRAGMA, ...) or the connection's databases (ATTACH, DETACH).
    case notReadOnly
    /// SQLite refused or failed the statement.
    case sqlite(SQLiteError)

    /// Whether the caller asked for something it may not (as opposed to a
    /// statement SQLite could not run).
    public var isUsageError: Bool {
        if case .sqlite = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .noStatement: return "no SQL statement given"
        case .severalStatements: return "give exactly one SQL statement, not several"
        case .notReadOnly: return "the statement could change the catalog"
        case .sqlite(let error): return error.message
        }
    }
}

extension SQLiteDatabase {
    /// Runs exactly one statement that only reads, and returns its column
    /// names and rows.
    ///
    /// Refused before running: text with no statement or with several, a
    /// statement for which `sqlite3_stmt_readonly` is false, and ATTACH or
    /// DETACH (which SQLite counts as read-only because they change the
    /// connection, not a file). Open the connection read-only as well.
    public func readOnlyQuery(sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        sqlite3_set_authorizer(handle, denyAttach, nil)
        defer { sqlite3_set_authorizer(handle, nil, nil) }

        var prepared: OpaquePointer?
        var code: Int32 = SQLITE_OK
        var rest = ""
        sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            code = sqlite3_prepare_v2(handle, text, -1, &prepared, &tail)
            if let tail { rest = String(cString: tail) }
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(prepared)
            if code & 0xFF == SQLITE_AUTH { throw .notReadOnly }
            throw .sqlite(SQLiteError(database: handle, code: code, sql: sql))
        }
        guard let statement = prepared else { throw .noStatement }
        defer { sqlite3_finalize(statement) }

        // Anything after the first statement other than blanks and comments
        // is a second statement (or a broken one): refuse either way.
        var next: OpaquePointer?
        let nextCode = sqlite3_prepare_v2(handle, rest, -1, &next, nil)
        sqlite3_finalize(next)
        if nextCode != SQLITE_OK || next != nil { throw .severalStatements }

        guard sqlite3_stmt_readonly(statement) != 0 else { throw .notReadOnly }

        let count = Int(sqlite3_column_count(statement))
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
        var rows: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw .sqlite(SQLiteError(database: handle, code: step, sql: sql)) }
            rows.append((0..<count).map { column(statement, Int32($0)) })
        }
        return (columns, rows)
    }
}

/// Authorizer that denies ATTACH and DETACH and allows everything else.
private let denyAttach: @convention(c) (
    UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
) -> Int32 = { _, action, _, _, _, _ in
    action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK
}

/// One column of the current row, with its storage class kept.
private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    default:
        let count = Int(sqlite3_column_bytes(statement, index))
        guard let bytes = sqlite3_column_text(statement, index) else { return .text("") }
        return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
    }
}
