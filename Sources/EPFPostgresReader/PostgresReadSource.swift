import EPFCatalogRead
import EPFTextSearch

/// A PostgreSQL catalog as the read engine and the admin commands read it
/// (`PostgresCatalog`, `PostgresCatalogAdmin`): one connection, and
/// PostgreSQL's spelling (`$1`, `= ANY($1::bigint[])`, `COLLATE "C"`,
/// `tsquery` on the `tsvector` of `epf_search_<table>`,
/// `PostgresSearchIndex`).
///
/// Every query goes through libpq's pipeline mode (`PostgresPipeline`),
/// prepared once per connection: a batch of them (the related tables of a
/// request) costs one round trip. The session reads at REPEATABLE READ,
/// READ ONLY by default, so a snapshot needs no statement: it is the
/// implicit transaction of the pipeline, from its first query to the Sync
/// of its last batch (`endingSnapshot`) or `endSnapshot`. Never writes.
///
/// Not thread-safe: one connection, used from one thread at a time.
package final class PostgresReadSource: CatalogAdminSource {
    /// The catalog's server and database.
    package let target: PostgresTarget
    /// The one connection every query runs on.
    package let connection: PostgresConnection
    /// Cuts a search's words as the index was cut.
    private let tokenizer = SearchTokenizer()
    /// Whether the queries run in a snapshot (`beginSnapshot`) that no
    /// batch has ended yet.
    private var inSnapshot = false

    /// Connects to the catalog at `target`; `applicationName` is what the
    /// server's activity view shows.
    ///
    /// - Parameter searchPlans: the session plans the read engine's
    ///   searches as `searchRows` and `searchPage` write them
    ///   (`enable_seqscan = off`: a match is found through an index, never
    ///   by reading the table); the admin side leaves the planner alone.
    package init(target: PostgresTarget, applicationName: String = "epf read", searchPlans: Bool = false) throws(CatalogError) {
        self.target = target
        do {
            connection = try PostgresConnection(target, applicationName: applicationName)
            try connection.execute(
                "SET default_transaction_isolation = 'repeatable read'; SET default_transaction_read_only = on"
                    + (searchPlans ? "; SET enable_seqscan = off; SET plan_cache_mode = force_generic_plan" : ""))
        } catch {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        }
    }

    package var displayName: String { target.redacted }

    /// A query finds out whether the server and database are there.
    package var isStillThere: Bool { true }

    package func parameter(_ number: Int) -> String { "$\(number)" }

    /// The `C` collation compares bytes, as SQLite's default does.
    package func bytewise(_ expression: String) -> String { "\(expression) COLLATE \"C\"" }

    /// A `bigint[]` array: the btree index takes `= ANY` as one scan.
    package func idList(_ expression: String, parameter number: Int) -> String {
        "\(expression) = ANY(\(parameter(number))::bigint[])"
    }

    package func idListValue(_ ids: [Int64]) -> SQLValue {
        .text(SQLArguments.idList(ids, open: "{", close: "}"))
    }

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
        try forEachRow([ReadQuery(sql: sql, arguments: arguments)], endingSnapshot: false) { _, row in body(row) }
    }

    /// One round trip for the whole batch; outside a snapshot, or at its
    /// end, the batch is synced (its own implicit transaction ends).
    package func forEachRow(_ batch: [ReadQuery], endingSnapshot: Bool, _ body: (Int, PostgresRow) -> Void) throws(PostgresError) {
        let queries = batch.map { query in
            PostgresConnection.PipelinedQuery(sql: query.sql, parameters: (0..<query.arguments.count).map { query.arguments[$0].textValue })
        }
        let sync = !inSnapshot || endingSnapshot
        if endingSnapshot { inSnapshot = false }
        try connection.pipeline(queries, sync: sync, body)
    }

    /// Nothing to send: the next query opens the pipeline, whose implicit
    /// transaction is the snapshot (REPEATABLE READ by the session's
    /// default). Inside a transaction the caller opened, that one.
    package func beginSnapshot() throws(PostgresError) {
        inSnapshot = true
    }

    package func endSnapshot() {
        inSnapshot = false
        connection.endPipeline()
    }

    // MARK: Search

    /// The table's comment holds its version (`PostgresSearchIndex.isCurrent`).
    package func searchIndexIsCurrent(_ name: String) -> String {
        "obj_description(to_regclass(\(quoteLiteral(quoteIdentifier(name)))), 'pg_class') IS NOT DISTINCT FROM \(quoteLiteral(PostgresSearchIndex.marker))"
    }

    /// `tsquery`s of the words as `SearchTokenizer` cuts them (the index's
    /// own tokens); the prefix-only matches in one query, so that GIN
    /// tells them apart without reading the rows.
    package func searchMatch(_ term: String) throws(CatalogError) -> SearchMatch? {
        guard let words = tokenizer.queryWords(term) else { return nil }
        let whole = PostgresSearchIndex.query(words, prefix: false)
        return SearchMatch(
            words: whole, prefixOnly: "(\(PostgresSearchIndex.query(words, prefix: true))) & !(\(whole))", tokens: SearchWords(words))
    }

    package func searchTokens(_ text: String) -> [String] { tokenizer.tokens(text) }

    /// The search table's own rows (it holds the Apple ID), in
    /// `(sort_key, seq)` order, which is SQLite's search order. With the
    /// session's `enable_seqscan = off`, each plan has one way to go:
    /// walked, the match is written so that GIN cannot take it (`IS TRUE`)
    /// and the rows come from the `(sort_key, seq)` btree in order;
    /// sorted, the order is one no index gives (`sort_key + 0`) and the
    /// matches come from GIN.
    package func searchRows(index: String, application: String, match: String) -> SearchRowsSQL {
        SearchRowsSQL(
            from: "\(index) AS s WHERE s.words @@ \(match)::tsquery", applicationID: "s.application_id", order: "s.sort_key, s.seq",
            walkedFrom: "\(index) AS s WHERE (s.words @@ \(match)::tsquery) IS TRUE", sortedOrder: "s.sort_key + 0, s.seq")
    }

    /// Runs `page` with the plan a probe chooses, because the planner's
    /// estimate for a word it has no statistics on (any rare word) is a
    /// guess: walking the `(sort_key, seq)` btree in order and stopping
    /// after the page is fast for a word in many titles and reads the
    /// whole table for a word in none; taking the matches from GIN and
    /// sorting them is the opposite.
    ///
    /// The probe counts the matches through GIN up to a bound, and the
    /// page is sorted when they are no more. A walk to the end of a page
    /// reads about `pageEnd * titles / matches` rows, a sort reads every
    /// match (and checks each against the filters): measured here, a row
    /// walked and a match sorted cost about the same (2.7 and 2.2 µs), so
    /// the two meet where `matches` is `sqrt(pageEnd * titles)`: 1,000
    /// matches for a page of 50 in 20,000 titles, 7,071 in 1M (`garden` in
    /// 1,722 of 20,000 titles: the walk 1.7 ms, the sort 3.9 ms). The
    /// table's size is PostgreSQL's own estimate (`reltuples`, kept by
    /// the import's ANALYZE), read in the probe itself: one statement.
    /// The plan is in the page's SQL (`searchRows`); the probe's one way
    /// is GIN (the session has `enable_seqscan = off`).
    package func searchPage(index: String, match: String, pageEnd: Int, _ page: (SearchPlan) throws(PostgresError) -> [Int64])
        throws(PostgresError) -> [Int64]
    {
        var matches: Int64 = 0
        var bound = Int64.max
        try forEachRow(
            """
            WITH b AS (
                SELECT least(greatest(\(Self.fewestSorted), sqrt(greatest(c.reltuples, 0) * $2::float8)), 9.0e18)::bigint AS bound
                FROM pg_class AS c WHERE c.oid = to_regclass(\(quoteLiteral(quoteIdentifier(index)))))
            SELECT (SELECT bound FROM b), count(*)
            FROM (SELECT 1 FROM \(quoteIdentifier(index)) AS s WHERE s.words @@ $1::tsquery LIMIT (SELECT bound FROM b) + 1) AS m
            """,
            SQLArguments(.text(match), .integer(Int64(pageEnd)))
        ) { row in
            bound = row.integer(0) ?? .max
            matches = row.integer(1) ?? 0
        }
        guard matches > 0 else { return [] }
        return try page(matches > bound ? .walk : .sort)
    }

    /// The fewest matches a search sorts, however small the table.
    static let fewestSorted = 100

    // MARK: Admin

    package func baseTables() throws(PostgresError) -> [String] {
        try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").compactMap { $0[0] }
    }

    package func secondsBetween(_ start: String, _ end: String) -> String {
        "round(extract(epoch FROM \(end)::timestamptz - \(start)::timestamptz), 3)::float8"
    }

    package func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        try PostgresReadOnlyQuery.run(sql, on: connection)
    }
}
