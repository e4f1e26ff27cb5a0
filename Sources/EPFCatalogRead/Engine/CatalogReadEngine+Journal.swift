import EPFCatalogCore

extension CatalogReadEngine {
    /// The import journal's rows, newest first: those of `feed`, `table`
    /// and `status` (each when given), at most `limit` (all when nil).
    /// Empty when the catalog has no journal. What
    /// `Catalog.journal(feed:table:status:limit:)` answers.
    @usableFromInline
    package func journal(feed: String?, table: String?, status: JournalRecord.Status?, limit: Int?) throws(CatalogError)
        -> [JournalRecord]
    {
        if let limit, limit < 0 {
            throw CatalogError(.usage, detail: "a journal limit of \(limit)", hint: "Give 0 or more, or nil for every row")
        }
        var unknownStatus: String?
        let records = try source.attempt("reading the import journal") { () throws(Source.Failure) -> [JournalRecord] in
            guard try source.relations().contains(CatalogTables.journal) else { return [] }
            let query = JournalQuery.select(
                """
                id, feed, feed_date, table_name, mode, export_date, status, rows, repaired_rows, skipped_rows, source_path,
                    source_size, started_at, finished_at, message
                """, feed: feed, table: table, status: status?.rawValue, limit: limit, parameter: source.parameter)
            var records: [JournalRecord] = []
            try source.forEachRow(query.sql, query.arguments) { row in
                let text = row.text(6) ?? ""
                guard let status = JournalRecord.Status(rawValue: text) else {
                    unknownStatus = unknownStatus ?? text
                    return
                }
                records.append(
                    JournalRecord(
                        id: row.integer(0) ?? 0, feed: row.text(1), feedDate: row.text(2), table: row.text(3) ?? "",
                        mode: row.text(4), exportDate: row.integer(5), status: status,
                        rows: Int(row.integer(7) ?? 0), repairedRows: Int(row.integer(8) ?? 0), skippedRows: Int(row.integer(9) ?? 0),
                        sourcePath: row.text(10) ?? "", sourceSize: row.integer(11), startedAt: row.text(12) ?? "",
                        finishedAt: row.text(13) ?? "", message: row.text(14)))
            }
            return records
        }
        if let unknown = unknownStatus {
            throw CatalogError(
                .incompatible,
                detail: "\(source.displayName): the import journal holds a status this version of epf does not know ('\(unknown)')",
                hint: "Read it with the version of epf that imported into it, or newer")
        }
        return records
    }

    /// Whether the catalog's tables are no longer those this engine found
    /// when it opened (an import made a table for the first time, or
    /// dropped one): a long-lived reader then opens again, to use them
    /// (`epf-server`'s pool asks at most once a second).
    /// An import's staging tables (and their search tables), there only
    /// while it loads, are no change.
    @usableFromInline
    package func tablesChanged() throws(CatalogError) -> Bool {
        func lasting(_ names: Set<String>) -> Set<String> { names.filter { !$0.contains(CatalogTables.stagingPrefix) } }
        let now = try source.attempt("reading the catalog's tables") { () throws(Source.Failure) in try source.relations() }
        return lasting(now) != lasting(tables)
    }
}
