import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// A catalog that imports go into. SQLite is the embedded default; other
/// stores (PostgreSQL) implement the same steps.
///
/// A user opens a store (`SQLiteCatalogStore` in EPFSQLite,
/// `PostgresCatalogStore` in EPFPostgres) and hands it to `CatalogImport`
/// (EPFImport), which calls these steps; a user does not call them.
///
/// Every store lives in this package: conforming to this protocol outside
/// it is not supported. The values the steps pass (`StagingTarget`,
/// `StagedTable`, `JournalEntry`, `AppliedFile`, `LoadProgress`,
/// `LoadSpace`) are public only because the protocol names them; their
/// members and initializers are `package`, so no other package can make
/// or read them (but for the loader benchmark's SPI initializer of
/// `StagingTarget`). The protocol is public so that a store can be passed as
/// `any CatalogStore`; the steps, the journal's rules and the resume rules
/// stay free to change with the stores (see docs/DESIGN.md, "Access:
/// public and package").
public protocol CatalogStore: AnyObject {
    /// Starts loading one file into a staging table.
    func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader
    /// Applies staged tables together, in one transaction, with their
    /// journal entries: FULL tables replace their live tables, INCREMENTAL
    /// ones are upserted by key. Readers see all of it or none of it.
    func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome]
    /// Drops staged tables that will not be applied.
    func discard(_ staged: [StagedTable])
    /// Records journal entries on their own (for files that failed).
    func record(_ journal: [JournalEntry]) throws
    /// Every file the journal lists as applied, oldest first: what a nightly
    /// run must not apply again.
    func appliedFiles() throws -> [AppliedFile]
    /// Records that the downloads of these journal rows (by `AppliedFile.id`)
    /// were found with new modification times but the same md5, so later
    /// runs know them by the cheap check again instead of reading them.
    func confirmUnchanged(_ downloads: [(id: Int64, modified: Int64)]) throws
    /// Rows of a live table (SQL stores: as the last apply left them, kept
    /// in the table info, so that large tables are not counted); nil when
    /// the table does not exist.
    func rowCount(of table: String) throws -> Int?
    /// Whether a live table exists: what an INCREMENTAL file asks before it
    /// loads, without counting rows (a count reads the whole table).
    func hasTable(_ table: String) throws -> Bool
    /// Whether the store keeps the digests of each table's last
    /// INCREMENTAL file (`StagedTable.rowDigests`), so that the next
    /// day's file leaves out the rows it repeats. A store that keeps every
    /// row of every day (the lake) does not.
    var keepsRowDigests: Bool { get }
    /// What `table` keeps of its last applied file (`KeptRowDigests`), when
    /// it was an INCREMENTAL file whose layout (columns, types, key,
    /// storefronts, separators: hashed by the importer) was `layout`; nil
    /// otherwise.
    func rowDigests(of table: String, layout: Int64) throws -> KeptRowDigests?
    /// Called once when an import run is over: what the store does to let
    /// readers in while later imports run (SQLite: switch a new catalog to
    /// WAL).
    func importFinished() throws
    /// The most columns one of its tables may have.
    var maximumColumns: Int { get }
    /// Bytes free where the store keeps its data, when it can tell: an
    /// import refuses early a file that cannot fit. On a local disk, what
    /// an unprivileged process may still write there
    /// (`FileSystemSpace.availableBytes`).
    func freeBytes() -> Int64?
    /// How a load uses the disk besides the table it writes, for the same
    /// check.
    func loadSpace() -> LoadSpace
    /// Staging tables dropped on open: left by imports that did not finish
    /// and that cannot resume.
    var droppedLeftovers: [String] { get }
    /// Interrupted loads kept on open, to resume.
    var resumableLoads: [ResumableLoad] { get }
    /// Things worth telling about how the catalog was opened.
    var notes: [String] { get }
}

extension CatalogStore {
    /// None kept.
    public var keepsRowDigests: Bool { false }
    /// None kept.
    public func rowDigests(of table: String, layout: Int64) throws -> KeptRowDigests? { nil }
    /// Nothing to do when an import is over.
    public func importFinished() throws {}
    /// Whether `rowCount(of:)` finds the table.
    public func hasTable(_ table: String) throws -> Bool { try rowCount(of: table) != nil }
    /// Nothing recorded: the store keeps no download times.
    public func confirmUnchanged(_ downloads: [(id: Int64, modified: Int64)]) throws {}
    /// Unknown: no file is refused early for its size.
    public func freeBytes() -> Int64? { nil }
    /// Nothing reused, nothing written beside the table.
    public func loadSpace() -> LoadSpace { LoadSpace() }
    /// None.
    public var droppedLeftovers: [String] { [] }
    /// None.
    public var resumableLoads: [ResumableLoad] { [] }
    /// None.
    public var notes: [String] { [] }
}
