import CLibPQ

/// Queries sent together, in libpq's pipeline mode: a batch of statements
/// costs one round trip to the server instead of one each, and the
/// statements are prepared once per connection.
///
/// A pipeline that is not synced stays open between batches, and every
/// statement in it runs in one implicit transaction, ended by the Sync
/// (`sync`, `endPipeline`). That is how the read engine takes a snapshot
/// without `BEGIN` and `ROLLBACK`: its sessions read at REPEATABLE READ
/// by default (`PostgresReadSource`), so the statements of one request,
/// over several round trips, see one state of the catalog.
///
/// On a failed statement the server skips the rest until the Sync
/// (`PGRES_PIPELINE_ABORTED`); the batch throws the first error once all
/// its results are read, so the connection stays in step with the server.
extension PostgresConnection {
    /// How many statements a connection keeps prepared; past it, a new
    /// SQL text is parsed and planned each time (the read engine's texts
    /// are a few dozen; this bounds a caller that makes them up).
    static let maxPreparedStatements = 256

    /// One query of a batch: its SQL and its parameters as text (nil is
    /// NULL).
    package struct PipelinedQuery {
        package let sql: String
        package let parameters: [String?]

        package init(sql: String, parameters: [String?]) {
            self.sql = sql
            self.parameters = parameters
        }
    }

    /// Whether a pipeline is open (a batch sent without `sync`).
    package var inPipeline: Bool { PQpipelineStatus(handle) != PQ_PIPELINE_OFF }

    /// Sends `queries` at once and hands each row of their results to
    /// `body` with its query's place in `queries`, in order. Each query is
    /// prepared on this connection the first time it is sent (in the same
    /// round trip) and run prepared after.
    ///
    /// - Parameter sync: end the pipeline with this batch (and the
    ///   implicit transaction it holds), and leave pipeline mode; else the
    ///   server is asked to answer without it, and the pipeline stays
    ///   open for the next batch.
    package func pipeline(_ queries: [PipelinedQuery], sync: Bool, _ body: (Int, PostgresRow) -> Void) throws(PostgresError) {
        if !inPipeline {
            guard PQenterPipelineMode(handle) == 1 else { throw error(nil, prefix: "entering pipeline mode") }
        }
        enum Sent {
            case prepare(name: String, sql: String)
            case query(Int)
        }
        var sent: [Sent] = []
        sent.reserveCapacity(queries.count * 2)
        for (index, query) in queries.enumerated() {
            var name = preparedStatements[query.sql]
            if name == nil, preparedStatements.count < Self.maxPreparedStatements {
                // Unique on this connection: a failed prepare leaves its
                // name unused, and a later one takes another.
                let fresh = "epf_read_\(preparedStatements.count)_\(sent.count)"
                guard PQsendPrepare(handle, fresh, query.sql, 0, nil) == 1 else { throw error(nil, prefix: "sending a query") }
                sent.append(.prepare(name: fresh, sql: query.sql))
                name = fresh
            }
            let queued = withParameters(query.parameters) { values in
                if let name {
                    PQsendQueryPrepared(handle, name, Int32(query.parameters.count), values, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, query.sql, Int32(query.parameters.count), nil, values, nil, nil, 0)
                }
            }
            guard queued == 1 else { throw error(nil, prefix: "sending a query") }
            sent.append(.query(index))
        }
        if sync {
            guard PQpipelineSync(handle) == 1 else { throw error(nil, prefix: "sending a query") }
        } else {
            guard PQsendFlushRequest(handle) == 1, PQflush(handle) == 0 else { throw error(nil, prefix: "sending a query") }
        }
        var failure: PostgresError?
        for item in sent {
            // The results of one statement, then nil.
            while let result = PQgetResult(handle) {
                defer { PQclear(result) }
                switch (PQresultStatus(result), item) {
                case (PGRES_TUPLES_OK, .query(let index)):
                    if failure == nil {
                        for row in 0..<PQntuples(result) { body(index, PostgresRow(result, row: row)) }
                    }
                case (PGRES_COMMAND_OK, .prepare(let name, let sql)):
                    preparedStatements[sql] = name
                case (PGRES_COMMAND_OK, .query), (PGRES_PIPELINE_ABORTED, _):
                    break
                default:
                    if failure == nil { failure = error(result, prefix: nil) }
                }
            }
        }
        if sync { finishSync() }
        guard PQstatus(handle) == CONNECTION_OK else { throw failure ?? error(nil, prefix: "reading a result") }
        if let failure { throw failure }
    }

    /// Ends an open pipeline: sends the Sync (which ends its implicit
    /// transaction), reads what is left, leaves pipeline mode. Does
    /// nothing when none is open; errors are ignored (the connection may
    /// be gone).
    package func endPipeline() {
        guard inPipeline else { return }
        guard PQstatus(handle) == CONNECTION_OK, PQpipelineSync(handle) == 1 else {
            _ = PQexitPipelineMode(handle)
            return
        }
        finishSync()
    }

    /// Reads up to the Sync's result, then leaves pipeline mode.
    private func finishSync() {
        // Every statement's results were read: what comes is the Sync's
        // (a bound, in case the connection broke).
        for _ in 0..<1_000 {
            guard PQstatus(handle) == CONNECTION_OK else { break }
            guard let result = PQgetResult(handle) else { continue }
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        _ = PQexitPipelineMode(handle)
    }
}
