import EPFCatalog
import EPFFormat
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

    public init(unloggedStaging: Bool = false, commitBytes: Int = 256 << 20, flushBytes: Int = 1 << 20) {
        self.unloggedStaging = unloggedStaging
        self.commitBytes = commitBytes
        self.flushBytes = flushBytes
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
    public let target: PostgresTarget
    public let options: PostgresStoreOptions
    /// Staging tables left by an import that was killed and that cannot be
    /// resumed (no checkpoint, or `restart`), dropped on open.
    public private(set) var droppedLeftovers: [String] = []
    /// Staging tables of loads that were interrupted and can resume, with
    /// their tables and rows: kept on open for an import of the same files.
    public private(set) var resumableLoads: [(staging: String, table: String, records: Int)] = []
    /// Staging tables this store has loaded into or resumed: the others are
    /// dropped when the import finishes. Guarded by `lock`.
    private var touchedStaging: Set<String> = []
    /// Input bytes between two commits of a load (each commit records where
    /// a killed import resumes): `options.commitBytes`, or the hooks'.
    public let checkpointBytes: Int64
    /// What the crash tests change; nothing by default.
    let hooks: LoadHooks

    /// Invariant: `connection` is used only while `lock` is held.
    let connection: PostgresConnection
    let lock = NSLock()

    public static let journalTable = "epf_journal"
    public static let tableInfoTable = "epf_table_info"
    public static let checkpointTable = "epf_checkpoint"
    public static let unfitTable = "epf_unfit_values"
    static let stagingPrefix = "epf_stage_"

    /// Connects, takes the import lock, creates the importer's tables if
    /// needed and drops what a killed import left that cannot resume.
    ///
    /// - Parameters:
    ///   - restart: drop the staging tables of interrupted loads instead of
    ///     keeping them to resume.
    ///   - hooks: what the crash tests change (fault points, commit size);
    ///     nothing by default.
    public init(
        target: PostgresTarget, options: PostgresStoreOptions = PostgresStoreOptions(), restart: Bool = false,
        hooks: LoadHooks = LoadHooks()
    ) throws(CatalogError) {
        self.target = target
        self.options = options
        self.hooks = hooks
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
                    detail: "\(target.redacted) runs PostgreSQL \(connection.serverVersion / 10_000); epf needs 15 or later (keys use NULLS NOT DISTINCT)",
                    hint: "Use a PostgreSQL 15 or later server")
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
            try CatalogMigrator.migrate(PostgresMigrations(connection: connection), catalog: target.redacted)
            droppedLeftovers = try dropLeftovers(keepResumable: !restart)
        } catch let error as PostgresError {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(.failed, detail: "\(error)", hint: "")
        }
    }

    /// Drops the staging tables that no import will resume (all of them
    /// unless `keepResumable`), with their checkpoints and unfit values, and
    /// checkpoints whose staging table is gone (the advisory lock says no
    /// import runs now). Returns the names dropped.
    private func dropLeftovers(keepResumable: Bool) throws(PostgresError) -> [String] {
        let names = try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1) ORDER BY 1",
            [Self.stagingPrefix]
        ).compactMap { $0.first ?? nil }
        let checkpoints = try PostgresCheckpointTable.all(on: connection)
        var dropped: [String] = []
        for name in names {
            if keepResumable, let load = checkpoints.last(where: { $0.staging == name }) {
                resumableLoads.append(load)
                continue
            }
            try dropStaging(name, on: connection)
            dropped.append(name)
        }
        for name in Set(checkpoints.map(\.staging)) where !names.contains(name) {
            try PostgresCheckpointTable.delete(staging: name, on: connection)
        }
        return dropped
    }

    /// Drops a staging table with its checkpoints and unfit values, in one
    /// transaction.
    private func dropStaging(_ name: String, on connection: PostgresConnection) throws(PostgresError) {
        try connection.execute("BEGIN")
        do {
            try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
            try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(PostgresSearchIndex.tableName(for: name)))")
            try PostgresCheckpointTable.delete(staging: name, on: connection)
            try connection.execute("COMMIT")
        } catch {
            connection.rollback()
            throw error
        }
    }

    /// The staging table of a catalog table.
    public static func stagingName(for table: String) -> String { stagingPrefix + table }

    /// `base`, or `base2`, whichever no relation of the schema has: key and
    /// lookup index names alternate between FULL imports, because an index
    /// keeps its name when its table is renamed into place.
    static func freeIndexName(base: String, on connection: PostgresConnection) throws(PostgresError) -> String {
        for name in [base, base + "2"] {
            let exists = try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(name)])
            if exists == "f" { return name }
        }
        var suffix = 3
        while try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(base + String(suffix))]) == "t" {
            suffix += 1
        }
        return base + String(suffix)
    }

    /// The column `epf lookup` reads link tables by (see the SQLite store's
    /// `LookupIndex`): a table whose compound key holds `application_id`
    /// behind another column gets an index on it alone.
    static let lookupColumn = "application_id"

    static func buildLookupIndex(on table: String, catalogTable: String, key: [String], connection: PostgresConnection) throws(PostgresError) {
        guard key.count > 1, key.dropFirst().contains(lookupColumn) else { return }
        let existing = try connection.scalar(
            """
            SELECT count(*) FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE i.indrelid = to_regclass($1) AND i.indnatts = 1 AND a.attname = $2
            """, [quoteIdentifier(table), lookupColumn])
        guard existing == "0" else { return }
        let name = try freeIndexName(base: "\(catalogTable)_by_\(lookupColumn)", on: connection)
        try connection.execute("CREATE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(quoteIdentifier(lookupColumn)))")
    }

    /// Runs `body` with the store's connection, under its lock.
    func locked<T>(_ body: (PostgresConnection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    // MARK: CatalogStore

    /// A loader on a connection of its own; may be called from any thread.
    /// When an interrupted load of the same file (same source identity and
    /// header) left a staging table and a checkpoint, the loader resumes it
    /// (`resumedFrom`).
    public func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        let staging = Self.stagingName(for: target.table)
        let resume = try locked { connection throws(CatalogError) -> PostgresCheckpointTable.Row? in
            touchedStaging.insert(staging)
            do throws(PostgresError) {
                return try Self.resumableCheckpoint(of: target, staging: staging, on: connection)
            } catch {
                throw CatalogError(error, while: "reading the checkpoint of \(target.table)")
            }
        }
        return try PostgresTableLoader(
            target: self.target, options: options, staging: target, strict: strict, checkpointBytes: checkpointBytes, resume: resume,
            hooks: hooks)
    }

    /// The checkpoint a load of `target` resumes from: one made for the same
    /// source and header, whose staging table exists and still holds its
    /// rows (a server crash empties an UNLOGGED table).
    static func resumableCheckpoint(of target: StagingTarget, staging: String, on connection: PostgresConnection) throws(PostgresError)
        -> PostgresCheckpointTable.Row?
    {
        guard let row = try PostgresCheckpointTable.find(staging: staging, on: connection), row.stored.resumes(target) else { return nil }
        let persistence = try connection.scalar("SELECT relpersistence FROM pg_class WHERE oid = to_regclass($1)", [quoteIdentifier(staging)])
        guard let persistence else { return nil }
        if persistence == "u", row.checkpoint.records > 0,
            try connection.scalar("SELECT EXISTS (SELECT FROM \(quoteIdentifier(staging)))") != "t"
        {
            return nil
        }
        return row
    }

    public func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        try locked { connection in
            do {
                try connection.execute("BEGIN")
                var outcomes: [ApplyOutcome] = []
                for table in staged {
                    switch table.target.header.exportMode {
                    case .full: outcomes.append(try replace(with: table, on: connection))
                    case .incremental: outcomes.append(try upsert(table, on: connection))
                    }
                    try saveTableInfo(table, on: connection)
                    try connection.change("DELETE FROM \(Self.checkpointTable) WHERE staging_name = $1", [table.stagingName])
                }
                try insert(journal, on: connection)
                hooks.reach(.inApply)
                try connection.execute("COMMIT")
                hooks.reach(.afterApply)
                return outcomes
            } catch let error as PostgresError {
                connection.rollback()
                throw CatalogError(error, while: "applying \(staged.map(\.target.table).joined(separator: ", "))")
            } catch {
                connection.rollback()
                throw error
            }
        }
    }

    public func discard(_ staged: [StagedTable]) {
        locked { connection in
            for table in staged {
                try? dropStaging(table.stagingName, on: connection)
            }
        }
    }

    /// Drops the interrupted loads this import did not resume (it read
    /// other files: their staging tables would only take space).
    public func importFinished() throws {
        try locked { connection in
            do throws(PostgresError) {
                for load in resumableLoads where !touchedStaging.contains(load.staging) {
                    try dropStaging(load.staging, on: connection)
                }
                resumableLoads.removeAll()
            } catch {
                throw CatalogError(error, while: "dropping interrupted loads that were not resumed")
            }
        }
    }

    public func record(_ journal: [JournalEntry]) throws {
        try locked { connection in
            do {
                try connection.execute("BEGIN")
                try insert(journal, on: connection)
                try connection.execute("COMMIT")
            } catch let error as PostgresError {
                connection.rollback()
                throw CatalogError(error, while: "writing the import journal")
            }
        }
    }

    public func appliedFiles() throws -> [AppliedFile] {
        try locked { connection in try Self.appliedFiles(on: connection) }
    }

    /// The applied files of the catalog at `target`, read without creating
    /// anything (for `--dry-run`); none when it has no journal yet.
    public static func appliedFiles(at target: PostgresTarget) throws -> [AppliedFile] {
        do {
            let connection = try PostgresConnection(target, applicationName: "epf import --dry-run")
            guard try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [journalTable]) == "t" else { return [] }
            return try appliedFiles(on: connection)
        } catch let error as PostgresError {
            throw CatalogError(error, while: "reading the import journal of \(target.redacted)")
        }
    }

    public func confirmUnchanged(_ downloads: [(id: Int64, modified: Int64)]) throws {
        guard !downloads.isEmpty else { return }
        try locked { connection in
            do {
                for download in downloads {
                    _ = try connection.change(
                        "UPDATE \(Self.journalTable) SET origin_mtime = $1 WHERE id = $2", [String(download.modified), String(download.id)])
                }
            } catch let error as PostgresError {
                throw CatalogError(error, while: "writing the import journal")
            }
        }
    }

    static func appliedFiles(on connection: PostgresConnection) throws -> [AppliedFile] {
        do {
            // Journals of older catalogs lack some columns (read by --dry-run, which migrates nothing).
            let columns = Set(try columnNames(of: journalTable, on: connection))
            let origin = ["origin_size", "origin_md5", "origin_hash", "origin_mtime"].map { columns.contains($0) ? $0 : "NULL" }
            return try connection.query(
                """
                SELECT feed, feed_date, table_name, mode, export_date, \(origin.joined(separator: ", ")), details, id
                FROM \(journalTable) WHERE status = 'applied' ORDER BY id
                """
            ).map { row in
                let details = row[9].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
                return AppliedFile(
                    id: row[10].flatMap { Int64($0) }, feed: row[0], feedDate: row[1], table: row[2] ?? "", mode: row[3],
                    exportDate: row[4].flatMap { Int64($0) }, originSize: row[5].flatMap { Int64($0) }, originMD5: row[6],
                    originHash: row[7], originModified: row[8].flatMap { Int64($0) }, archiveTables: details?["archiveTables"] as? [String])
            }
        } catch {
            throw CatalogError(error, while: "reading the import journal")
        }
    }

    public func rowCount(of table: String) throws -> Int? {
        try locked { connection in
            do {
                guard try Self.tableExists(table, on: connection) else { return nil }
                return Int(try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(table))") ?? "0") ?? 0
            } catch let error as PostgresError {
                throw CatalogError(error, while: "counting the rows of \(table)")
            }
        }
    }

    static func tableExists(_ table: String, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1", [table]) != "0"
    }

    /// A table's columns in table order.
    static func columnNames(of table: String, on connection: PostgresConnection) throws(PostgresError) -> [String] {
        try connection.query(
            """
            SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            ORDER BY attnum
            """, [quoteIdentifier(table)]
        ).compactMap { $0.first ?? nil }
    }

    // MARK: Applying

    /// FULL: the staged table becomes the live table, by rename, in the
    /// apply's transaction: readers see the old table or the new one.
    private func replace(with table: StagedTable, on connection: PostgresConnection) throws -> ApplyOutcome {
        let live = quoteIdentifier(table.target.table)
        try connection.execute("DROP TABLE IF EXISTS \(live)")
        try connection.execute("ALTER TABLE \(quoteIdentifier(table.stagingName)) RENAME TO \(live)")
        try PostgresSearchIndex.replace(live: table.target.table, staging: table.stagingName, on: connection)
        // Values kept from earlier files of the table went with its rows.
        try connection.change(
            """
            DELETE FROM \(Self.unfitTable) WHERE table_name = $1
            AND load_id NOT IN (SELECT load_id FROM \(Self.checkpointTable) WHERE staging_name = $2)
            """, [table.target.table, table.stagingName])
        let rows = table.counts.rowsRead - table.counts.duplicateKeys
        return ApplyOutcome(rowsAfter: rows, inserted: rows, updated: 0, addedColumns: [])
    }

    /// INCREMENTAL: `INSERT ... ON CONFLICT (key) DO UPDATE`, columns
    /// matched by name; columns the file lacks keep their values, columns
    /// the table lacks are added. The staging table holds one row per key
    /// (the loader kept the last).
    private func upsert(_ table: StagedTable, on connection: PostgresConnection) throws -> ApplyOutcome {
        let header = table.target.header
        let liveName = table.target.table
        let live = quoteIdentifier(liveName)
        let staging = quoteIdentifier(table.stagingName)
        let key = header.primaryKey
        var added: [String] = []
        if try !Self.tableExists(liveName, on: connection) {
            try connection.execute("CREATE TABLE \(live) (\(PostgresSchema.columnDefinitions(header)))")
        } else {
            let existing = Set(try Self.columnNames(of: liveName, on: connection))
            for (name, type) in zip(header.columns, header.types) where !existing.contains(name) {
                try connection.execute("ALTER TABLE \(live) ADD COLUMN \(PostgresSchema.columnDefinition(name, type))")
                added.append(name)
            }
        }
        try Self.buildLookupIndex(on: liveName, catalogTable: liveName, key: key, connection: connection)
        if try keyIndex(of: liveName, columns: key, on: connection) == nil {
            let name = try Self.freeIndexName(base: "\(liveName)_key", on: connection)
            let create = "CREATE UNIQUE INDEX \(quoteIdentifier(name)) ON \(live) (\(quoteColumnList(key))) NULLS NOT DISTINCT"
            guard try connection.executeUnlessUniqueViolation(create) else {
                throw CatalogError(
                    .constraint,
                    detail: "the live table \(liveName) has repeated values of the key (\(key.joined(separator: ", "))) this INCREMENTAL file updates by",
                    hint: "Import a FULL file of \(liveName) first, so the table has a usable key")
            }
        }
        let columns = quoteColumnList(header.columns)
        let nonKey = header.columns.filter { !key.contains($0) }
        let action = nonKey.isEmpty
            ? "NOTHING"
            : "UPDATE SET " + nonKey.map { "\(quoteIdentifier($0)) = excluded.\(quoteIdentifier($0))" }.joined(separator: ", ")
        // xmax = 0 marks a row the statement inserted (not one it updated).
        let inserted = Int(
            try connection.scalar(
                """
                WITH changed AS (
                    INSERT INTO \(live) (\(columns)) SELECT \(columns) FROM \(staging)
                    ON CONFLICT (\(quoteColumnList(key))) DO \(action)
                    RETURNING (xmax = 0) AS inserted)
                SELECT count(*) FILTER (WHERE inserted) FROM changed
                """) ?? "0") ?? 0
        try PostgresSearchIndex.afterUpsert(live: liveName, staging: table.stagingName, header: header, on: connection)
        try connection.execute("DROP TABLE \(staging)")
        let rowsAfter = Int(try connection.scalar("SELECT count(*) FROM \(live)") ?? "0") ?? 0
        let stored = table.counts.rowsRead - table.counts.duplicateKeys
        return ApplyOutcome(rowsAfter: rowsAfter, inserted: inserted, updated: stored - inserted, addedColumns: added)
    }

    /// The name of a unique index on exactly `columns` of `table`, if any.
    func keyIndex(of table: String, columns: [String], on connection: PostgresConnection) throws(PostgresError) -> String? {
        let rows = try connection.query(
            """
            SELECT c.relname, (SELECT array_agg(a.attname ORDER BY k.ordinality)::text
                FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ordinality)
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum)
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indpred IS NULL
            """, [quoteIdentifier(table)])
        let wanted = Set(columns)
        for row in rows {
            guard let name = row[0], let list = row[1] else { continue }
            let names = list.dropFirst().dropLast().split(separator: ",").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if Set(names) == wanted && names.count == columns.count { return name }
        }
        return nil
    }

    private func saveTableInfo(_ table: StagedTable, on connection: PostgresConnection) throws {
        let header = table.target.header
        var known: [String: String] = [:]
        if header.exportMode == .incremental,
            let previous = try connection.scalar("SELECT columns FROM \(Self.tableInfoTable) WHERE table_name = $1", [table.target.table])
        {
            known = (try? JSONDecoder().decode([TableColumn].self, from: Data(previous.utf8)))
                .map { Dictionary($0.map { ($0.name, $0.type) }, uniquingKeysWith: { $1 }) } ?? [:]
        }
        for (name, type) in zip(header.columns, header.types) { known[name] = type.declared }
        let order = try Self.columnNames(of: table.target.table, on: connection)
        let columns = order.map { TableColumn(name: $0, type: known[$0] ?? "") }
        let columnsJSON = String(decoding: try JSONEncoder().encode(columns), as: UTF8.self)
        let keyJSON = String(decoding: try JSONEncoder().encode(header.primaryKey), as: UTF8.self)
        try connection.change(
            """
            INSERT INTO \(Self.tableInfoTable) (table_name, feed, export_mode, export_date, columns, primary_key, source_path, applied_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (table_name) DO UPDATE SET feed = excluded.feed, export_mode = excluded.export_mode,
                export_date = excluded.export_date, columns = excluded.columns, primary_key = excluded.primary_key,
                source_path = excluded.source_path, applied_at = excluded.applied_at
            """,
            [
                table.target.table, table.target.feed, header.exportMode.rawValue, table.firstExportDate.map { String($0) },
                columnsJSON, keyJSON, table.target.sourceName, Timestamp.now(),
            ])
    }

    private func insert(_ journal: [JournalEntry], on connection: PostgresConnection) throws(PostgresError) {
        for entry in journal {
            try connection.change(
                """
                INSERT INTO \(Self.journalTable) (feed, feed_date, table_name, export_date, mode, rows, repaired_rows,
                    skipped_rows, source_path, source_size, started_at, finished_at, status, message, details, origin_size,
                    origin_md5, origin_hash, origin_mtime)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
                """,
                [
                    entry.feed, entry.feedDate, entry.table, entry.exportDate.map { String($0) }, entry.mode,
                    String(entry.rows), String(entry.repairedRows), String(entry.skippedRows), entry.sourcePath,
                    entry.sourceSize.map { String($0) }, entry.startedAt, entry.finishedAt, entry.status.rawValue,
                    entry.message.map { self.target.scrub($0) }, entry.details.map { self.target.scrub($0) }, entry.originSize.map { String($0) },
                    entry.originMD5, entry.originHash, entry.originModified.map { String($0) },
                ])
        }
    }
}

/// A column as `epf_table_info.columns` lists it (the same JSON as the
/// SQLite store's `ColumnInfo`).
struct TableColumn: Codable {
    var name: String
    /// The declared EPF type (`VARCHAR(1000)`, `BIGINT`, ...).
    var type: String
}

extension PostgresStoreOptions {
    /// The options `epf import` takes from the environment (tuning knobs,
    /// for measurements): `EPF_PG_STAGING=logged|unlogged`,
    /// `EPF_PG_COMMIT_MB` (megabytes of input per commit).
    public init(environment: [String: String]) throws(CatalogError) {
        self.init()
        switch environment["EPF_PG_STAGING"]?.lowercased() {
        case nil, "", "logged": unloggedStaging = false
        case "unlogged": unloggedStaging = true
        case let other?:
            throw CatalogError(.usage, detail: "EPF_PG_STAGING=\(other) is neither logged nor unlogged", hint: "Set it to logged or unlogged, or unset it")
        }
        if let text = environment["EPF_PG_COMMIT_MB"], !text.isEmpty {
            guard let megabytes = Int(text), megabytes > 0 else {
                throw CatalogError(.usage, detail: "EPF_PG_COMMIT_MB=\(text) is not a positive number", hint: "Set it to megabytes of input per commit")
            }
            commitBytes = megabytes << 20
        }
    }
}
