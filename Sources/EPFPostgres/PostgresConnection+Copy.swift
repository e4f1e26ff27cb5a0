import CLibPQ
import EPFPostgresReader

/// What only the store does on a connection: COPY, and a statement that
/// may break a unique index. The reader module defines no write method.
extension PostgresConnection {
    /// Runs `sql` inside a savepoint of the open transaction; false (and
    /// the savepoint rolled back) when it fails on a unique violation.
    package func executeUnlessUniqueViolation(_ sql: String) throws(PostgresError) -> Bool {
        try execute("SAVEPOINT epf_unique")
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        if PQresultStatus(result) == PGRES_COMMAND_OK {
            try execute("RELEASE SAVEPOINT epf_unique")
            return true
        }
        let failure = error(result, prefix: nil)
        guard failure.isUniqueViolation else { throw failure }
        try execute("ROLLBACK TO SAVEPOINT epf_unique")
        return false
    }

    /// Starts `COPY ... FROM STDIN`.
    package func beginCopy(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COPY_IN else {
            try check(result, sql: sql)
            throw PostgresError(sqlState: nil, message: "\(sql): the server did not start a COPY")
        }
    }

    /// Sends bytes of the COPY stream.
    package func putCopyData(_ bytes: UnsafePointer<UInt8>, count: Int) throws(PostgresError) {
        let sent = bytes.withMemoryRebound(to: CChar.self, capacity: count) { PQputCopyData(handle, $0, Int32(count)) }
        guard sent == 1 else { throw error(nil, prefix: "sending COPY data") }
    }

    /// Ends the COPY stream and returns the rows the server stored.
    @discardableResult
    package func endCopy() throws(PostgresError) -> Int {
        guard PQputCopyEnd(handle, nil) == 1 else { throw error(nil, prefix: "ending COPY") }
        return try drainCopyResults()
    }

    /// Abandons a COPY in progress (the server rolls it back).
    package func abortCopy() {
        if PQputCopyEnd(handle, "abandoned by epf") == 1 {
            _ = try? drainCopyResults()
        }
    }

    private func drainCopyResults() throws(PostgresError) -> Int {
        var rows = 0
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                rows += Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if failure == nil {
                failure = error(result, prefix: nil)
            }
        }
        if let failure { throw failure }
        return rows
    }
}
