import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What a loader writes: one table file, mapped to its catalog table.
/// Named by `CatalogStore`; made and read inside this package.
public struct StagingTarget: Sendable {
    /// The catalog table (the file's name, `-` made `_`, plus any prefix).
    package var table: String
    /// The file's header.
    package var header: EPFHeader
    /// The file as the user named it, for messages.
    package var sourceName: String
    /// The feed the file belongs to (`itunes`, `pricing`, ...), if known.
    package var feed: String?
    /// What tells this file's bytes from other files: a load resumes only
    /// from a checkpoint made for the same source. nil: never resumed.
    package var source: SourceIdentity?

    /// The file named `sourceName` (for messages), whose header is
    /// `header`, loaded into catalog table `table`; never resumed. For the
    /// loader benchmark (`Benchmarks/`), which loads through a store's
    /// `makeLoader(for:strict:)` without the importer.
    @_spi(Benchmarks)
    public init(table: String, header: EPFHeader, sourceName: String) {
        self.init(table: table, header: header, sourceName: sourceName, feed: nil, source: nil)
    }

    /// As `init(table:header:sourceName:)`, with the feed the file belongs
    /// to and, to resume a load of it, its identity.
    package init(table: String, header: EPFHeader, sourceName: String, feed: String? = nil, source: SourceIdentity? = nil) {
        self.table = table
        self.header = header
        self.sourceName = sourceName
        self.feed = feed
        self.source = source
    }
}

/// The file a load reads, as far as resuming is concerned: its name, size
/// and modification time (for an archive entry, the archive's).
package struct SourceIdentity: Sendable, Equatable, Codable {
    package var path: String
    package var size: Int64?
    /// Modification time, nanoseconds since 1970.
    package var modified: Int64?
    /// The storefronts the load keeps (`epf import --storefront`): a load
    /// resumes only with the same filter, so a table never mixes two sets.
    package var storefronts: [Int64]?
    /// The separators the file was read with (`Separators.stored`), nil
    /// for EPF Relational's: a load resumes only when read the same way.
    package var separators: String?

    package init(path: String, size: Int64?, modified: Int64?, storefronts: [Int64]? = nil, separators: String? = nil) {
        self.path = path
        self.size = size
        self.modified = modified
        self.storefronts = storefronts
        self.separators = separators
    }
}

/// How far a load had come when it last committed: every record before
/// `byteOffset` (of the file's own, decompressed bytes) is in staging.
package struct LoadCheckpoint: Sendable, Equatable, Codable {
    /// Where the next record starts.
    package var byteOffset: Int64
    /// Data records loaded so far.
    package var records: Int
    /// The counters of those records.
    package var counts: LoadCounts
    /// The first row's `export_date`, once seen.
    package var firstExportDate: Int64?
    /// The whole file is staged, key and indexes built: only its footer is
    /// left to check.
    package var staged: Bool

    package init(byteOffset: Int64, records: Int, counts: LoadCounts, firstExportDate: Int64?, staged: Bool) {
        self.byteOffset = byteOffset
        self.records = records
        self.counts = counts
        self.firstExportDate = firstExportDate
        self.staged = staged
    }
}

/// A table file loaded and checked into a staging table that no reader
/// sees, waiting to be applied. Named by `CatalogStore` and
/// `TableLoader`; made and read inside this package.
public struct StagedTable: Sendable {
    /// The file loaded.
    package var target: StagingTarget
    /// The staging table's name in the store.
    package var stagingName: String
    /// The unique index that carries the key, if the table has a key.
    package var keyIndexName: String?
    /// What loading the file found and did, row by row.
    package var counts: LoadCounts
    /// The first row's `export_date` (epoch milliseconds), if any.
    package var firstExportDate: Int64?

    /// For stores outside this module (PostgreSQL).
    package init(target: StagingTarget, stagingName: String, keyIndexName: String?, counts: LoadCounts, firstExportDate: Int64?) {
        self.target = target
        self.stagingName = stagingName
        self.keyIndexName = keyIndexName
        self.counts = counts
        self.firstExportDate = firstExportDate
    }
}

/// What applying one staged table changed in its live table.
public struct ApplyOutcome: Sendable, Equatable, Codable {
    /// Rows the live table holds after the apply.
    public var rowsAfter: Int
    /// INCREMENTAL: rows whose key was new. FULL: every row.
    public var inserted: Int
    /// INCREMENTAL: rows that replaced a row with the same key.
    public var updated: Int
    /// INCREMENTAL: columns the live table did not have yet.
    public var addedColumns: [String]

    package init(rowsAfter: Int, inserted: Int, updated: Int, addedColumns: [String]) {
        self.rowsAfter = rowsAfter
        self.inserted = inserted
        self.updated = updated
        self.addedColumns = addedColumns
    }
}

/// Writes the rows of one table file into staging: what
/// `CatalogStore.makeLoader(for:strict:)` returns. The importer drives it;
/// every loader lives in this package, as every store does.
public protocol TableLoader: AnyObject {
    /// The file being loaded, the counters so far, where a resumed load
    /// started.
    var progress: LoadProgress { get }
    /// Stores every record of `batch` (spans into `chunk`). `firstRecord` is
    /// the 1-based number of the batch's first record in the file;
    /// `chunkOffset` the chunk's offset in the file.
    func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws
    /// Builds the key (last row of a repeated key wins) and keeps the staged
    /// table for `apply`.
    func finish() throws -> StagedTable
    /// Forgets everything loaded so far.
    func abandon()
    /// Stops without forgetting what is committed, so that the import
    /// resumes from the last checkpoint when it runs again (after the disk
    /// ran full, say).
    func suspend()
    /// Every record before `byteOffset` (`records` of them) is loaded; the
    /// store may commit here, with a checkpoint, so that a killed import
    /// resumes from this point. Called after each chunk, until the footer.
    func reached(byteOffset: Int64, records: Int) throws
}

extension TableLoader {
    /// The file being loaded.
    package var target: StagingTarget { progress.target }
    /// The counters of the records loaded so far.
    package var counts: LoadCounts { progress.counts }
    /// Where an earlier load of the same file, interrupted (killed, disk
    /// full), stopped: the records before its `byteOffset` are in staging
    /// already, and loading goes on from there. nil for a fresh load.
    package var resumedFrom: LoadCheckpoint? { progress.resumedFrom }
    package func suspend() { abandon() }
    package func reached(byteOffset: Int64, records: Int) throws {}
}

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

/// How a load uses the disk besides the table it writes: what the check
/// before a file loads adds to and takes from the table's size. Named by
/// `CatalogStore`; made and read inside this package.
public struct LoadSpace: Sendable, Equatable {
    /// Bytes free inside the catalog that a load fills before it takes more
    /// of the disk: SQLite's free pages, which a FULL re-import leaves
    /// (the replaced table's) until `epf compact` returns them.
    package var reusableBytes: Int64
    /// The most a load writes beside its table for a while: SQLite's
    /// write-ahead log, which holds the pages a load writes until they are
    /// copied into the file (`WALCheckpointer` bounds it).
    package var transientBytes: Int64

    package init(reusableBytes: Int64 = 0, transientBytes: Int64 = 0) {
        self.reusableBytes = reusableBytes
        self.transientBytes = transientBytes
    }
}

/// A file the import journal lists as applied, as the importer's schedule
/// reads it (`CatalogStore.appliedFiles()`). Named by `CatalogStore`; made
/// and read inside this package. A user reads the journal as
/// `JournalRecord`s (`Catalog.journal(feed:table:status:limit:)`).
public struct AppliedFile: Sendable, Equatable {
    /// The journal row's id.
    package var id: Int64?
    package var feed: String?
    /// `YYYY-MM-DD`.
    package var feedDate: String?
    package var table: String
    /// FULL or INCREMENTAL.
    package var mode: String?
    package var exportDate: Int64?
    package var originSize: Int64?
    package var originMD5: String?
    /// The download's fingerprint (see `JournalEntry.originHash`); nil in
    /// journals written before it was recorded.
    package var originHash: String?
    /// The download's modification time when it was applied (nanoseconds
    /// since 1970); nil in journals written before it was recorded.
    package var originModified: Int64?
    /// For a file read from a feed archive: every table file the archive
    /// held (names without prefix), so a later run knows whether anything of
    /// it is still to import without reading it again.
    package var archiveTables: [String]?
    /// The storefronts the import that applied it kept (`epf import
    /// --storefront`); nil: every storefront.
    package var storefronts: StorefrontSet?

    package init(
        id: Int64? = nil, feed: String?, feedDate: String?, table: String, mode: String?, exportDate: Int64?,
        originSize: Int64?, originMD5: String?, originHash: String? = nil, originModified: Int64? = nil,
        archiveTables: [String]? = nil, storefronts: StorefrontSet? = nil
    ) {
        self.id = id
        self.feed = feed
        self.feedDate = feedDate
        self.table = table
        self.mode = mode
        self.exportDate = exportDate
        self.originSize = originSize
        self.originMD5 = originMD5
        self.originHash = originHash
        self.originModified = originModified
        self.archiveTables = archiveTables
        self.storefronts = storefronts
    }
}

extension StorefrontSet {
    /// The catalog's set: the one its last applied file recorded.
    package static func current(in applied: [AppliedFile]) -> StorefrontSet? {
        applied.last?.storefronts
    }
}
