import EPFCatalog
import EPFTextSearch

/// A PostgreSQL catalog as the read engine and the admin commands read it
/// (`PostgresCatalog`, `PostgresCatalogReader`): one connection, and
/// PostgreSQL's spelling (`$1`, `COLLATE "C"`, `tsquery` on the `tsvector`
/// of `epf_search_<table>`, `PostgresSearchIndex`).
///
/// Each snapshot is a REPEATABLE READ, READ ONLY transaction. Never writes.
///
/// Not thread-safe: one connection, used from one thread at a time.
package final class PostgresReadSource: CatalogAdminSource {
    /// The catalog's server and database.
    package let target: PostgresTarget
    /// The one connection every query runs on.
    package let connection: PostgresConnection
    /// Cuts a search's words as the index was cut (made on first search).
    private var tokenizer: SearchTokenizer?

    /// Connects to the catalog at `target`; `applicationName` is what the
    /// server's activity view shows.
    package init(target: PostgresTarget, applicationName: String = "epf read") throws(CatalogError) {
        self.target = target
        do {
            connection = try PostgresConnection(target, applicationName: applicationName)
        } catch {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        }
    }

    package var displayName: String { target.redacted }

    package func parameter(_ number: Int) -> String { "$\(number)" }

    /// The `C` collation compares bytes, as SQLite's default does.
    package func bytewise(_ expression: String) -> String { "\(expression) COLLATE \"C\"" }

    package func relations() throws(PostgresError) -> Set<String> {
        Set(
            try connection.query(
                """
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                """
            ).compactMap { $0[0] })
    }

    package func columnNames(of table: String) throws(PostgresError) -> [String] {
        try connection.columnNames(of: table)
    }

    package func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (PostgresRow) -> Void) throws(PostgresError) {
        try connection.forEachRow(sql, (0..<arguments.count).map { arguments[$0].textValue }, body)
    }

    package var snapshotStatement: String { "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY" }

    // MARK: Search

    package func isCurrentSearchIndex(_ name: String) throws(PostgresError) -> Bool {
        try PostgresSearchIndex.isCurrent(name, on: connection)
    }

    /// `tsquery`s of the words as `SearchTokenizer` cuts them (the index's
    /// own tokens); the prefix-only matches in one query, so that GIN
    /// tells them apart without reading the rows.
    package func searchMatch(_ term: String) throws(CatalogError) -> SearchMatch? {
        if tokenizer == nil { tokenizer = try SearchTokenizer() }
        guard let words = tokenizer?.queryWords(term) else { return nil }
        let whole = PostgresSearchIndex.query(words, prefix: false)
        return SearchMatch(words: whole, prefixOnly: "(\(PostgresSearchIndex.query(words, prefix: true))) & !(\(whole))")
    }

    /// The search table's own rows (it holds the Apple ID), in
    /// `(sort_key, seq)` order, which is SQLite's search order.
    package func searchRows(index: String, application: String, match: String) -> SearchRowsSQL {
        SearchRowsSQL(from: "\(index) AS s WHERE s.words @@ \(match)::tsquery", applicationID: "s.application_id", order: "s.sort_key, s.seq")
    }

    /// The most matches a search sorts (taking them from the GIN index)
    /// rather than walking the `(sort_key, seq)` btree, for a page ending
    /// at `end`. Saturates below `Int.max` (the probe asks for one more),
    /// for a page that ends at an offset near `Int.max`.
    static func sortedMatchesAtMost(pageEnd end: Int) -> Int {
        let (bound, overflow) = end.multipliedReportingOverflow(by: 100)
        return overflow ? .max - 1 : min(max(5_000, bound), .max - 1)
    }

    /// Runs `page` with the plan chosen by a probe, because the planner's
    /// estimate for a word it has no statistics on (any rare word) is a
    /// guess: walking the btree in order and stopping after `limit`
    /// matches is fast for a word in many titles and reads the whole table
    /// for a word in none; taking the matches from the GIN index and
    /// sorting them is the opposite. The probe counts the matches through
    /// GIN, up to a bound (`sortedMatchesAtMost`: 100 times the page's
    /// end, at least 5,000): up to it they are sorted; more, and the walk
    /// meets a page's matches early (5,000 matches in 1M titles: one row in
    /// 200, so a page of 50 within ~10,000 rows). The choice is made with
    /// `SET LOCAL enable_*` for the one query, reset after.
    package func searchPage(index: String, match: String, pageEnd: Int, _ page: () throws(PostgresError) -> [Int64]) throws(PostgresError)
        -> [Int64]
    {
        let bound = Self.sortedMatchesAtMost(pageEnd: pageEnd)
        defer { _ = try? connection.execute("RESET enable_seqscan; RESET enable_indexscan; RESET enable_bitmapscan") }
        try connection.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
        let matches =
            Int(
                try connection.scalar(
                    "SELECT count(*) FROM (SELECT 1 FROM \(index) AS s WHERE s.words @@ $1::tsquery LIMIT \(bound + 1)) AS m", [match]) ?? "0")
            ?? 0
        guard matches > 0 else { return [] }
        if matches > bound {
            try connection.execute("SET LOCAL enable_indexscan = on; SET LOCAL enable_bitmapscan = off")
        }
        return try page()
    }

    // MARK: Admin

    package func baseTables() throws(PostgresError) -> [String] {
        try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").compactMap { $0[0] }
    }

    package func secondsBetween(_ start: String, _ end: String) -> String {
        "round(extract(epoch FROM \(end)::timestamptz - \(start)::timestamptz))::bigint"
    }

    package func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        try PostgresReadOnlyQuery.run(sql, on: connection)
    }
}

extension PostgresConnection: SQLReadConnection {}
