import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

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
    /// What the apply keeps of the file for the table's next INCREMENTAL
    /// file (`KeptRowDigests`); nil for nothing (a FULL file, a resumed
    /// load, a repeated key).
    package var rowDigests: KeptRowDigests?
    /// The layout the digests were taken in (`CatalogStore.rowDigests`).
    package var rowDigestLayout: Int64 = 0
    /// A FULL file of prices: each application's digest, which the change
    /// log compares with the FULL before's (`ApplicationDigests`); nil when
    /// not taken (another table, a resumed load).
    package var applicationDigests: ApplicationDigests?

    /// For stores outside this module (PostgreSQL).
    package init(target: StagingTarget, stagingName: String, keyIndexName: String?, counts: LoadCounts, firstExportDate: Int64?) {
        self.target = target
        self.stagingName = stagingName
        self.keyIndexName = keyIndexName
        self.counts = counts
        self.firstExportDate = firstExportDate
    }
}
