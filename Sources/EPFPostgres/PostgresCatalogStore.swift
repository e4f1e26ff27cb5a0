import EPFCatalogStore
import EPFFormat
import EPFTextSearch
import Foundation

/// Tuning of a PostgreSQL import.
public struct PostgresStoreOptions: Sendable {
    /// FULL files load into an UNLOGGED staging table, made LOGGED before
    /// its key is built (INCREMENTAL staging is always UNLOGGED: its rows
    /// reach the live table through the upsert, which is logged).
    public var unloggedStaging = false
    /// Input bytes (of the file's own, decompressed bytes) between two
    /// commits of a load, each with the file's checkpoint.
    public var commitBytes = 256 << 20
    /// COPY data handed to libpq at once.
    public var flushBytes = 1 << 20
    /// `maintenance_work_mem` of the loading sessions (index builds).
    public var maintenanceWorkMem = "512MB"
    /// COPY connections that carry one file's rows at once, each with its
    /// own server process (`epf import --jobs`).
    public var copyStreams = 1
    /// Files smaller than this (their size on disk) load over one COPY
    /// connection: more would cost connections and buy nothing.
    public var parallelCopyBytes: Int64 = 32 << 20

    /// The options, each as its property says.
    public init(
        unloggedStaging: Bool = false, commitBytes: Int = 256 << 20, flushBytes: Int = 1 << 20, copyStreams: Int = 1,
        parallelCopyBytes: Int64 = 32 << 20
    ) {
        self.unloggedStaging = unloggedStaging
        self.commitBytes = commitBytes
        self.flushBytes = flushBytes
        self.copyStreams = copyStreams
        self.parallelCopyBytes = parallelCopyBytes
    }
}

/// The catalog in a PostgreSQL database: one table per EPF table in the
/// connection's current schema, the same import journal (`epf_journal`)
/// and table info (`epf_table_info`) as the SQLite store, plus the loads in
/// progress (`epf_checkpoint`) and the values that did not fit their
/// column's type (`epf_unfit_values`); `epf_schema` records the steps those
/// tables have been through (`CatalogMigration`).
///
/// Each table loader has a connection of its own (so several tables load
/// at once); the store's own connection applies, journals and reads, under
/// a lock, and holds a session advisory lock so that two imports never
/// write the same schema at once.
public final class PostgresCatalogStore: CatalogStore, @unchecked Sendable {
    /// PostgreSQL's 1600 columns a table, less the staging table's
    /// `epf_record` column.
    public var maximumColumns: Int { 1599 }
    package let target: PostgresTarget
    package let options: PostgresStoreOptions
    /// Staging tables left by an import that was killed and that cannot be
    /// resumed (no checkpoint, or `restart`), dropped on open.
    public private(set) var droppedLeftovers: [String] = []
    /// Loads that were interrupted and can resume: kept on open for an
    /// import of the same files.
    public var resumableLoads: [ResumableLoad] { resumeLedger.resumable }
    /// Guarded by `lock`.
    package var resumeLedger = ResumeLedger(stagingTables: [], checkpoints: [], keepResumable: false)
    /// Input bytes between two commits of a load (each commit records where
    /// a killed import resumes): `options.commitBytes`, or the hooks'.
    package let checkpointBytes: Int64
    /// What the crash tests change; nothing by default.
    package let hooks: LoadHooks
    /// The COPY connections beyond one per file that the loaders may hold
    /// at once (`copyStreams` less one).
    let laneBudget: CopyLaneBudget

    /// Invariant: `connection` is used only while `lock` is held.
    let connection: PostgresConnection
    let lock = NSLock()

    /// Connects, takes the import lock, creates the importer's tables if
    /// needed and drops what a killed import left that cannot resume.
    ///
    /// - Parameters:
    ///   - restart: drop the staging tables of interrupted loads instead of
    ///     keeping them to resume.
    public convenience init(
        target: PostgresTarget, options: PostgresStoreOptions = PostgresStoreOptions(), restart: Bool = false
    ) throws(CatalogError) {
        try self.init(target: target, options: options, restart: restart, hooks: LoadHooks())
    }

    /// As `init(target:options:restart:)`, with what the crash tests change.
    package init(
        target: PostgresTarget, options: PostgresStoreOptions = PostgresStoreOptions(), restart: Bool = false, hooks: LoadHooks
    ) throws(CatalogError) {
        self.target = target
        self.options = options
        self.hooks = hooks
        laneBudget = CopyLaneBudget(extra: options.copyStreams - 1)
        checkpointBytes = hooks.checkpointBytes ?? Int64(options.commitBytes)
        do {
            connection = try PostgresConnection(target, applicationName: "epf import")
        } catch {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        }
        do {
            guard connection.serverVersion >= 150_000 else {
                throw CatalogError(
                    .incompatible,
                    detail:
                        "\(target.redacted) runs PostgreSQL \(connection.serverVersion / 10_000); epf needs 15 or later (keys use NULLS NOT DISTINCT)",
                    hint: "Use a PostgreSQL 15 or later server")
            }
            // No schema of the search path exists: the lock's key would be
            // NULL, which reads as "another import holds it".
            guard try connection.scalar("SELECT current_schema() IS NOT NULL") == "t" else {
                throw CatalogError(
                    .usage,
                    detail: "\(target.redacted) has no schema to write to: none of its search_path exists",
                    hint: "Create the schema (CREATE SCHEMA name), or name an existing one in options=-csearch_path")
            }
            let locked = try connection.scalar("SELECT pg_try_advisory_lock(hashtext('epf import ' || current_schema()))")
            guard locked == "t" else {
                throw CatalogError(
                    .busy,
                    detail: "another epf import is writing to \(target.redacted)",
                    hint: "Wait for it to finish and run the import again")
            }
            // The importer's own tables, made or brought up to this version
            // (a catalog a newer epf wrote is refused here).
            try CatalogMigrator.migrate(Self.migrations(connection), catalog: target.redacted)
            droppedLeftovers = try dropLeftovers(keepResumable: !restart)
        } catch let error as PostgresError {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(.failed, detail: "\(error)", hint: "")
        }
    }

    /// Runs `body` with the store's connection, under its lock.
    func locked<T>(_ body: (PostgresConnection) throws -> T) rethrows -> T {
        try withApplyConnection { try body(connection) }
    }

    // MARK: CatalogStore

    /// A loader on a connection of its own; may be called from any thread.
    /// When an interrupted load of the same file (same source identity and
    /// header) left a staging table and a checkpoint, the loader resumes it
    /// (`resumedFrom`).
    public func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        let staging = CatalogTables.staging(for: target.table)
        let resume = try locked { connection throws(CatalogError) -> SQLCheckpoints.Row? in
            resumeLedger.touch(staging)
            do {
                return try Self.resumableCheckpoint(of: target, staging: staging, on: connection)
            } catch {
                throw connection.catalogError(error, while: "reading the checkpoint of \(target.table)")
            }
        }
        return try PostgresTableLoader(
            target: self.target, options: options, staging: target, strict: strict, checkpointBytes: checkpointBytes, resume: resume,
            budget: laneBudget, hooks: hooks)
    }

    /// The checkpoint a load of `target` resumes from: one made for the same
    /// source and header, whose staging table exists and still holds its
    /// rows (a server crash empties an UNLOGGED table).
    static func resumableCheckpoint(of target: StagingTarget, staging: String, on connection: PostgresConnection) throws
        -> SQLCheckpoints.Row?
    {
        guard let row = try SQLCheckpoints.find(staging: staging, on: connection, dialect: PostgresDialect()), row.stored.resumes(target)
        else { return nil }
        let persistence = try connection.scalar(
            "SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)", [quoteIdentifier(staging)])
        guard let persistence else { return nil }
        if persistence == "u", row.checkpoint.records > 0,
            try connection.scalar("SELECT EXISTS (SELECT FROM \(quoteIdentifier(staging)))") != "t"
        {
            return nil
        }
        return row
    }

    /// Applies the staged tables and their journal entries in one
    /// transaction (`CatalogStore.apply(_:journal:)`).
    public func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        try applyStaged(staged, journal: journal)
    }

    /// Drops staged tables that will not be applied.
    public func discard(_ staged: [StagedTable]) {
        locked { _ in
            for table in staged { try? dropStaging(table.stagingName) }
        }
    }

    /// Drops the interrupted loads this import did not resume (it read
    /// other files: their staging tables would only take space).
    public func importFinished() throws { try dropUntouchedLoads() }

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

    /// The applied files of the catalog at `target`, read without creating
    /// anything (for `--dry-run`); none when it has no journal yet.
    package static func appliedFiles(at target: PostgresTarget) throws -> [AppliedFile] {
        do {
            let connection = try PostgresConnection(target, applicationName: "epf import --dry-run")
            guard try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [CatalogTables.journal]) == "t" else { return [] }
            return try SQLJournal.appliedFiles(on: connection)
        } catch let error as PostgresError {
            throw CatalogError(error, while: "reading the import journal of \(target.redacted)")
        }
    }

}

// MARK: The shared SQL algorithms

extension PostgresCatalogStore: SQLStoreBackend {
    package var applyConnection: PostgresConnection { connection }
    package var dialect: PostgresDialect { PostgresDialect() }

    /// The search table follows its table; values kept from earlier files
    /// of the table (`epf_unfit_values`) went with its rows.
    package func didReplace(_ table: StagedTable) throws {
        try PostgresSearchIndex.replace(live: table.target.table, staging: table.stagingName, on: connection)
        try connection.change(
            """
            DELETE FROM \(CatalogTables.unfitValues) WHERE table_name = $1
            AND load_id NOT IN (SELECT load_id FROM \(CatalogTables.checkpoints) WHERE staging_name = $2)
            """, [table.target.table, table.stagingName])
    }

    package func willUpsert(_ table: StagedTable) throws {}

    /// The `tsvector` column is filled for the rows the upsert changed.
    package func didUpsert(_ table: StagedTable, _ pending: Void) throws {
        try PostgresSearchIndex.afterUpsert(
            live: table.target.table, staging: table.stagingName, header: table.target.header, on: connection)
    }

    /// The checkpoint goes with the unfit values its load kept.
    package func deleteCheckpoint(staging: String) throws {
        try PostgresCheckpointTable.delete(staging: staging, on: connection)
    }

    package func dropStagingSearchIndex(_ staging: String) throws {
        try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(SearchIndex.tableName(for: staging)))")
    }

    /// Passwords never reach the journal.
    package func journalText(_ text: String) -> String { target.scrub(text) }

    /// Loaders run on other threads, each on its own connection; the
    /// store's connection is shared by the importer's calls.
    package func withApplyConnection<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension PostgresStoreOptions {
    /// The options `epf import` takes from the environment (tuning knobs,
    /// for measurements): `EPF_PG_STAGING=logged|unlogged`,
    /// `EPF_PG_COMMIT_MB` (megabytes of input per commit),
    /// `EPF_PG_PARALLEL_COPY_MB` (the smallest file, in megabytes, loaded
    /// over several COPY connections; 0: every file).
    package init(environment: [String: String]) throws(CatalogError) {
        self.init()
        switch environment["EPF_PG_STAGING"]?.lowercased() {
        case nil, "", "logged": unloggedStaging = false
        case "unlogged": unloggedStaging = true
        case let other?:
            throw CatalogError(
                .usage, detail: "EPF_PG_STAGING=\(other) is neither logged nor unlogged", hint: "Set it to logged or unlogged, or unset it")
        }
        if let text = environment["EPF_PG_COMMIT_MB"], !text.isEmpty {
            guard let megabytes = Int(text), megabytes > 0 else {
                throw CatalogError(
                    .usage, detail: "EPF_PG_COMMIT_MB=\(text) is not a positive number", hint: "Set it to megabytes of input per commit")
            }
            commitBytes = megabytes << 20
        }
        if let text = environment["EPF_PG_PARALLEL_COPY_MB"], !text.isEmpty {
            guard let megabytes = Int64(text), megabytes >= 0 else {
                throw CatalogError(
                    .usage, detail: "EPF_PG_PARALLEL_COPY_MB=\(text) is not a number of megabytes",
                    hint: "Set it to the size from which a file loads over several COPY connections (0: every file)")
            }
            parallelCopyBytes = megabytes << 20
        }
    }
}
