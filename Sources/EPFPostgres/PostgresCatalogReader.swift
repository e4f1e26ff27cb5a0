import EPFCatalog

/// What `epf tables` and `epf history` read from a PostgreSQL catalog
/// (lookups and search: `PostgresCatalog`; `epf sql`: `PostgresReadOnlyQuery`).
public enum PostgresCatalogReader {
    /// One EPF table of the catalog.
    public struct TableSummary: Sendable, Equatable {
        public var name: String
        public var rows: Int
        public var lastMode: String?
        public var lastImport: String?
        public var exportDate: Int64?
        public var source: String?
    }

    /// The EPF tables of the schema, by name: every table outside `epf_`,
    /// and every table `epf_table_info` lists as applied (a table imported
    /// with `--table-prefix epf_`); only those whose name starts with
    /// `prefix` when it is given (as `CatalogReader.tables(prefix:)`).
    public static func tables(at target: PostgresTarget, prefix: String? = nil) throws(CatalogError) -> [TableSummary] {
        do {
            let connection = try PostgresConnection(target, applicationName: "epf tables")
            let hasInfo = try connection.scalar("SELECT to_regclass('epf_table_info') IS NOT NULL") == "t"
            let applied = hasInfo ? "OR tablename IN (SELECT table_name FROM epf_table_info)" : ""
            let names = try connection.query(
                """
                SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
                AND (NOT starts_with(tablename, 'epf_') \(applied)) ORDER BY tablename COLLATE "C"
                """
            ).compactMap { $0[0] }.filter { $0.hasPrefix(prefix ?? "") }
            return try names.map { (name: String) throws(PostgresError) -> TableSummary in
                let rows = Int(try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(name))") ?? "0") ?? 0
                var summary = TableSummary(name: name, rows: rows)
                if hasInfo, let info = try connection.query(
                    "SELECT export_mode, applied_at, export_date::text, source_path FROM epf_table_info WHERE table_name = $1", [name]
                ).first {
                    summary.lastMode = info[0]
                    summary.lastImport = info[1]
                    summary.exportDate = info[2].flatMap { Int64($0) }
                    summary.source = info[3]
                }
                return summary
            }
        } catch {
            throw CatalogError(error, while: "listing the tables of \(target.redacted)")
        }
    }

    /// Journal rows, newest first, as text in the columns of `epf history`:
    /// id, started_at, feed, feed_date, table_name, mode, status, rows,
    /// repaired_rows, skipped_rows, seconds, source_path, message. Nil when
    /// the catalog has no journal yet.
    public static func journal(
        at target: PostgresTarget, feed: String?, table: String?, status: String?, limit: Int
    ) throws(CatalogError) -> [[String?]]? {
        do {
            let connection = try PostgresConnection(target, applicationName: "epf history")
            guard try connection.scalar("SELECT to_regclass('epf_journal') IS NOT NULL") == "t" else { return nil }
            var conditions: [String] = []
            var values: [String?] = []
            for (column, value) in [("feed", feed), ("table_name", table), ("status", status)] {
                if let value {
                    values.append(value)
                    conditions.append("\(column) = $\(values.count)")
                }
            }
            values.append(String(limit))
            return try connection.query(
                """
                SELECT id::text, started_at, feed, feed_date, table_name, mode, status, rows::text, repaired_rows::text,
                    skipped_rows::text,
                    round(extract(epoch FROM finished_at::timestamptz - started_at::timestamptz))::bigint::text,
                    source_path, message
                FROM epf_journal
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                ORDER BY id DESC LIMIT $\(values.count)
                """, values)
        } catch {
            throw CatalogError(error, while: "reading the import journal of \(target.redacted)")
        }
    }
}

extension PostgresCatalogReader.TableSummary {
    init(name: String, rows: Int) {
        self.name = name
        self.rows = rows
    }
}
