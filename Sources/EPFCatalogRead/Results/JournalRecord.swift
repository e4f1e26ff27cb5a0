#if canImport(Glibc)
import EPFCatalogCore
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One row of a catalog's import journal, as `Catalog.journal(feed:table:status:limit:)`
/// reads it: a table file an import applied or refused, when, and how it
/// ended. What `epf history` lists.
///
/// Every import writes one row per table file it read (or, for a blocked
/// feed, would have read), in the same transaction as what it applied, so
/// the journal is what the catalog holds. The `applied` rows are also what
/// a later import skips (see `CatalogImport` in EPFImport).
public struct JournalRecord: Sendable, Equatable {
    /// How a file of an import ended.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Applied to the live tables.
        case applied
        /// Refused: damaged input or a store error. Nothing of it was
        /// applied.
        case failed
        /// Loaded and valid, but not applied because another file of the
        /// same feed folder failed (a feed is applied whole or not at all).
        case notApplied = "not-applied"
        /// Not read: an earlier day of the same feed failed in the same run,
        /// and a later day is never applied before an earlier one.
        case blocked
    }

    /// The row's id: rows are numbered in the order they were written, so
    /// a larger id is a later row.
    public let id: Int64
    /// The feed the file belongs to (`itunes`, `pricing`, `popularity`),
    /// when it came from a feed folder or archive.
    public let feed: String?
    /// The feed's date from its folder name, `YYYY-MM-DD`.
    public let feedDate: String?
    /// The catalog table the file goes into (with the import's table
    /// prefix, if any).
    public let table: String
    /// `FULL` or `INCREMENTAL`, once the file's header was read.
    public let mode: String?
    /// The file's first `export_date` (milliseconds since 1970), once read.
    public let exportDate: Int64?
    /// How the file ended.
    public let status: Status
    /// Rows the file held (for an applied file: the rows applied).
    public let rows: Int
    /// Of `rows`, those repaired in any way (rejoined, text made valid).
    public let repairedRows: Int
    /// Rows read but not stored (a repeated key: the last row wins).
    public let skippedRows: Int
    /// The file as the import named it (`archive:entry` inside a feed
    /// archive).
    public let sourcePath: String
    /// The file's size in bytes (compressed size for a compressed file),
    /// when known.
    public let sourceSize: Int64?
    /// When the import started the file: ISO 8601 in UTC, to the
    /// millisecond (`2026-11-27T23:04:30.498Z`; to the second in journals
    /// written before milliseconds were kept).
    public let startedAt: String
    /// When the file ended, in the same form as `startedAt`.
    public let finishedAt: String
    /// For a failed, not-applied or blocked file, why; for an applied one,
    /// its warnings, if any.
    public let message: String?

    /// Seconds from `startedAt` to `finishedAt`; nil when either is not a
    /// timestamp in the journal's form.
    public var seconds: Double? {
        guard let start = Timestamp.epochSeconds(startedAt), let end = Timestamp.epochSeconds(finishedAt) else { return nil }
        return end - start
    }

    /// A journal row; the package's readers make these.
    package init(
        id: Int64, feed: String?, feedDate: String?, table: String, mode: String?, exportDate: Int64?, status: Status, rows: Int,
        repairedRows: Int, skippedRows: Int, sourcePath: String, sourceSize: Int64?, startedAt: String, finishedAt: String,
        message: String?
    ) {
        self.id = id
        self.feed = feed
        self.feedDate = feedDate
        self.table = table
        self.mode = mode
        self.exportDate = exportDate
        self.status = status
        self.rows = rows
        self.repairedRows = repairedRows
        self.skippedRows = skippedRows
        self.sourcePath = sourcePath
        self.sourceSize = sourceSize
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.message = message
    }
}

/// The journal's rows `epf history` and `Catalog.journal` read, written
/// once: which rows a filter keeps, newest first.
package enum JournalQuery {
    /// `SELECT columns FROM epf_journal` with the rows of `feed`, `table`
    /// and `status` (each when given), newest first, at most `limit` (all
    /// when nil), and the arguments it binds; `parameter` spells the
    /// backend's parameters (`?1`, `$1`).
    package static func select(
        _ columns: String, feed: String?, table: String?, status: String?, limit: Int?, parameter: (Int) -> String
    ) -> (sql: String, arguments: SQLArguments) {
        var conditions: [String] = []
        var arguments = SQLArguments()
        for (column, value) in [("feed", feed), ("table_name", table), ("status", status)] {
            if let value {
                arguments.append(.text(value))
                conditions.append("\(column) = \(parameter(arguments.count))")
            }
        }
        var limitClause = ""
        if let limit {
            arguments.append(.integer(Int64(limit)))
            limitClause = " LIMIT \(parameter(arguments.count))"
        }
        let sql = """
            SELECT \(columns)
            FROM \(quoteIdentifier(CatalogTables.journal))
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY id DESC\(limitClause)
            """
        return (sql, arguments)
    }
}
