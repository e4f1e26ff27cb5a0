import EPFCatalogStore
import EPFFormat
import Foundation

/// Loads one table file into a staging table with `COPY ... FROM STDIN`
/// (text format), on a connection of its own, so that several tables can
/// load at once.
///
/// Each record is converted from the chunk bytes into one reusable output
/// buffer (`CopyEncoder`), sent with `PQputCopyData` in pieces of about
/// `flushBytes`. Once `checkpointBytes` of input have passed since the last
/// commit, at the next record-aligned point the importer reports
/// (`reached`), the COPY is ended and committed together with the file's
/// checkpoint row in `epf_checkpoint` (`SQLCheckpoints`: byte
/// offset, records, counters), then a new COPY starts: a killed import
/// leaves a staging table and a checkpoint that agree, and the next import
/// of the same file resumes from there (`resumedFrom`). `finish()` builds
/// the key after the load (last row of a key wins).
///
/// A file of `parallelCopyBytes` or more goes over `copyStreams` COPY
/// connections at once (`CopyLanes`), each in a transaction of its own into
/// the same staging table, which is therefore committed empty before the
/// rows come. At a checkpoint the other lanes commit just before the first
/// one commits the checkpoint; a load killed between the two leaves rows
/// past its checkpoint, which the resumed load deletes first (`epf_record`
/// above the checkpoint's records).
package final class PostgresTableLoader: TableLoader {

    /// The first lane's connection: the staging table, checkpoints, key.
    let connection: PostgresConnection
    let lanes: CopyLanes
    /// The import's extra COPY connections, `extraLanes` of them this
    /// load's until it has sent its rows.
    let budget: CopyLaneBudget
    private var extraLanes = 0
    let options: PostgresStoreOptions
    let hooks: LoadHooks
    /// The load's checkpoint row (`SQLCheckpoints`).
    let loadID: Int64
    let encoder: CopyEncoder
    let copyStatement: String
    package private(set) var progress: LoadProgress

    /// `lanes.current`, kept here: read once per record, it would cost a
    /// dynamic exclusivity check each time.
    private var piece: UnsafeMutableBufferPointer<UInt8>
    /// Bytes of `piece` filled.
    private var used = 0
    /// Rows converted before the piece being filled.
    private var rowsBeforePiece = 0
    private var copying = false
    private var finished = false
    /// Unfit values not yet written to `epf_unfit_values`.
    private var pendingUnfit: [(record: Int, column: Int, value: String)] = []
    private var unfitKept = 0

    /// Values kept in `epf_unfit_values` per file, at most (all are counted).
    package static let unfitKeptPerFile = 10_000

    /// Starts loading `staging` into its staging table, or, given `resume`
    /// (a checkpoint of the same file into a staging table that exists),
    /// goes on from where that load stopped.
    init(
        target: PostgresTarget, options: PostgresStoreOptions, staging: StagingTarget, strict: Bool, checkpointBytes: Int64,
        resume: SQLCheckpoints.Row?, budget: CopyLaneBudget, hooks: LoadHooks
    ) throws(CatalogError) {
        self.hooks = hooks
        self.options = options
        self.budget = budget
        progress = LoadProgress(target: staging, checkpointBytes: checkpointBytes, resume: resume?.stored)
        let header = staging.header
        let stagingName = CatalogTables.staging(for: staging.table)
        try PostgresSchema.checkIdentifier(stagingName, for: staging.table)
        encoder = CopyEncoder(header: header, strict: strict, file: staging.sourceName)
        let quoted = quoteIdentifier(stagingName)
        let columns = quoteColumnList(header.columns + [PostgresSchema.recordColumn])
        copyStatement = "COPY \(quoted) (\(columns)) FROM STDIN"
        let size = staging.source?.size ?? 0
        extraLanes = size >= options.parallelCopyBytes ? budget.take(options.copyStreams - 1) : 0
        let streams = 1 + extraLanes
        do {
            var connections: [PostgresConnection] = []
            for _ in 0..<streams {
                let lane = try PostgresConnection(target, applicationName: "epf load \(staging.table)")
                // Batch commits need not wait for the disk: a crash of the
                // server loses the last batches and their checkpoint together.
                try lane.execute("SET synchronous_commit = off; SET maintenance_work_mem = '\(options.maintenanceWorkMem)'")
                connections.append(lane)
            }
            lanes = CopyLanes(connections: connections, bufferCapacity: max(options.flushBytes * 2, 1 << 16))
            piece = lanes.current.pointer
            connection = connections[0]
        } catch {
            budget.give(extraLanes)
            throw CatalogError(error, while: "connecting to load \(staging.table)")
        }
        do {
            if let resume {
                loadID = resume.loadID
                unfitKept =
                    Int(
                        try connection.scalar("SELECT count(*) FROM \(CatalogTables.unfitValues) WHERE load_id = $1", [String(loadID)])
                            ?? "0")
                    ?? 0
                if !resume.checkpoint.staged {
                    try connection.execute("BEGIN")
                    // Rows other lanes committed after the last checkpoint.
                    try connection.change(
                        "DELETE FROM \(quoted) WHERE \(quoteIdentifier(PostgresSchema.recordColumn)) > $1",
                        [String(resume.checkpoint.records)])
                    try startCopy()
                }
            } else {
                // Created in the transaction of the first batch: a load
                // killed before its first commit leaves nothing.
                try connection.execute("BEGIN")
                try PostgresCheckpointTable.delete(staging: stagingName, on: connection)
                try connection.execute("DROP TABLE IF EXISTS \(quoted)")
                let unlogged = options.unloggedStaging || header.exportMode == .incremental
                try connection.execute(
                    "CREATE \(unlogged ? "UNLOGGED " : "")TABLE \(quoted) (\(PostgresDialect().columnDefinitions(header)), \(quoteIdentifier(PostgresSchema.recordColumn)) BIGINT NOT NULL)"
                )
                loadID = try SQLCheckpoints.start(staging: stagingName, target: staging, on: connection, dialect: PostgresDialect())
                // The other lanes COPY into the table: it must be committed.
                if lanes.count > 1 {
                    try connection.execute("COMMIT; BEGIN")
                }
                try startCopy()
            }
        } catch {
            for lane in lanes.connections { lane.rollback() }
            budget.give(extraLanes)
            throw connection.catalogError(error, while: "creating the staging table for \(staging.table)")
        }
    }

    deinit {
        releaseLanes()
    }

    /// Gives the extra COPY connections back to the import's budget, once:
    /// the load has no more rows to send.
    private func releaseLanes() {
        budget.give(extraLanes)
        extraLanes = 0
    }

    /// Starts a COPY on the first lane, in its open transaction, and one on
    /// each other lane, in a transaction of its own.
    private func startCopy() throws(PostgresError) {
        try connection.beginCopy(copyStatement)
        copying = true
        rowsBeforePiece = counts.rowsRead
        for other in lanes.connections.dropFirst() {
            try other.execute("BEGIN")
            try other.beginCopy(copyStatement)
        }
    }

    /// Ends every lane's COPY and commits the other lanes' transactions
    /// (the first lane's stays open, for the checkpoint).
    private func endCopies() throws {
        guard copying else { return }
        copying = false
        do {
            try lanes.endCopies()
        } catch {
            throw refused(error.error, row: error.row)
        }
        do {
            for other in lanes.connections.dropFirst() { try other.execute("COMMIT") }
        } catch {
            throw refused(error)
        }
    }

    private func rollbackAll() {
        for lane in lanes.connections { lane.rollback() }
    }

    /// Converts every record of `batch` into COPY lines and sends them.
    package func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        let lastColumn = encoder.columnCount - 1
        for record in 0..<batch.count {
            let recordBytes = batch.field(record, lastColumn).end - batch.field(record, 0).start
            let needed = encoder.worstCase(recordBytes: recordBytes)
            if used + needed > piece.count { try makeRoom(needed) }
            let number = firstRecord + batch.ordinal(record)
            let length = try encoder.encode(
                batch, record: record, base: base, recordNumber: number, chunkOffset: chunkOffset, into: piece.baseAddress! + used)
            let tally = encoder.tally
            progress.counts.add(tally)
            if tally.misfits > 0 {
                noteUnfit(batch, record: record, base: base, number: number)
            }
            used += length
            progress.counts.rowsRead += 1
            if used >= options.flushBytes { try send() }
        }
    }

    /// Keeps the values of `record` that did not fit their type (they are
    /// counted with the record's tally).
    private func noteUnfit(_ batch: RecordBatch, record: Int, base: UnsafePointer<UInt8>, number: Int) {
        for column in encoder.unfitColumns {
            guard unfitKept < Self.unfitKeptPerFile else { continue }
            unfitKept += 1
            let span = batch.field(record, column)
            let bytes = UnsafeBufferPointer(start: base + span.start, count: span.count).filter { $0 != 0 }
            pendingUnfit.append((number, column, String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// Sends what the buffer holds, then grows it if one record needs more.
    private func makeRoom(_ needed: Int) throws {
        try send()
        if needed > piece.count {
            lanes.grow(to: needed)
            piece = lanes.current.pointer
        }
    }

    /// Hands the rows converted since the last piece to a lane.
    private func send() throws {
        guard used > 0 else { return }
        let rows = counts.rowsRead - rowsBeforePiece
        do {
            try lanes.ship(used, piece: CopyLanes.Piece(firstRow: rowsBeforePiece + 1, rows: rows))
        } catch {
            throw refused(error)
        }
        piece = lanes.current.pointer
        used = 0
        rowsBeforePiece = counts.rowsRead
    }

    /// Commits what is loaded, with its checkpoint, once `checkpointBytes`
    /// have passed since the last commit: the COPY is ended, the unfit
    /// values kept so far and the checkpoint written, all committed, and a
    /// new COPY started.
    package func reached(byteOffset: Int64, records: Int) throws {
        guard !finished, progress.isCommitDue(at: byteOffset) else { return }
        try send()
        do {
            try endCopies()
            if lanes.count > 1 { hooks.reach(.lanesCommitted) }
            try writeUnfit()
            try SQLCheckpoints.save(
                progress.checkpoint(at: byteOffset, records: records), loadID: loadID, on: connection, dialect: PostgresDialect())
            try connection.execute("COMMIT")
        } catch {
            rollbackAll()
            throw refused(error)
        }
        progress.committed(at: byteOffset)
        hooks.reach(.checkpoint)
        do {
            try connection.execute("BEGIN")
            try startCopy()
        } catch {
            rollbackAll()
            throw refused(error)
        }
    }

    private func writeUnfit() throws(PostgresError) {
        guard !pendingUnfit.isEmpty else { return }
        let columns = target.header.columns
        for value in pendingUnfit {
            try connection.change(
                """
                INSERT INTO \(CatalogTables.unfitValues) (load_id, table_name, source_path, record, column_name, declared_type, value)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [
                    String(loadID), target.table, target.sourceName, String(value.record), columns[value.column],
                    target.header.types[value.column].declared, value.value,
                ])
        }
        pendingUnfit.removeAll()
    }

    /// A server error during the load, with the record it was about when
    /// the server says which COPY line it refused (`row`, counted over
    /// the rows sent: `CopyLanes.row(forLine:lane:)`).
    private func refused(_ error: any Error, row: Int? = nil) -> any Error {
        guard let error = error as? PostgresError else { return error }
        if let row, !error.isDiskFull {
            // With a storefront filter, COPY lines count the kept rows only.
            let which = counts.filteredRows > 0 ? "kept row" : "record"
            return CatalogError(
                .failed,
                detail: "\(which) \(row) of \(target.table): PostgreSQL refused it: \(error.message)",
                hint: "Nothing was applied from this file; report the record (it should have been converted or counted)")
        }
        return CatalogError(error, while: "loading \(target.table) into \(stagingName)")
    }

    /// Ends the load; builds the key (last row of a repeated key wins)
    /// and, for a FULL file, the lookup index, and commits them with the
    /// rows not yet committed and a checkpoint that says the file is staged
    /// completely; the staging table is then ready for `apply`. A load that
    /// resumed a completely staged file returns it as it is.
    package func finish() throws -> StagedTable {
        if progress.resumesStaged {
            finished = true
            return progress.staged(in: stagingName, keyIndex: progress.stagedKeyIndex)
        }
        hooks.reach(.beforeIndex)
        try send()
        let header = target.header
        let staging = quoteIdentifier(stagingName)
        let key = header.primaryKey
        var indexName: String?
        do {
            try endCopies()
            // Idle while the key is built: another file may use them.
            releaseLanes()
            try writeUnfit()
            if header.exportMode == .full {
                // Made UNLOGGED by this load or by the one it resumed.
                let persistence = try connection.scalar("SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)", [staging])
                if persistence == "u" {
                    try connection.execute("ALTER TABLE \(staging) SET LOGGED")
                }
                if !key.isEmpty {
                    let built = try StagingKey.build(
                        on: stagingName, table: target.table, key: key, connection: connection, dialect: PostgresDialect())
                    indexName = built.index
                    progress.counts.duplicateKeys = built.duplicates
                }
                try LookupIndex.build(on: stagingName, catalogTable: target.table, key: key, in: connection)
                try PostgresSearchIndex.buildStaging(for: target, staging: stagingName, on: connection)  // needs epf_record
                try connection.execute("ALTER TABLE \(staging) DROP COLUMN \(quoteIdentifier(PostgresSchema.recordColumn))")
                try connection.execute("ANALYZE \(staging)")
            } else if !key.isEmpty {
                // PostgreSQL refuses to update a row twice in one statement:
                // keep the last row of each key before the upsert.
                progress.counts.duplicateKeys = try StagingKey.keepLast(
                    in: stagingName, key: key, connection: connection, dialect: PostgresDialect())
            }
            try SQLCheckpoints.save(
                progress.stagedCheckpoint, loadID: loadID, keyIndex: indexName, on: connection, dialect: PostgresDialect())
            try connection.execute("COMMIT")
        } catch {
            if copying {
                copying = false
                lanes.abortCopies()
            }
            rollbackAll()
            releaseLanes()
            finished = true
            throw refused(error)
        }
        finished = true
        return progress.staged(in: stagingName, keyIndex: indexName)
    }

    /// Rolls back what is not committed and keeps the rest, with its
    /// checkpoint, for the next import of the same file to resume.
    package func suspend() {
        guard !finished else { return }
        finished = true
        if copying {
            copying = false
            lanes.abortCopies()
        }
        rollbackAll()
        releaseLanes()
    }

    /// Abandons the load (the file failed): the COPY in progress is rolled
    /// back, and the staging table, checkpoint and unfit values committed so
    /// far are dropped: a file that failed is not resumed. (A killed import
    /// leaves them instead, for the next import of the same file.)
    package func abandon() {
        suspend()
        _ = try? connection.execute("BEGIN")
        do {
            try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(stagingName))")
            try PostgresCheckpointTable.delete(staging: stagingName, on: connection)
            try connection.execute("COMMIT")
        } catch {
            connection.rollback()
        }
    }
}
