import EPFCatalogCore
import EPFCatalogRead

/// One row of the import journal as an import writes it: a file the
/// importer applied or refused. Public because `CatalogStore` names it;
/// made and read only inside this package (a reader reads rows as
/// `JournalRecord`s, through `Catalog.journal(feed:table:status:limit:)`).
public struct JournalEntry: Sendable, Equatable, Codable {
    /// How the file ended (the same statuses a reader sees).
    package typealias Status = JournalRecord.Status

    package var feed: String?
    /// The feed's date from its folder name, `YYYY-MM-DD`.
    package var feedDate: String?
    package var table: String
    /// The first row's `export_date` (epoch milliseconds).
    package var exportDate: Int64?
    package var mode: String?
    package var rows: Int
    package var repairedRows: Int
    package var skippedRows: Int
    package var sourcePath: String
    package var sourceSize: Int64?
    /// ISO 8601, UTC.
    package var startedAt: String
    package var finishedAt: String
    package var status: Status
    /// The error, for failed files; warnings otherwise.
    package var message: String?
    /// The full counters and warnings, as JSON.
    package var details: String?
    /// The size of the file as downloaded: the table file, or the archive
    /// that held it. With `originMD5`, what tells a download already applied.
    package var originSize: Int64?
    /// The md5 its `.md5` side file gave (and the import checked), if
    /// there was one.
    package var originMD5: String?
    /// The download's fingerprint (`xxh64:` and 16 hex digits), computed in
    /// the same pass that imported it: what knows the download by content.
    package var originHash: String?
    /// The download's modification time (nanoseconds since 1970): with the
    /// size, the cheap check that tells when the md5 must be computed again.
    package var originModified: Int64?

    package init(
        feed: String?, feedDate: String?, table: String, exportDate: Int64?, mode: String?, rows: Int,
        repairedRows: Int, skippedRows: Int, sourcePath: String, sourceSize: Int64?, startedAt: String,
        finishedAt: String, status: Status, message: String?, details: String?, originSize: Int64? = nil,
        originMD5: String? = nil, originHash: String? = nil, originModified: Int64? = nil
    ) {
        self.feed = feed
        self.feedDate = feedDate
        self.table = table
        self.exportDate = exportDate
        self.mode = mode
        self.rows = rows
        self.repairedRows = repairedRows
        self.skippedRows = skippedRows
        self.sourcePath = sourcePath
        self.sourceSize = sourceSize
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.message = message
        self.details = details
        self.originSize = originSize
        self.originMD5 = originMD5
        self.originHash = originHash
        self.originModified = originModified
    }
}
