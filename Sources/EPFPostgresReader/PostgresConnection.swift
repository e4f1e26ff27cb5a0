import CLibPQ
import EPFCatalogRead
import Foundation

/// One libpq connection, in blocking mode, with text results.
///
/// Not thread-safe: one thread uses a connection at a time (each table
/// loader has its own; the store guards its own with a lock).
package final class PostgresConnection {
    /// libpq's connection; the store's COPY uses it too.
    package let handle: OpaquePointer
    package let target: PostgresTarget
    /// The statements `pipeline` prepared on this connection: their
    /// names, by SQL text.
    var preparedStatements: [String: String] = [:]

    /// Connects and sets what every session of the importer needs: UTF-8
    /// text, ISO dates, and a name the server's activity view shows.
    package init(_ target: PostgresTarget, applicationName: String = "epf") throws(PostgresError) {
        self.target = target
        guard let connection = PQconnectdb(target.conninfo) else {
            throw PostgresError(sqlState: nil, message: "\(target.redacted): libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = target.scrub(String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines))
            PQfinish(connection)
            throw PostgresError(sqlState: nil, message: "cannot connect to \(target.redacted): \(message)")
        }
        handle = connection
        guard PQsetClientEncoding(handle, "UTF8") == 0 else {
            throw error(nil, prefix: "setting the client encoding to UTF8")
        }
        try execute("SET client_min_messages = warning; SET DateStyle = 'ISO, YMD'; SET application_name = \(literal(applicationName))")
    }

    deinit { PQfinish(handle) }

    /// The server's version number (150018 for 15.18).
    package var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// Runs statements (several, separated by `;`, are allowed) that return
    /// no rows or whose rows are not wanted.
    package func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with text parameters (nil is NULL) and returns
    /// its rows as text (nil for NULL).
    @discardableResult
    package func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        let result = withParameters(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return rows(of: result)
    }

    /// Runs one statement with `parameters` (nil is NULL) and hands each
    /// row of its result to `body`, in order, read in place.
    package func forEachRow(_ sql: String, _ parameters: [String?], _ body: (PostgresRow) -> Void) throws(PostgresError) {
        let result = withParameters(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard let result else { return }
        for row in 0..<PQntuples(result) { body(PostgresRow(result, row: row)) }
    }

    /// The first column of the first row, as text.
    package func scalar(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> String? {
        try query(sql, parameters).first?.first ?? nil
    }

    /// Runs one statement that changes rows and returns how many it changed.
    @discardableResult
    package func change(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> Int {
        let result = withParameters(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Whether a transaction is open.
    package var inTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// Rolls back an open transaction, if any; errors are ignored (the
    /// connection may be gone).
    package func rollback() {
        if inTransaction {
            PQclear(PQexec(handle, "ROLLBACK"))
        }
    }

    /// A table's columns in table order (the read source's, and the
    /// store's through `SQLConnection`).
    package func columnNames(of table: String) throws(PostgresError) -> [String] {
        try query(
            """
            SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            ORDER BY attnum
            """, [quoteIdentifier(table)]
        ).compactMap { $0.first ?? nil }
    }

    // MARK: Helpers

    /// `'text'` as a SQL string literal.
    package func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    package func withParameters<R>(_ parameters: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        // strdup'ed copies live until the call returns.
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    private func rows(of result: OpaquePointer?) -> [[String?]] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append(
                (0..<columnCount).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }

    package func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: throw error(result, prefix: nil)
        }
    }

    /// The error of `result`, or the connection's, scrubbed of passwords.
    package func error(_ result: OpaquePointer?, prefix: String?) -> PostgresError {
        var message: String
        var sqlState: String?
        var copyLine: Int?
        if let result, PQresultStatus(result) != PGRES_COMMAND_OK {
            func field(_ code: UInt8) -> String? {
                PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
            }
            sqlState = field(UInt8(ascii: "C"))
            message = field(UInt8(ascii: "M")) ?? String(cString: PQresultErrorMessage(result))
            if let detail = field(UInt8(ascii: "D")) { message += " (\(detail))" }
            if let context = field(UInt8(ascii: "W")) {
                copyLine = Self.copyLine(in: context)
                if copyLine == nil { message += " [\(context)]" }
            }
        } else {
            message = String(cString: PQerrorMessage(handle))
        }
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let prefix { message = "\(prefix): \(message)" }
        return PostgresError(sqlState: sqlState, message: target.scrub(message), copyLine: copyLine)
    }

    /// The line number in `COPY t, line 12, column c: "..."`.
    static func copyLine(in context: String) -> Int? {
        guard context.hasPrefix("COPY "), let range = context.range(of: ", line ") else { return nil }
        let digits = context[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}
