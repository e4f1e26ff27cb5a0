import CSQLite

extension SQLiteDatabase {
    /// Calls `handler` with the SQL of every statement this connection
    /// starts to run, as SQLite runs it (`sqlite3_trace_v2`,
    /// `SQLITE_TRACE_STMT`: each run of a prepared statement, `BEGIN` and
    /// `ROLLBACK` included); nil stops. What the tests count a request's
    /// statements with.
    package func traceStatements(_ handler: ((String) -> Void)?) {
        guard let handler else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            statementTracer = nil
            return
        }
        let tracer = StatementTracer(handler)
        statementTracer = tracer
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, sql in
                // The context is the tracer the connection keeps
                // (`statementTracer`) for as long as this callback is set.
                guard let context else { return 0 }
                let tracer = Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue()
                tracer.handler(sql.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
                return 0
            }, Unmanaged.passUnretained(tracer).toOpaque())
    }
}

/// The handler of `SQLiteDatabase.traceStatements`.
final class StatementTracer {
    let handler: (String) -> Void

    init(_ handler: @escaping (String) -> Void) { self.handler = handler }
}
