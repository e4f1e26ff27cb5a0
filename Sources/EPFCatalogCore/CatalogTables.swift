/// The importer's own tables, by name: the one place their names are
/// spelled, for the stores and the readers of every backend. Each starts
/// with `prefix`, which is how `epf tables` tells them from EPF tables.
///
/// A shipped migration step's SQL keeps its text as it shipped; where it
/// names these tables it says the same names.
package enum CatalogTables {
    /// What the importer's own tables start with.
    package static let prefix = "epf_"
    /// The import journal: one row per file applied or refused.
    package static let journal = "epf_journal"
    /// How each EPF table was last applied.
    package static let tableInfo = "epf_table_info"
    /// The checkpoints of loads in progress (`SQLCheckpoints`).
    package static let checkpoints = "epf_checkpoint"
    /// The migration steps applied to the catalog (`CatalogMigration`).
    package static let schema = "epf_schema"
    /// The values that did not fit their column (PostgreSQL catalogs).
    package static let unfitValues = "epf_unfit_values"
    /// Per table, the digests of the rows of the INCREMENTAL file last
    /// applied to it (`RowDigestSet`): the next day's file leaves those rows
    /// out as it is parsed.
    package static let rowDigests = "epf_row_digest"
    /// The change log of prices: one row per price of an application in a
    /// storefront that changed, appeared or went (`SQLChangeLog`).
    package static let priceChanges = "epf_price_change"
    /// The change log of applications: new, a new version, renamed,
    /// removed (`SQLChangeLog`).
    package static let appChanges = "epf_app_change"
    /// Per logged FULL table (prices, applications), the digest of each application's rows in
    /// its last FULL file (`ApplicationDigests`): the next FULL's change log
    /// compares only the applications whose digests differ.
    package static let applicationDigests = "epf_application_digest"
    /// Prefix of the tables files load into before they are applied.
    package static let stagingPrefix = "epf_stage_"
    /// Prefix of the search table of an indexed table (`SearchIndex`).
    package static let searchPrefix = "epf_search_"

    /// The column in which every EPF row carries its export's date (epoch
    /// milliseconds). An INCREMENTAL row that differs from the catalog's
    /// only here is not written.
    package static let exportDateColumn = "export_date"

    /// The column of an INCREMENTAL file's staging table that marks a row
    /// the same as the catalog's (SQLite's `UnchangedRowFilter`): 1 for a
    /// row kept only for its key, deleted before the apply writes.
    package static let unchangedColumn = "epf_unchanged"

    /// The staging table of a catalog table.
    package static func staging(for table: String) -> String { stagingPrefix + table }

    /// The search table of a catalog table.
    package static func search(for table: String) -> String { searchPrefix + table }
}
