import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

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
