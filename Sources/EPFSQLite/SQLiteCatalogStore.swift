import CSQLite
import EPFCatalogStore
import EPFFormat
import Foundation

/// The embedded catalog: one SQLite file holding one table per EPF table,
/// the import journal (`epf_journal`) and what the importer knows of each
/// table (`epf_table_info`); `epf_schema` records the steps those tables
/// have been through (`CatalogMigration`).
///
/// Settings chosen by measurement for bulk loads of wide EPF rows (see
/// docs/DESIGN.md): 16 KB pages on a new catalog (rows of ~2 KB
/// overflow 4 KB pages and load about twice as slowly), a 64 MB page cache
/// (a larger one loads no faster).
///
/// Journal: a brand-new catalog has no readers, so its first import loads
/// with a rollback journal (crash-safe, and almost free for appends to new
/// tables); when that import is over (`importFinished`) the catalog
/// switches to WAL, for good (SQLite keeps the mode in the file). Every
/// later import runs in WAL, so `epf lookup`/`search` answer from the
/// catalog as it was until an apply commits, then from the new one, never
/// blocked and never half of a swap. WAL writes each page twice (the
/// checkpoint copies it into the file): that is the price of readers
/// during an import, paid mostly on the other core (`WALCheckpointer`
/// copies each commit while the load goes on). `journal_size_limit` keeps
/// the WAL file from staying at the size of the largest load.
public final class SQLiteCatalogStore: CatalogStore {
    /// SQLite's column limit (`SchemaMapping.maximumColumns`).
    public var maximumColumns: Int { SchemaMapping.maximumColumns }
    package let database: SQLiteDatabase
    /// Whether this open found no catalog: no file, or the empty file of a
    /// first import killed before its first commit (which would otherwise
    /// keep SQLite's default page size).
    package let isNew: Bool
    /// Staging tables left by an import that was killed and that cannot be
    /// resumed (no checkpoint, or `restart`), dropped on open.
    public private(set) var droppedLeftovers: [String] = []
    /// Loads that were interrupted and can resume: kept on open for an
    /// import of the same files.
    public var resumableLoads: [ResumableLoad] { resumeLedger.resumable }
    package var resumeLedger = ResumeLedger(stagingTables: [], checkpoints: [], keepResumable: false)
    /// Input bytes between two commits of a load (each commit records where
    /// a killed import resumes): `walCheckpointBytes` in WAL mode, else
    /// `journalCheckpointBytes`.
    package var checkpointBytes: Int64 = journalCheckpointBytes
    /// Commits of a load with the rollback journal: each syncs the journal
    /// and the file, so a handful per GB.
    package static let journalCheckpointBytes: Int64 = 256 << 20
    /// Commits of a load in WAL mode: a commit writes no more than the load
    /// writes anyway and syncs nothing (`synchronous = NORMAL`), and the
    /// checkpointer copies each one into the file while the load goes on.
    /// Small commits keep the copy close behind the load: a FULL of a new
    /// day over a 300k-row `application` table took 1.11x a fresh import
    /// with 8 MB commits, 1.35x with 32 MB (medians of 5 interleaved pairs;
    /// 4 MB measured as 8, 128 MB 1.6x).
    package static let walCheckpointBytes: Int64 = 8 << 20
    /// Things worth telling about how the catalog was opened.
    public private(set) var notes: [String] = []
    /// Held while the store is open: one import at a time.
    private let lock: ImportLock
    /// What the crash tests change; nothing by default.
    package let hooks: LoadHooks
    /// In WAL mode, copies what the import commits into the file beside the
    /// load, until `importFinished`.
    private var checkpointer: WALCheckpointer?

    /// Page size for new catalogs.
    package static let pageSize = 16_384
    /// Page cache, in KiB.
    package static let cacheKiB = 65_536

    /// Opens the catalog at `path` for importing, creating it if needed.
    /// Throws when another import holds the catalog (`ImportLock`).
    ///
    /// - Parameters:
    ///   - restart: drop the staging tables of interrupted loads instead of
    ///     keeping them to resume.
    ///   - exclusive: load with the rollback journal even into a catalog
    ///     that has readers' WAL: faster (each page written once), but
    ///     queries wait until the import is over. The catalog goes back to
    ///     WAL when it is. Readers holding the catalog now keep it in WAL
    ///     (a note in `notes`).
    public convenience init(path: String, restart: Bool = false, exclusive: Bool = false) throws(CatalogError) {
        try self.init(path: path, restart: restart, exclusive: exclusive, hooks: LoadHooks())
    }

    /// As `init(path:restart:exclusive:)`, with what the crash tests change.
    package init(path: String, restart: Bool = false, exclusive: Bool = false, hooks: LoadHooks) throws(CatalogError) {
        self.hooks = hooks
        checkpointBytes = hooks.checkpointBytes ?? Self.journalCheckpointBytes
        lock = try ImportLock(catalogPath: path)
        isNew = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) == 0
        do {
            database = try SQLiteDatabase(path: path)
            if isNew {
                try database.execute("PRAGMA page_size = \(Self.pageSize)")
            }
            try database.execute("PRAGMA cache_size = -\(hooks.cacheKiB ?? Self.cacheKiB)")
            try database.execute("PRAGMA foreign_keys = OFF")
            // Debian builds SQLite with SQLITE_SECURE_DELETE: every page a
            // DROP frees would be read, journaled and zeroed, which made the
            // FULL swap (dropping the old table) cost about a fresh load.
            // The catalog holds public feed data; freed pages are reused.
            try database.execute("PRAGMA secure_delete = OFF")
            if exclusive {
                let mode: String?
                do {
                    mode = try database.scalar("PRAGMA journal_mode = DELETE")?.textValue?.lowercased()
                } catch let error where error.isBusy {
                    mode = nil
                }
                if mode != "delete" {
                    notes.append("readers have the catalog open: loading in WAL mode all the same")
                    try useWAL()
                }
            } else if !isNew {
                try useWAL()
            }
            try database.registerSearchFunctions()
        } catch {
            // Not a catalog (a text file, a folder): leave nothing beside it.
            lock.removeFileIfMade()
            throw CatalogError(error, while: "opening the catalog \(path)")
        }
        // The importer's own tables, made or brought up to this version (a
        // catalog a newer epf wrote is refused here).
        try CatalogMigrator.migrate(Self.migrations(database), catalog: path)
        do {
            droppedLeftovers = try dropLeftovers(keepResumable: !restart)
            if try journalMode() == "wal" {
                checkpointBytes = hooks.checkpointBytes ?? Self.walCheckpointBytes
                // The WAL starts over every `WALCheckpointer.maximumBytes`
                // while the import runs: truncating it each time (then
                // growing it again) cost more than the copy (useWAL sets the
                // limit back when the import is over).
                try database.execute("PRAGMA journal_size_limit = -1")
                // Last: once its thread runs, only deinit or importFinished
                // stops it.
                checkpointer = try WALCheckpointer(database: database)
            }
        } catch {
            throw database.catalogError(error, while: "opening the catalog \(path)")
        }
    }

    deinit { checkpointer?.stop() }

    /// WAL, with `synchronous = NORMAL` (in WAL mode still crash-safe: a
    /// crash can lose the last commit, never corrupt) and the WAL file cut
    /// back to `walSizeLimit` after a checkpoint.
    private func useWAL() throws(SQLiteError) {
        if try database.scalar("PRAGMA journal_mode")?.textValue?.lowercased() != "wal" {
            guard try database.scalar("PRAGMA journal_mode = WAL")?.textValue?.lowercased() == "wal" else {
                throw SQLiteError(
                    code: SQLITE_ERROR, extendedCode: SQLITE_ERROR, message: "SQLite refused WAL mode", sql: "PRAGMA journal_mode = WAL")
            }
        }
        try database.execute("PRAGMA synchronous = NORMAL")
        try database.execute("PRAGMA journal_size_limit = \(Self.walSizeLimit)")
    }

    /// Bytes the WAL file is truncated to after a checkpoint.
    package static let walSizeLimit = 64 << 20

    /// The catalog's journal mode (`wal`, `delete`, ...).
    package func journalMode() throws(SQLiteError) -> String {
        try database.scalar("PRAGMA journal_mode")?.textValue?.lowercased() ?? ""
    }

    // MARK: CatalogStore

    /// A loader for `target`. When an interrupted load of the same file
    /// (same source identity and header) left a staging table and a
    /// checkpoint, the loader resumes it (`resumedFrom`).
    public func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        let staging = CatalogTables.staging(for: target.table)
        resumeLedger.touch(staging)
        var resume: SQLCheckpoints.Row?
        do {
            if let row = try SQLCheckpoints.find(staging: staging, on: database, dialect: dialect), row.stored.resumes(target),
                try database.tableExists(staging)
            {
                resume = row
            }
        } catch {
            throw database.catalogError(error, while: "reading the checkpoint of \(target.table)")
        }
        return try SQLiteTableLoader(
            database: database, target: target, strict: strict, checkpointBytes: checkpointBytes, resume: resume, hooks: hooks)
    }

    /// Applies the staged tables and their journal entries in one
    /// transaction (`CatalogStore.apply(_:journal:)`).
    public func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        checkpointer?.beforeApply()
        return try applyStaged(staged, journal: journal)
    }

    /// Bytes free to unprivileged writers on the catalog's file system
    /// (`FileSystemSpace.availableBytes`).
    public func freeBytes() -> Int64? {
        hooks.freeBytes ?? FileSystemSpace.availableBytes(besideFile: database.path)
    }

    /// The catalog's free pages (a load fills them first), and in WAL mode
    /// the write-ahead log a load fills beside its table: at most
    /// `WALCheckpointer.maximumBytes` before a commit waits for the copy,
    /// plus that commit. A FULL re-import of a 202 MB table file into a
    /// catalog in WAL mode took 437 MB at its peak: 219 MB of table, 218 MB
    /// of log.
    public func loadSpace() -> LoadSpace {
        let pageSize = (try? database.scalar("PRAGMA page_size")?.asInteger) ?? 0
        let freePages = (try? database.scalar("PRAGMA freelist_count")?.asInteger) ?? 0
        let transient = checkpointer == nil ? 0 : Int64(WALCheckpointer.maximumBytes) + checkpointBytes
        return LoadSpace(reusableBytes: pageSize * freePages, transientBytes: transient)
    }

    /// Drops the interrupted loads this import did not resume (it read
    /// other files: their staging tables would only take space), and
    /// switches a catalog this import created to WAL, so that readers can
    /// query it while later imports run.
    public func importFinished() throws {
        try dropUntouchedLoads()
        checkpointer?.stop()
        do {
            try useWAL()
        } catch {
            throw CatalogError(error, while: "switching the catalog to WAL mode")
        }
    }

    /// Drops staged tables that will not be applied.
    public func discard(_ staged: [StagedTable]) {
        for table in staged {
            try? dropStaging(table.stagingName)
        }
    }

    /// Records journal entries on their own (for files that failed).
    public func record(_ journal: [JournalEntry]) throws { try recordJournal(journal) }

    /// Every file the journal lists as applied, oldest first.
    public func appliedFiles() throws -> [AppliedFile] { try journalAppliedFiles() }

    /// Records new modification times of downloads found unchanged by md5.
    public func confirmUnchanged(_ downloads: [(id: Int64, modified: Int64)]) throws { try confirmUnchangedDownloads(downloads) }

    /// Rows of a live table, as the table info keeps them (counted when it
    /// has none); nil when the table does not exist.
    public func rowCount(of table: String) throws -> Int? { try liveRowCount(of: table) }

    /// Kept in `epf_row_digest`.
    public var keepsRowDigests: Bool { true }

    /// From `epf_row_digest`.
    public func rowDigests(of table: String, layout: Int64) throws -> KeptRowDigests? {
        try storedRowDigests(of: table, layout: layout)
    }

    /// Whether a live table exists, from the schema alone.
    public func hasTable(_ table: String) throws -> Bool { try liveTableExists(table) }

    /// The applied files of the catalog at `path`, read as a reader reads
    /// (`SQLiteDatabase.openForReading(path:)`: it changes nothing but what
    /// an interrupted import left), for `--dry-run`; none when there is no
    /// catalog yet.
    package static func appliedFiles(catalogAt path: String) throws -> [AppliedFile] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let database = try SQLiteDatabase.openForReading(path: path)
        do {
            guard try database.tableExists(CatalogTables.journal) else { return [] }
            return try SQLJournal.appliedFiles(on: database)
        } catch {
            throw database.catalogError(error, while: "reading the import journal of \(path)")
        }
    }
}

// MARK: The shared SQL algorithms

extension SQLiteCatalogStore: SQLStoreBackend {
    package var applyConnection: SQLiteDatabase { database }
    package var dialect: SQLiteDialect { SQLiteDialect() }

    /// The FTS5 search table follows its table.
    package func didReplace(_ table: StagedTable) throws {
        try SearchIndexMaintenance.replace(live: table.target.table, staging: table.stagingName, in: database)
    }

    /// FTS5 is contentless: the old text of the rows the upsert changes is
    /// deleted from the index before the upsert, and the new text added after.
    package func willUpsert(_ table: StagedTable) throws -> SearchIndexMaintenance.AfterUpsert? {
        try SearchIndexMaintenance.beforeUpsert(
            live: table.target.table, staging: table.stagingName, header: table.target.header, in: database)
    }

    package func didUpsert(_ table: StagedTable, _ pending: SearchIndexMaintenance.AfterUpsert?) throws {
        guard let pending else { return }
        try SearchIndexMaintenance.afterUpsert(
            pending, live: table.target.table, staging: table.stagingName, header: table.target.header, in: database)
    }

    package func dropStagingSearchIndex(_ staging: String) throws {
        try SearchIndexMaintenance.discard(staging: staging, in: database)
    }
}
