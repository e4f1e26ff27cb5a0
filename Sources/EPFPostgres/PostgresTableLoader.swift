import EPFCatalog
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
package final class PostgresTableLoader: TableLoader {

    let connection: PostgresConnection
    let options: PostgresStoreOptions
    let hooks: LoadHooks
    /// The load's checkpoint row (`SQLCheckpoints`).
    let loadID: Int64
    let encoder: CopyEncoder
    let copyStatement: String
    package private(set) var progress: LoadProgress

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    private var copying = false
    private var finished = false
    /// The record number of the first line of the current COPY, for errors.
    private var firstRecordOfCopy = 1
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
        resume: SQLCheckpoints.Row?, hooks: LoadHooks
    ) throws(CatalogError) {
        self.hooks = hooks
        self.options = options
        progress = LoadProgress(target: staging, checkpointBytes: checkpointBytes, resume: resume?.stored)
        let header = staging.header
        let stagingName = CatalogTables.staging(for: staging.table)
        try PostgresSchema.checkIdentifier(stagingName, for: staging.table)
        encoder = CopyEncoder(header: header, strict: strict, file: staging.sourceName)
        capacity = max(options.flushBytes * 2, 1 << 16)
        buffer = .allocate(capacity: capacity)
        let quoted = quoteIdentifier(stagingName)
        let columns = quoteColumnList(header.columns + [PostgresSchema.recordColumn])
        copyStatement = "COPY \(quoted) (\(columns)) FROM STDIN"
        do {
            connection = try PostgresConnection(target, applicationName: "epf load \(staging.table)")
        } catch {
            buffer.deallocate()
            throw CatalogError(error, while: "connecting to load \(staging.table)")
        }
        do {
            // Batch commits need not wait for the disk: a crash of the
            // server loses the last batches and their checkpoint together.
            try connection.execute("SET synchronous_commit = off; SET maintenance_work_mem = '\(options.maintenanceWorkMem)'")
            if let resume {
                loadID = resume.loadID
                unfitKept = Int(
                    try connection.scalar("SELECT count(*) FROM \(PostgresCatalogStore.unfitTable) WHERE load_id = $1", [String(loadID)]) ?? "0")
                    ?? 0
                if !resume.checkpoint.staged {
                    try connection.execute("BEGIN")
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
                    "CREATE \(unlogged ? "UNLOGGED " : "")TABLE \(quoted) (\(PostgresDialect().columnDefinitions(header)), \(quoteIdentifier(PostgresSchema.recordColumn)) BIGINT NOT NULL)")
                loadID = try SQLCheckpoints.start(staging: stagingName, target: staging, on: connection, dialect: PostgresDialect())
                try startCopy()
            }
        } catch {
            connection.rollback()
            buffer.deallocate()
            throw connection.catalogError(error, while: "creating the staging table for \(staging.table)")
        }
    }

    deinit {
        buffer.deallocate()
    }

    /// Starts a COPY in the open transaction.
    private func startCopy() throws(PostgresError) {
        try connection.beginCopy(copyStatement)
        copying = true
        firstRecordOfCopy = counts.rowsRead + 1
    }

    /// Converts every record of `batch` into COPY lines and sends them.
    package func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        let lastColumn = encoder.columnCount - 1
        for record in 0..<batch.count {
            let recordBytes = batch.field(record, lastColumn).end - batch.field(record, 0).start
            let needed = encoder.worstCase(recordBytes: recordBytes)
            if used + needed > capacity { try makeRoom(needed) }
            let number = firstRecord + batch.ordinal(record)
            let length = try encoder.encode(
                batch, record: record, base: base, recordNumber: number, chunkOffset: chunkOffset, into: buffer + used)
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
        if needed > capacity {
            buffer.deallocate()
            capacity = needed
            buffer = .allocate(capacity: capacity)
        }
    }

    private func send() throws {
        guard used > 0 else { return }
        do {
            try connection.putCopyData(buffer, count: used)
        } catch {
            throw refused(error)
        }
        used = 0
    }

    /// Commits what is loaded, with its checkpoint, once `checkpointBytes`
    /// have passed since the last commit: the COPY is ended, the unfit
    /// values kept so far and the checkpoint written, all committed, and a
    /// new COPY started.
    package func reached(byteOffset: Int64, records: Int) throws {
        guard !finished, progress.isCommitDue(at: byteOffset) else { return }
        try send()
        do {
            copying = false
            try connection.endCopy()
            try writeUnfit()
            try SQLCheckpoints.save(progress.checkpoint(at: byteOffset, records: records), loadID: loadID, on: connection, dialect: PostgresDialect())
            try connection.execute("COMMIT")
        } catch {
            connection.rollback()
            throw refused(error)
        }
        progress.committed(at: byteOffset)
        hooks.reach(.checkpoint)
        do {
            try connection.execute("BEGIN")
            try startCopy()
        } catch {
            connection.rollback()
            throw refused(error)
        }
    }

    private func writeUnfit() throws(PostgresError) {
        guard !pendingUnfit.isEmpty else { return }
        let columns = target.header.columns
        for value in pendingUnfit {
            try connection.change(
                """
                INSERT INTO \(PostgresCatalogStore.unfitTable) (load_id, table_name, source_path, record, column_name, declared_type, value)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [String(loadID), target.table, target.sourceName, String(value.record), columns[value.column],
                 target.header.types[value.column].declared, value.value])
        }
        pendingUnfit.removeAll()
    }

    /// A server error during the load, with the record it was about when
    /// the server says which COPY line it refused.
    private func refused(_ error: any Error) -> any Error {
        guard let error = error as? PostgresError else { return error }
        if let line = error.copyLine, !error.isDiskFull {
            // With a storefront filter, COPY lines count the kept rows only.
            let which = counts.filteredRows > 0 ? "kept row" : "record"
            return CatalogError(
                .failed,
                detail: "\(which) \(firstRecordOfCopy + line - 1) of \(target.table): PostgreSQL refused it: \(error.message)",
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
            if copying {
                copying = false
                try connection.endCopy()
            }
            try writeUnfit()
            if header.exportMode == .full {
                // Made UNLOGGED by this load or by the one it resumed.
                let persistence = try connection.scalar("SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)", [staging])
                if persistence == "u" {
                    try connection.execute("ALTER TABLE \(staging) SET LOGGED")
                }
                if !key.isEmpty {
                    let built = try StagingKey.build(on: stagingName, table: target.table, key: key, connection: connection, dialect: PostgresDialect())
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
                progress.counts.duplicateKeys = try StagingKey.keepLast(in: stagingName, key: key, connection: connection, dialect: PostgresDialect())
            }
            try SQLCheckpoints.save(progress.stagedCheckpoint, loadID: loadID, keyIndex: indexName, on: connection, dialect: PostgresDialect())
            try connection.execute("COMMIT")
        } catch {
            connection.rollback()
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
            connection.abortCopy()
        }
        connection.rollback()
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
