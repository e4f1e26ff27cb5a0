import CSQLite
import EPFCatalogRead

/// One SQLite connection.
///
/// Not thread-safe: a connection and its statements are used from one
/// thread at a time (SQLite allows one writer anyway; the import pipeline
/// gives the connection to its single loader).
package final class SQLiteDatabase {
    package let handle: OpaquePointer
    /// The path the connection was opened with.
    package let path: String
    /// The handler `traceStatements` gave SQLite, kept alive while SQLite
    /// may call it.
    var statementTracer: StatementTracer?

    /// Opens (and with `create`, creates) the database at `path`.
    package init(path: String, readOnly: Bool = false, create: Bool = true) throws(SQLiteError) {
        SQLiteLibrary.configured
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if create { flags |= SQLITE_OPEN_CREATE }
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(database: connection, code: code)
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        sqlite3_busy_timeout(connection, 10_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: code, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Runs one statement with `values` bound.
    package func execute(_ sql: String, _ values: [SQLValue]) throws(SQLiteError) {
        try prepare(sql).execute(values)
    }

    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// All rows of a query.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        try prepare(sql).rows(values)
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        try rows(sql, values).first?.first
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Whether a transaction is open.
    package var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rolls back the open transaction, if any.
    package func rollback() {
        if inTransaction { _ = try? execute("ROLLBACK") }
    }

    /// Whether a table (or view) of that name exists.
    package func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try scalar("SELECT 1 FROM sqlite_schema WHERE type IN ('table','view') AND name = ?", [.text(name)]) != nil
    }

    /// The names of `table`'s columns, in table order.
    package func columnNames(of table: String) throws(SQLiteError) -> [String] {
        try rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.textValue }
    }

    /// An index of `table` on exactly `columns` (in any order), unique ones
    /// only when `uniqueOnly`; nil when there is none.
    package func index(on table: String, columns: [String], uniqueOnly: Bool) throws(SQLiteError) -> String? {
        for row in try rows("SELECT name, \"unique\" FROM pragma_index_list(?)", [.text(table)]) {
            guard let name = row[0].textValue, !uniqueOnly || row[1] == .integer(1) else { continue }
            let indexed = try rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(name)])
                .compactMap { $0.first?.textValue }
            if Set(indexed) == Set(columns) && indexed.count == columns.count { return name }
        }
        return nil
    }

    /// `base`, `base2` or `base3`, whichever no index is named yet (else
    /// `base` with a random suffix). Live and staging tables alternate
    /// between these names, because an index keeps its name when its table
    /// is renamed into place.
    package func freeIndexName(base: String) throws(SQLiteError) -> String {
        for candidate in [base, base + "2", base + "3"] {
            if try scalar("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(candidate)]) == nil {
                return candidate
            }
        }
        return "\(base)_\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The SQLite library version, e.g. "3.40.1".
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
