import EPFCatalogRead

extension TabularOutput {
    /// `epf history`: the journal's rows as `CatalogAdmin.journal` reads
    /// them, seconds with two decimals and start times to the second in a
    /// table and CSV (JSON has them as stored, to the millisecond).
    package static func journal(_ rows: [[SQLValue]]) -> TabularOutput {
        TabularOutput(
            columns: [
                "id", "started_at", "feed", "feed_date", "table_name", "mode", "status", "rows", "repaired_rows", "skipped_rows", "seconds",
                "source_path", "message",
            ],
            rows: rows, forms: ["seconds": .seconds, "started_at": .timestampToTheSecond])
    }
}
