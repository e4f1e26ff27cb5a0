import CSQLite
import EPFCatalogStore
import EPFFormat

/// Loads the rows of one table file into a staging table, binding each field
/// straight from the input bytes into one prepared INSERT.
///
/// The staging table has no index while it fills (building the key index
/// after the load is several times faster than keeping it during the load);
/// `finish()` builds the key, resolving duplicate keys (last row wins).
///
/// Transactions: the load commits every `checkpointBytes` of input, each
/// time with its checkpoint (`SQLCheckpoints`), so a killed import resumes
/// from the last commit (`resumedFrom`) instead of starting over; readers
/// never see a staging table. A load that fails (`abandon`) drops its
/// staging table and checkpoint.
package final class SQLiteTableLoader: TableLoader {

    let database: SQLiteDatabase
    /// The load's checkpoint row (`SQLCheckpoints`).
    let loadID: Int64
    /// The INSERT the rows go through: the plain one, or for a file of wide
    /// rows the comparing one (`UnchangedRowFilter`).
    var insert: SQLiteStatement
    /// The comparing INSERT, until the first batch tells whether the
    /// file's rows are wide enough for it.
    var pendingComparison: SQLiteStatement?
    /// Decodes each record's fields into `insert` (`SQLiteInsertSink`).
    let decoder: RecordDecoder
    package private(set) var progress: LoadProgress
    var finished = false
    let hooks: LoadHooks

    /// Starts loading `target` into its staging table, or, given `resume`
    /// (a checkpoint of the same file into a staging table that exists),
    /// goes on from where that load stopped.
    init(
        database: SQLiteDatabase, target: StagingTarget, strict: Bool, checkpointBytes: Int64, resume: SQLCheckpoints.Row?,
        hooks: LoadHooks
    ) throws(CatalogError) {
        self.database = database
        self.hooks = hooks
        progress = LoadProgress(target: target, checkpointBytes: checkpointBytes, resume: resume?.stored)
        decoder = RecordDecoder(header: target.header, strict: strict, file: target.sourceName, sink: SQLiteInsertSink.self)
        let stagingName = CatalogTables.staging(for: target.table)
        let staging = quoteIdentifier(stagingName)
        do {
            try database.execute("BEGIN IMMEDIATE")
            let comparing = try UnchangedRowFilter.comparingInsert(for: target, staging: stagingName, in: database)
            var marks = comparing != nil
            if let resume {
                loadID = resume.loadID
                // A resumed load goes on as it began.
                marks = try marks && database.columnNames(of: stagingName).contains(CatalogTables.unchangedColumn)
            } else {
                try SearchIndexMaintenance.discard(staging: stagingName, in: database)
                try database.execute("DROP TABLE IF EXISTS \(staging)")
                try SQLCheckpoints.delete(staging: stagingName, on: database, dialect: SQLiteDialect())
                let marker = marks ? ", \(quoteIdentifier(CatalogTables.unchangedColumn)) INTEGER" : ""
                try database.execute("CREATE TABLE \(staging) (\(SQLiteDialect().columnDefinitions(target.header))\(marker))")
                loadID = try SQLCheckpoints.start(staging: stagingName, target: target, on: database, dialect: SQLiteDialect())
            }
            insert = try database.prepare(UnchangedRowFilter.plainInsert(for: target, staging: stagingName))
            pendingComparison = try marks ? comparing.map { sql throws(SQLiteError) in try database.prepare(sql) } : nil
        } catch {
            database.rollback()
            throw database.catalogError(error, while: "creating the staging table for \(target.table)")
        }
    }

    deinit {
        if !finished { database.rollback() }
    }

    /// Inserts every record of `batch`, whose spans point into `chunk`.
    /// `firstRecord` is the 1-based number of the batch's first record in the
    /// file and `chunkOffset` the file offset of the chunk, for errors.
    package func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        if let comparing = pendingComparison, batch.count > 0 {
            pendingComparison = nil
            // The batch's records lie one after another in the chunk.
            let bytes = batch.field(batch.count - 1, target.header.columns.count - 1).end - batch.offset(0)
            if bytes / batch.count >= UnchangedRowFilter.minimumRowBytes { insert = comparing }
        }
        var sink = SQLiteInsertSink(insert: insert)
        for record in 0..<batch.count {
            let number = firstRecord + batch.ordinal(record)
            let tally: RecordTally
            do {
                tally = try decoder.decode(record, of: batch, base: base, number: number, chunkOffset: chunkOffset, into: &sink)
            } catch {
                insert.reset()  // --strict refused it
                throw error
            }
            progress.counts.add(tally)
            do {
                try insert.step()
            } catch {
                insert.reset()
                throw CatalogError(error, while: "storing record \(number) of \(target.table)")
            }
            insert.reset()
        }
        progress.counts.rowsRead += batch.count
    }

    /// Commits what is loaded, with its checkpoint, once `checkpointBytes`
    /// have passed since the last commit.
    package func reached(byteOffset: Int64, records: Int) throws {
        guard progress.isCommitDue(at: byteOffset) else { return }
        do {
            try SQLCheckpoints.save(
                progress.checkpoint(at: byteOffset, records: records), loadID: loadID, on: database, dialect: SQLiteDialect())
            try database.execute("COMMIT")
            progress.committed(at: byteOffset)
            hooks.reach(.checkpoint)
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw database.catalogError(error, while: "committing rows of \(target.table) up to byte \(byteOffset)")
        }
    }

    /// Builds the key on the staging table (`StagingKey`: the last row of a
    /// repeated key wins), then, for a FULL file of a table the catalog
    /// searches, its full-text index (`SearchIndex`), and commits the
    /// staging table with a checkpoint that says it is complete.
    package func finish() throws -> StagedTable {
        if progress.resumesStaged {
            // Complete before the import stopped: key and indexes are built.
            do {
                try database.execute("COMMIT")
            } catch {
                throw CatalogError(error, while: "reopening the staged table of \(target.table)")
            }
            finished = true
            return progress.staged(in: stagingName, keyIndex: progress.stagedKeyIndex)
        }
        hooks.reach(.beforeIndex)
        let key = target.header.primaryKey
        var indexName: String?
        do {
            if !key.isEmpty {
                let built = try StagingKey.build(
                    on: stagingName, table: target.table, key: key, connection: database, dialect: SQLiteDialect())
                indexName = built.index
                progress.counts.duplicateKeys = built.duplicates
            }
            // After the key: duplicate keys are gone, so no dead rows get
            // indexed. Only a FULL file's staging table becomes the live
            // one; an INCREMENTAL one is read once, in order, by the upsert
            // (the apply builds the index on the live table if it lacks it).
            if target.header.exportMode == .full {
                try LookupIndex.build(on: stagingName, catalogTable: target.table, key: key, in: database)
            }
            try SearchIndexMaintenance.buildStaging(for: target, staging: stagingName, in: database)
            try SQLCheckpoints.save(progress.stagedCheckpoint, loadID: loadID, keyIndex: indexName, on: database, dialect: SQLiteDialect())
            try database.execute("COMMIT")
        } catch {
            database.rollback()
            finished = true
            throw database.catalogError(error, while: "building the key and search index of \(target.table)")
        }
        finished = true
        return progress.staged(in: stagingName, keyIndex: indexName)
    }

    /// Rolls back what is not committed and keeps the rest, with its
    /// checkpoint, for the next import of the same file to resume.
    package func suspend() {
        if !finished {
            database.rollback()
            finished = true
        }
    }

    /// Rolls back what is not committed, then drops the staging table and
    /// its checkpoint: a file that failed is not resumed.
    package func abandon() {
        if !finished {
            database.rollback()
            finished = true
        }
        _ = try? database.transaction {
            try SearchIndexMaintenance.discard(staging: stagingName, in: database)
            try database.execute("DROP TABLE IF EXISTS \(quoteIdentifier(stagingName))")
            try SQLCheckpoints.delete(staging: stagingName, on: database, dialect: SQLiteDialect())
        }
    }
}

/// Binds each decoded field of a record to its parameter of the staging
/// table's INSERT: integers and booleans (0/1) as integers, decimals as
/// doubles, dates as their normalised text, text and unfit values as text
/// (bound without a copy: the decoder keeps the bytes in place until the
/// record is stepped). An empty key field is the empty text, so a key never
/// holds NULL.
struct SQLiteInsertSink: FieldSink {
    let insert: SQLiteStatement

    static func keepsEmptyKey(of type: ColumnType) -> Bool { true }
    static var storesUnfitAsText: Bool { true }

    @inline(__always)
    func null(column: Int) { insert.bindNull(at: Int32(column + 1)) }

    @inline(__always)
    func integer(_ value: Int64, column: Int) -> Bool {
        insert.bind(value, at: Int32(column + 1))
        return true
    }

    @inline(__always)
    func boolean(_ value: Bool, column: Int) -> Bool {
        insert.bind(Int64(value ? 1 : 0), at: Int32(column + 1))
        return true
    }

    @inline(__always)
    func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        insert.bind(value, at: Int32(column + 1))
        return true
    }

    @inline(__always)
    func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        insert.bindStatic(iso, count: count, at: Int32(column + 1))
        return true
    }

    @inline(__always)
    func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) {
        insert.bindStatic(bytes, count: count, at: Int32(column + 1))
    }

    @inline(__always)
    func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
        insert.bindStatic(bytes, count: count, at: Int32(column + 1))
    }
}
