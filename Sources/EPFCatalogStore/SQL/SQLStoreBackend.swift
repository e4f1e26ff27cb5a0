import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// A SQL store as the shared algorithms see it: a connection, a dialect,
/// and the few steps where a backend adds to an algorithm (its search
/// index, its checkpoints, what it keeps beside a table). Everything else
/// (the apply transaction, the FULL swap, the INCREMENTAL upsert, the table
/// info, the journal, the lookup index) is written once, in this
/// protocol's extensions.
package protocol SQLStoreBackend: AnyObject {
    associatedtype Connection: SQLConnection
    associatedtype Dialect: SQLDialect
    /// What `willUpsert` keeps for `didUpsert` (the SQLite search index
    /// deletes the old text of the rows the upsert changes before it).
    associatedtype UpsertPending

    /// The connection applies, journals and reads on.
    var applyConnection: Connection { get }
    var dialect: Dialect { get }
    /// What the crash tests change.
    var hooks: LoadHooks { get }

    /// After the staged table of a FULL file was renamed into place: its
    /// search index follows it, and what was kept for the old rows goes.
    func didReplace(_ table: StagedTable) throws
    /// Before the upsert of an INCREMENTAL file.
    func willUpsert(_ table: StagedTable) throws -> UpsertPending
    /// After it, before the staging table is dropped.
    func didUpsert(_ table: StagedTable, _ pending: UpsertPending) throws
    /// Text as the journal may keep it (PostgreSQL: passwords scrubbed).
    func journalText(_ text: String) -> String
    /// The interrupted loads found on open, and those this import touched.
    var resumeLedger: ResumeLedger { get set }
    /// Forgets the checkpoint of `staging` and what its load kept beside
    /// it, in the caller's transaction (default: the checkpoint alone).
    func deleteCheckpoint(staging: String) throws
    /// Drops the search index a staging table has, if any.
    func dropStagingSearchIndex(_ staging: String) throws
    /// Runs `body` while the apply connection is the caller's alone
    /// (PostgreSQL: under the store's lock; loaders run on other threads).
    func withApplyConnection<T>(_ body: () throws -> T) rethrows -> T
}

extension SQLStoreBackend {
    package func journalText(_ text: String) -> String { text }
    package func withApplyConnection<T>(_ body: () throws -> T) rethrows -> T { try body() }
    package func deleteCheckpoint(staging: String) throws {
        try SQLCheckpoints.delete(staging: staging, on: applyConnection, dialect: dialect)
    }

    /// On open: drops the staging tables no import will resume (all of them
    /// unless `keepResumable`) and the checkpoints whose staging table is
    /// gone; keeps the rest in `resumeLedger`. Returns the names dropped.
    package func dropLeftovers(keepResumable: Bool) throws -> [String] {
        let connection = applyConnection
        let names = try connection.rows(
            "SELECT name FROM (\(dialect.tableNamesQuery)) AS t WHERE substr(name, 1, \(CatalogTables.stagingPrefix.utf8.count)) = \(dialect.parameter(1)) ORDER BY name",
            [.text(CatalogTables.stagingPrefix)]
        ).compactMap { $0.first?.textValue }
        resumeLedger = ResumeLedger(
            stagingTables: names, checkpoints: try SQLCheckpoints.loads(on: connection), keepResumable: keepResumable)
        for name in resumeLedger.drop { try dropStaging(name) }
        for name in resumeLedger.orphanCheckpoints { try deleteCheckpoint(staging: name) }
        return resumeLedger.drop
    }

    /// Drops a staging table with its search index and checkpoint, in one
    /// transaction.
    package func dropStaging(_ name: String) throws {
        try applyConnection.transaction {
            try dropStagingSearchIndex(name)
            try applyConnection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
            try deleteCheckpoint(staging: name)
        }
    }

    /// When the import is over: drops the interrupted loads it did not go
    /// on with.
    package func dropUntouchedLoads() throws {
        try withApplyConnection {
            try applyConnection.doing("dropping interrupted loads that were not resumed") {
                for staging in resumeLedger.takeUntouched() { try dropStaging(staging) }
            }
        }
    }

    // The `CatalogStore` operations every SQL store performs alike, with
    // the backend's errors turned into `CatalogError`s.

    /// `CatalogStore.apply`: see `applyAll`.
    package func applyStaged(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        try withApplyConnection {
            try applyConnection.doing("applying \(staged.map(\.target.table).joined(separator: ", "))") {
                try applyAll(staged, journal: journal)
            }
        }
    }

    /// `CatalogStore.record`: the journal alone, in a transaction.
    package func recordJournal(_ journal: [JournalEntry]) throws {
        try withApplyConnection {
            try applyConnection.doing("writing the import journal") {
                try applyConnection.transaction { try insertJournal(journal) }
            }
        }
    }

    /// `CatalogStore.appliedFiles`.
    package func journalAppliedFiles() throws -> [AppliedFile] {
        try withApplyConnection {
            try applyConnection.doing("reading the import journal") { try SQLJournal.appliedFiles(on: applyConnection) }
        }
    }

    /// `CatalogStore.confirmUnchanged`.
    package func confirmUnchangedDownloads(_ downloads: [(id: Int64, modified: Int64)]) throws {
        try withApplyConnection {
            try applyConnection.doing("writing the import journal") {
                try SQLJournal.confirmUnchanged(downloads, on: applyConnection, dialect: dialect)
            }
        }
    }

    /// `CatalogStore.hasTable`.
    package func liveTableExists(_ table: String) throws -> Bool {
        try withApplyConnection {
            try applyConnection.doing("looking for the table \(table)") { try applyConnection.tableExists(table) }
        }
    }

    /// `CatalogStore.rowCount`.
    package func liveRowCount(of table: String) throws -> Int? {
        try withApplyConnection {
            try applyConnection.doing("counting the rows of \(table)") {
                guard try applyConnection.tableExists(table) else { return nil }
                if let stored = try storedRowCount(of: table) { return stored }
                return Int(try applyConnection.scalar("SELECT count(*) FROM \(quoteIdentifier(table))")?.asInteger ?? 0)
            }
        }
    }
}

extension TableLoader {
    /// The staging table a SQL store's load fills.
    package var stagingName: String { CatalogTables.staging(for: target.table) }
}
