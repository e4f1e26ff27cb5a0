import CSQLite
import EPFCatalogRead

extension SQLiteDatabase {
    /// Runs exactly one statement that only reads, and returns its column
    /// names and rows.
    ///
    /// Refused before running: text with no statement or with several, a
    /// statement for which `sqlite3_stmt_readonly` is false, and ATTACH or
    /// DETACH (which SQLite counts as read-only because they change the
    /// connection, not a file). Open the connection read-only as well.
    package func readOnlyQuery(sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
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
            throw .failed(SQLiteError(database: handle, code: code, sql: sql).message)
        }
        guard let prepared else { throw .noStatement }
        let statement = SQLiteStatement(database: self, handle: prepared, sql: sql)

        // Anything after the first statement other than blanks and comments
        // is a second statement (or a broken one): refuse either way.
        var next: OpaquePointer?
        let nextCode = sqlite3_prepare_v2(handle, rest, -1, &next, nil)
        sqlite3_finalize(next)
        if nextCode != SQLITE_OK || next != nil { throw .severalStatements }

        guard statement.isReadOnly else { throw .notReadOnly }
        do {
            return ((0..<statement.columnCount).map(statement.columnName), try statement.rows())
        } catch {
            throw .failed(error.message)
        }
    }
}

/// Authorizer that denies ATTACH and DETACH and allows everything else.
private let denyAttach:
    @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
    ) -> Int32 = { _, action, _, _, _, _ in
        action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK
    }
