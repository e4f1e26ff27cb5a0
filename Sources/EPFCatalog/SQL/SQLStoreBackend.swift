import EPFFormat

/// A SQL store as the shared algorithms see it: a connection, a dialect,
/// and the few steps where a backend adds to an algorithm (its search
/// index, its checkpoints, what it keeps beside a table). Everything else
/// (the apply transaction, the FULL swap, the INCREMENTAL upsert, the table
/// info, the journal, the lookup index) is written once, in this
/// protocol's extensions.
package protocol SQLStoreBackend {
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
    /// The apply forgets the load's checkpoint, in its transaction.
    func forgetCheckpoint(of table: StagedTable) throws
    /// Text as the journal may keep it (PostgreSQL: passwords scrubbed).
    func journalText(_ text: String) -> String
}

extension SQLStoreBackend {
    package func journalText(_ text: String) -> String { text }
}

/// The importer's own tables, named alike in every SQL catalog.
package enum CatalogTables {
    package static let journal = "epf_journal"
    package static let tableInfo = "epf_table_info"
    /// Prefix of the tables files load into before they are applied.
    package static let stagingPrefix = "epf_stage_"

    /// The staging table of a catalog table.
    package static func staging(for table: String) -> String { stagingPrefix + table }
}
