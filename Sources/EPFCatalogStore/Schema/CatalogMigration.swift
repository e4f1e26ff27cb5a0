import EPFCatalogCore
import EPFCatalogRead

/// One step in the history of the importer's own tables (`epf_journal`,
/// `epf_table_info`, `epf_checkpoint`...), the same for every backend: the
/// cases in declaration order are the order the steps are applied in, and
/// each backend spells each step in its own SQL (`CatalogMigrationDatabase`;
/// the switch there makes a new case a compile error until every backend
/// has it).
///
/// The raw value is what `epf_schema` records: once a step has shipped, its
/// identifier and what it does never change; a later change is a new step
/// at the end.
package enum CatalogMigration: String, CaseIterable, Sendable {
    /// The journal (without where files came from) and the table info, as
    /// the first catalogs had them; PostgreSQL's first catalogs also had the
    /// values that did not fit their column (`epf_unfit_values`).
    case journalAndTableInfo = "journal-and-table-info"
    /// The journal learns the size and side-file md5 of downloads.
    case journalOriginSizeMD5 = "journal-origin-size-md5"
    /// The checkpoints of loads in progress (`epf_checkpoint`). (SQLite
    /// creates the shared form here since that form exists: the same
    /// columns as its first table, its implicit rowid named `load_id`;
    /// `checkpointsShared` makes both forms the same.)
    case checkpoints = "checkpoints"
    /// Checkpoints say what a load resumes from (PostgreSQL's first
    /// checkpoint table lacked it; SQLite's had it from the start).
    case checkpointResumeColumns = "checkpoint-resume-columns"
    /// The journal keeps a download's modification time (the cheap check).
    case journalOriginModified = "journal-origin-mtime"
    /// The journal knows downloads by content (XXH64 fingerprint).
    case journalOriginHash = "journal-origin-hash"
    /// One checkpoint table for every backend (`SQLCheckpoints`): loads
    /// numbered by `load_id`, their progress in `records`. Checkpoints in
    /// progress are kept (PostgreSQL's from before resuming existed, which
    /// no load can resume, go with what they kept).
    case checkpointsShared = "checkpoints-shared"
    /// The table info keeps each table's row count as the last apply left
    /// it (`row_count`), so that an INCREMENTAL file of a large table does
    /// not count the whole table after its upsert.
    case tableInfoRowCount = "table-info-row-count"
    /// The digests of the rows of each table's last INCREMENTAL file
    /// (`epf_row_digest`, `RowDigestSet`), so that the next day's file
    /// leaves out the rows it repeats.
    case rowDigests = "row-digests"
    /// The change log: `epf_price_change` and `epf_app_change`
    /// (`SQLChangeLog`), written by the apply.
    case changeLog = "change-log"
    /// Per application, the digest of its rows in the last FULL file of
    /// prices (`epf_application_digest`, `ApplicationDigests`).
    case applicationDigests = "application-digests"

    /// Whether an earlier step may already have made what this one makes,
    /// on a catalog that had neither (SQLite's `checkpoints` creates the
    /// shared checkpoint table since it exists); the migrator then checks
    /// `adds` before running it. Only such steps are checked: a look at
    /// the columns costs a new catalog as much as a small load.
    package var mayBeMadeByAnEarlierStep: Bool { self == .checkpointsShared }

    /// What the step leaves in a catalog, by table: the columns it adds, or
    /// none for a table it creates. A catalog made before `epf_schema`
    /// existed has had the step when all of them are there.
    package var adds: [(table: String, columns: [String])] {
        switch self {
        case .journalAndTableInfo: [(CatalogTables.journal, []), (CatalogTables.tableInfo, [])]
        case .journalOriginSizeMD5: [(CatalogTables.journal, ["origin_size", "origin_md5"])]
        case .checkpoints: [(CatalogTables.checkpoints, [])]
        case .checkpointResumeColumns: [(CatalogTables.checkpoints, ["source", "header", "counts", "first_export_date", "key_index"])]
        case .journalOriginModified: [(CatalogTables.journal, ["origin_mtime"])]
        case .journalOriginHash: [(CatalogTables.journal, ["origin_hash"])]
        case .checkpointsShared: [(CatalogTables.checkpoints, ["load_id", "records"])]
        case .tableInfoRowCount: [(CatalogTables.tableInfo, ["row_count"])]
        case .rowDigests: [(CatalogTables.rowDigests, [])]
        case .changeLog: [(CatalogTables.priceChanges, []), (CatalogTables.appChanges, [])]
        case .applicationDigests: [(CatalogTables.applicationDigests, [])]
        }
    }
}
