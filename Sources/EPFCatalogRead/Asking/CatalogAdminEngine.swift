import EPFCatalogCore
import EPFFormat
import Foundation

/// `CatalogAdmin` written once for every backend, over its
/// `CatalogAdminSource`: which tables are EPF tables and in which order,
/// what `epf tables` shows of each, the journal's columns and filters,
/// and the messages. `SQLiteCatalogAdmin` (SQLite) and `PostgresCatalogAdmin`
/// are this engine over their backend's source.
///
/// Not thread-safe: one connection, used from one thread at a time.
package final class CatalogAdminEngine<Source: CatalogAdminSource>: CatalogAdmin {
    /// The backend: its connection and SQL spelling.
    package let source: Source

    /// The admin side of the catalog `source` reads.
    package init(source: Source) {
        self.source = source
    }

    package func tables(prefix: String? = nil) throws(CatalogError) -> [CatalogTableSummary] {
        try source.attempt("listing the catalog's tables") { () throws(Source.Failure) -> [CatalogTableSummary] in
            let relations = try source.relations()
            let hasInfo = relations.contains(CatalogTables.tableInfo)
            var applied = Set<String>()
            if hasInfo {
                try source.forEachRow("SELECT table_name FROM \(quoteIdentifier(CatalogTables.tableInfo))", SQLArguments()) { row in
                    if let name = row.text(0) { applied.insert(name) }
                }
            }
            let names = try source.baseTables()
                .filter { (!$0.hasPrefix(CatalogTables.prefix) || applied.contains($0)) && $0.hasPrefix(prefix ?? "") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let storefronts = try source.storefrontSet(tables: relations)
            let info =
                "SELECT export_mode, applied_at, export_date, source_path, primary_key FROM \(quoteIdentifier(CatalogTables.tableInfo)) WHERE table_name = \(source.parameter(1))"
            var summaries: [CatalogTableSummary] = []
            for name in names {
                var summary = CatalogTableSummary(name: name, rows: 0)
                var primaryKey: [String]?
                try source.forEachRow("SELECT count(*) FROM \(quoteIdentifier(name))", SQLArguments()) { row in
                    summary.rows = Int(row.integer(0) ?? 0)
                }
                if hasInfo {
                    var found = false
                    try source.forEachRow(info, SQLArguments(.text(name))) { row in
                        guard !found else { return }
                        found = true
                        summary.lastMode = row.text(0)
                        summary.lastImport = row.text(1)
                        summary.exportDate = row.integer(2)
                        summary.source = row.text(3)
                        let key = row.text(4).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
                        primaryKey = key
                    }
                }
                if let primaryKey, StorefrontFilter.column(columns: try source.columnNames(of: name), primaryKey: primaryKey) != nil {
                    summary.storefronts = storefronts?.description ?? "all"
                }
                summaries.append(summary)
            }
            return summaries
        }
    }

    package func journal(feed: String?, table: String?, status: JournalRecord.Status?, limit: Int) throws(CatalogError) -> [[SQLValue]]? {
        try source.attempt("reading the import journal") { () throws(Source.Failure) -> [[SQLValue]]? in
            guard try source.relations().contains(CatalogTables.journal) else { return nil }
            let query = JournalQuery.select(
                """
                id, started_at, feed, feed_date, table_name, mode, status, rows, repaired_rows, skipped_rows,
                    \(source.secondsBetween("started_at", "finished_at")), source_path, message
                """, feed: feed, table: table, status: status?.rawValue, limit: limit, parameter: source.parameter)
            var rows: [[SQLValue]] = []
            try source.forEachRow(query.sql, query.arguments) { row in
                rows.append((0..<row.count).map(row.value))
            }
            return rows
        }
    }

    package func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        try source.readOnlyQuery(sql)
    }

    /// Rows of `table` whose `column` equals `value`, as (column, value)
    /// pairs in the table's column order.
    package func rows(of table: String, where column: String, equals value: SQLValue) throws(CatalogError) -> [[(String, SQLValue)]] {
        guard try source.attempt("reading \(table)", { () throws(Source.Failure) in try source.relations().contains(table) }) else {
            throw CatalogError(
                .notFound,
                detail: "the catalog has no \(table) table",
                hint: "Import the feed that holds it first (epf import itunesYYYYMMDD)")
        }
        return try source.attempt("reading \(table)") { () throws(Source.Failure) -> [[(String, SQLValue)]] in
            var rows: [[(String, SQLValue)]] = []
            try source.forEachRow(
                "SELECT * FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = \(source.parameter(1))", SQLArguments(value)
            ) { row in
                rows.append((0..<row.count).map { (row.name($0), row.value($0)) })
            }
            return rows
        }
    }
}
