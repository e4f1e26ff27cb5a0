import EPFCatalogStore
import EPFFormat

/// How one table file of an import ended, for the summary and `--format json`.
public struct FileReport: Sendable, Encodable, Equatable {
    /// How the file ended.
    public enum Status: String, Sendable, Codable {
        /// Applied to the live tables.
        case applied
        /// Refused: nothing from it was applied.
        case failed
        /// Valid, but not applied because another file of its feed folder
        /// failed (a feed folder goes live whole or not at all).
        case notApplied = "not-applied"
        /// Not read: an earlier file of the same feed failed, and a later
        /// day must never be applied before an earlier one.
        case blocked
    }

    /// The path as the user sees it (`archive:entry` inside an archive).
    public var path: String
    /// The catalog table it goes into.
    public var table: String
    /// The feed the file belongs to (`itunes`, `pricing`, ...), if known.
    public var feed: String?
    /// The feed's date from its folder name, `YYYY-MM-DD`.
    public var feedDate: String?
    /// FULL or INCREMENTAL, once the header was read.
    public var mode: String?
    /// The first row's `export_date` (epoch milliseconds), once read.
    public var exportDate: Int64?
    /// How the file ended.
    public var status: Status
    /// The file's size in bytes (compressed size for a compressed file).
    public var size: Int64
    /// Rows of the file, this run's and those an interrupted earlier run
    /// had committed (`resumedRows`).
    public var rows: Int
    /// Of `rows`, those an interrupted earlier run had loaded: this run
    /// resumed after them (all of them when the file was staged completely).
    public var resumedRows = 0
    /// Rows repaired in any way (`LoadCounts.repairedRows`).
    public var repaired: Int
    /// Rows read but not stored (`LoadCounts.skippedRows`).
    public var skipped: Int
    /// Wall time spent on the file.
    public var seconds: Double
    /// Of `seconds`, the time spent after the last row was loaded: building
    /// the key and search indexes (the tail a faster reader cannot shorten).
    public var indexSeconds: Double = 0
    /// The rows this run loaded per second of this run (rows resumed from an
    /// earlier run are not counted: they took none of `seconds`).
    public var rowsPerSecond: Double {
        seconds > 0 ? Double(rows - resumedRows) / seconds : 0
    }
    /// What loading the file found and did, row by row.
    public var counts: LoadCounts
    /// For applied files: what changed in the live table.
    public var outcome: ApplyOutcome?
    /// The error, for failed and not-applied files.
    public var error: String?
    /// Header warnings and repair notes.
    public var warnings: [String]
    /// The size and md5 of the file as downloaded (the archive that held it,
    /// for an archive's entry): the journal's identity of a download.
    package var originSize: Int64? = nil
    /// The md5 its `.md5` side file gave (checked), if there was one.
    package var originMD5: String? = nil
    /// The download's fingerprint (`xxh64:...`), computed as it was read.
    package var originHash: String? = nil
    /// The download's modification time (nanoseconds since 1970).
    package var originModified: Int64? = nil
    /// For a feed archive's file: every table file the archive held.
    package var archiveTables: [String]? = nil

    enum CodingKeys: String, CodingKey {
        case path, table, feed, feedDate, mode, exportDate, status, size, rows, resumedRows, repaired, skipped, seconds, indexSeconds
        case rowsPerSecond
        case counts, outcome, error, warnings
    }

    /// Encodes the report as `epf import --format json` prints it, with
    /// `rowsPerSecond`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(table, forKey: .table)
        try container.encodeIfPresent(feed, forKey: .feed)
        try container.encodeIfPresent(feedDate, forKey: .feedDate)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(exportDate, forKey: .exportDate)
        try container.encode(status, forKey: .status)
        try container.encode(size, forKey: .size)
        try container.encode(rows, forKey: .rows)
        if resumedRows > 0 { try container.encode(resumedRows, forKey: .resumedRows) }
        try container.encode(repaired, forKey: .repaired)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(seconds.toThousandths, forKey: .seconds)
        try container.encode(indexSeconds.toThousandths, forKey: .indexSeconds)
        try container.encode(rowsPerSecond.rounded(), forKey: .rowsPerSecond)
        try container.encode(counts, forKey: .counts)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// What happens during an import, as values: the caller decides how to
/// show them (nothing below the command line prints).
public enum ImportEvent: Sendable {
    /// A file is about to be read.
    case fileStarted(path: String, table: String, size: Int64)
    /// The file's load resumes one an earlier run left (a `note` says
    /// where): the bytes its next `progress` counts were loaded then.
    case resumed(path: String)
    /// Rows loaded so far from the current file.
    case progress(path: String, bytesRead: Int64, totalBytes: Int64?, rows: Int)
    /// Every row of the file is loaded; its key index is being built.
    case buildingKey(path: String, table: String)
    /// The unit's staged tables are being applied to the live catalog.
    case applying(path: String, tables: Int)
    /// A file ended (loaded, failed, ...). Applied files are reported again
    /// in `unitFinished` with their final status.
    case fileFinished(FileReport)
    /// A unit (feed folder or single file) was applied or refused.
    case unitFinished(path: String, reports: [FileReport])
    /// Something worth telling that is not about one file.
    case note(String)
    /// A unit of the plan (or, as `what` says, some of its tables) is left
    /// out by the schedule, and why (applied before, superseded by a newer
    /// FULL, older than the catalog's day).
    case skipped(what: String, reason: String)
    /// What will be imported, once the plan is scheduled: the plan's units
    /// that are left, in order.
    case scheduled(ImportPlan)
}
