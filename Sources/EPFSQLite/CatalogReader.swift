import Foundation
import EPFCatalog

/// Read-only access to a catalog: what tables it holds and their rows.
/// Opening never creates the file, and changes it only to undo what an
/// interrupted import left (`SQLiteDatabase.openForReading(path:)`).
public final class CatalogReader {
    public let database: SQLiteDatabase

    /// Opens the catalog at `path` read-only, answering from its last
    /// committed state.
    public init(path: String) throws(CatalogError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CatalogError(
                .notFound,
                detail: "\(path): no catalog there",
                hint: "Run `epf import` first, or name the catalog with --db or $EPF_DB")
        }
        // Fails early on a file that is not a SQLite database.
        database = try SQLiteDatabase.openForReading(path: path)
    }

    /// One table of the catalog, for `epf tables`.
    public struct TableSummary: Sendable, Equatable {
        public var name: String
        public var rows: Int
        /// FULL or INCREMENTAL: how the last applied file was applied.
        public var lastMode: String?
        /// When the last file of this table was applied (ISO 8601).
        public var lastImport: String?
        /// The `export_date` of the last applied file (epoch milliseconds).
        public var exportDate: Int64?
        /// The file the last import read.
        public var source: String?
    }

    /// The EPF tables of the catalog, by name: every table outside the
    /// importer's own (`epf_...`) and SQLite's, and every table the importer
    /// lists as applied (`epf_table_info`: a table imported with
    /// `--table-prefix epf_` is an EPF table); only those whose name starts
    /// with `prefix` when it is given.
    public func tables(prefix: String? = nil) throws(CatalogError) -> [TableSummary] {
        do {
            let hasInfo = try database.tableExists(SQLiteCatalogStore.tableInfoTable)
            let applied =
                hasInfo
                ? "OR name IN (SELECT table_name FROM \(SQLiteCatalogStore.tableInfoTable))" : ""
            let names = try database.rows(
                """
                SELECT name FROM sqlite_schema WHERE type = 'table'
                AND ((name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'epf\\_%' ESCAPE '\\') \(applied)) ORDER BY name
                """
            ).compactMap { $0.first?.textValue }.filter { $0.hasPrefix(prefix ?? "") }
            return try names.map { (name: String) throws(SQLiteError) -> TableSummary in
                let rows = Int(try database.scalar("SELECT count(*) FROM \(quoteIdentifier(name))")?.integerValue ?? 0)
                var summary = TableSummary(name: name, rows: rows)
                if hasInfo, let info = try database.rows(
                    "SELECT export_mode, applied_at, export_date, source_path FROM \(SQLiteCatalogStore.tableInfoTable) WHERE table_name = ?",
                    [.text(name)]).first
                {
                    summary.lastMode = info[0].textValue
                    summary.lastImport = info[1].textValue
                    summary.exportDate = info[2].integerValue
                    summary.source = info[3].textValue
                }
                return summary
            }
        } catch {
            throw CatalogError(error, while: "listing the catalog's tables")
        }
    }

    /// The import journal, newest first, for `epf history`: id, started_at,
    /// feed, feed_date, table_name, mode, status, rows, repaired_rows,
    /// skipped_rows, seconds, source_path, message. Nil when the catalog
    /// has no journal yet.
    public func journal(feed: String?, table: String?, status: String?, limit: Int) throws(CatalogError) -> [[SQLValue]]? {
        let journal = SQLiteCatalogStore.journalTable
        var conditions: [String] = []
        var values: [SQLValue] = []
        for (column, value) in [("feed", feed), ("table_name", table), ("status", status)] {
            if let value {
                conditions.append("\(column) = ?")
                values.append(.text(value))
            }
        }
        values.append(.integer(Int64(limit)))
        do {
            guard try database.tableExists(journal) else { return nil }
            return try database.rows(
                """
                SELECT id, started_at, feed, feed_date, table_name, mode, status, rows, repaired_rows, skipped_rows,
                CAST(round((julianday(finished_at) - julianday(started_at)) * 86400) AS INTEGER),
                source_path, message
                FROM \(quoteIdentifier(journal))
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY id DESC LIMIT ?
                """, values)
        } catch {
            throw CatalogError(error, while: "reading the import journal")
        }
    }

    /// Rows of `table` whose `column` equals `value`, as (column, value)
    /// pairs in the table's column order.
    public func rows(of table: String, where column: String, equals value: SQLValue) throws(CatalogError) -> [[(String, SQLValue)]] {
        do {
            guard try database.tableExists(table) else {
                throw CatalogError(
                    .notFound,
                    detail: "the catalog has no \(table) table",
                    hint: "Import the feed that holds it first (epf import itunesYYYYMMDD)")
            }
            let statement = try database.prepare(
                "SELECT * FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = ?")
            statement.bind(value, at: 1)
            defer { statement.reset() }
            var result: [[(String, SQLValue)]] = []
            while try statement.step() {
                result.append((0..<statement.columnCount).map { (statement.columnName($0), statement.value($0)) })
            }
            return result
        } catch let error as CatalogError {
            throw error
        } catch let error as SQLiteError {
            throw CatalogError(error, while: "reading \(table)")
        } catch {
            throw CatalogError(.failed, detail: "reading \(table): \(error)", hint: "")
        }
    }
}
