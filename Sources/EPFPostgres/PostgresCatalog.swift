import EPFCatalog
import EPFTextSearch

/// The questions of `epf lookup` and `epf search`, answered from a
/// PostgreSQL catalog: the same `SearchResponse` as `Catalog` gives from a
/// SQLite catalog of the same content, in the same order
/// (`CatalogQuerying`). The rows are read with the same queries as there,
/// written for PostgreSQL (NULLs placed as SQLite places them, booleans,
/// bytewise order of country codes), and assembled by the same code
/// (`ResultAssembly`); search reads `epf_search_application`
/// (`PostgresSearchIndex`).
///
/// A catalog imported with `--table-prefix` is read through its prefixed
/// tables (`CatalogTableNames`), as `Catalog` reads it.
///
/// Each lookup or search reads one snapshot (a REPEATABLE READ, READ ONLY
/// transaction): an import that applies meanwhile is seen whole or not at
/// all. Never writes.
///
/// Not thread-safe: one connection, used from one thread at a time.
public final class PostgresCatalog: CatalogQuerying {
    public let target: PostgresTarget
    let connection: PostgresConnection
    /// The tables (and views) of the schema, by name.
    let tables: Set<String>
    /// The names of the EPF tables: the prefix they were imported with.
    public let names: CatalogTableNames
    /// The `application` columns a result reads, those the table has.
    let applicationColumns: [String]
    let applicationQuery: String
    /// The `application_detail` columns a result reads (empty without it).
    let detailColumns: [String]
    private var tokenizer: SearchTokenizer?

    /// Connects to the catalog at `target`. Throws when it cannot, or when
    /// the schema has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it
    ///   (`CatalogTableNames.resolve`), and throws when the schema holds
    ///   application tables under several prefixes.
    public init(target: PostgresTarget, tablePrefix: String? = nil) throws(CatalogError) {
        self.target = target
        do {
            connection = try PostgresConnection(target, applicationName: "epf read")
            let tables = Set(
                try connection.query(
                    """
                    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                    """
                ).compactMap { $0[0] })
            let connection = connection
            let names = try CatalogTableNames.resolve(
                given: tablePrefix, tables: tables,
                columns: { (table) throws(PostgresError) in try PostgresCatalogStore.columnNames(of: table, on: connection) },
                catalog: target.redacted)
            guard tables.contains(names("application")) else { throw names.noApplicationTable(in: target.redacted) }
            let present = Set(try PostgresCatalogStore.columnNames(of: names("application"), on: connection))
            applicationColumns = ResultAssembly.applicationColumns.filter(present.contains)
            applicationQuery =
                "SELECT \(applicationColumns.map { quoteIdentifier($0) }.joined(separator: ", ")) FROM \(quoteIdentifier(names("application"))) WHERE application_id = $1 LIMIT 1"
            detailColumns =
                tables.contains(names("application_detail"))
                ? ResultAssembly.detailColumns(in: try PostgresCatalogStore.columnNames(of: names("application_detail"), on: connection)) : []
            self.tables = tables
            self.names = names
        } catch let error as CatalogError {
            throw error
        } catch let error as PostgresError {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        } catch {
            throw CatalogError(.failed, detail: "opening the catalog \(target.redacted): \(error)", hint: "")
        }
    }

    /// Whether the catalog has EPF table `table` (under the prefix).
    private func has(_ table: String) -> Bool { tables.contains(names(table)) }

    /// EPF table `table` as SQL names it (prefixed, quoted).
    private func table(_ table: String) -> String { quoteIdentifier(names(table)) }

    // MARK: Questions

    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try StorefrontRequest.resolve(
            country, hasTable: has("storefront"),
            byID: { (id) throws(CatalogError) in
                try storefrontRow("reading storefront \(id)", where: "storefront_id = $1", String(id))
            },
            byCode: { (code) throws(CatalogError) in
                try storefrontRow(
                    "finding country '\(country?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")'",
                    where: "upper(country_code) = $1 ORDER BY storefront_id LIMIT 1", code)
            },
            knownCodes: { () throws(CatalogError) in
                try attempt("listing storefronts") { () throws(PostgresError) -> [String] in
                    try connection.query(
                        "SELECT country_code FROM \(table("storefront")) WHERE country_code IS NOT NULL ORDER BY country_code COLLATE \"C\""
                    ).compactMap { $0[0] }
                }
            })
    }

    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try snapshot { () throws(CatalogError) -> SearchResponse in
            try ResultAssembly.lookup(ids) { (id) throws(CatalogError) in
                try attempt("looking up \(id)") { () throws(PostgresError) in try application(id: id, storefront: storefront, language: language) }
            }
        }
    }

    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try ResultAssembly.checkPage(limit: limit, offset: offset)
        let search = PostgresSearchIndex.tableName(for: names("application"))
        guard tables.contains(search) else { throw ResultAssembly.noSearchIndex(search) }
        let filter = try entityFilter(entity)
        if tokenizer == nil { tokenizer = try SearchTokenizer() }
        guard let words = tokenizer?.queryWords(term), limit > 0 else { return SearchResponse(results: []) }
        let wordQuery = PostgresSearchIndex.query(words, prefix: false)
        // Matches with a prefix that are not whole-word matches, in one
        // tsquery: GIN tells them apart without reading the rows.
        let prefixOnlyQuery = "(\(PostgresSearchIndex.query(words, prefix: true))) & !(\(wordQuery))"
        return try snapshot { () throws(CatalogError) -> SearchResponse in
            guard try attempt("reading the search index", { () throws(PostgresError) in try PostgresSearchIndex.isCurrent(search, on: connection) })
            else {
                throw CatalogError(
                    .incompatible,
                    detail: "the catalog's search index (\(search)) was built by another version of epf",
                    hint: "Import the itunes feed's application table again (epf import --force ...) to rebuild it")
            }
            let ids = try attempt("searching for '\(term)'") { () throws(PostgresError) -> [Int64] in
                try SearchPaging.ids(
                    limit: limit, offset: offset,
                    wordMatches: { (limit, offset) throws(PostgresError) in
                        try matchingIDs(wordQuery, filter, storefront, limit: limit, offset: offset)
                    },
                    wordMatchCount: { () throws(PostgresError) in try matchCount(wordQuery, filter, storefront) },
                    prefixOnlyMatches: { (limit, offset) throws(PostgresError) in
                        try matchingIDs(prefixOnlyQuery, filter, storefront, limit: limit, offset: offset)
                    })
            }
            var results: [SoftwareResult] = []
            for id in ids {
                if let result = try attempt(
                    "searching for '\(term)'", { () throws(PostgresError) in try application(id: id, storefront: storefront, language: language) })
                {
                    results.append(result)
                }
            }
            return SearchResponse(results: results)
        }
    }

    // MARK: Searching

    /// The `AND ...` condition a search adds on the search row `s` for
    /// `entity`'s devices (none without an entity).
    private func entityFilter(_ entity: SoftwareEntity?) throws(CatalogError) -> String {
        guard let entity else { return "" }
        guard has("application_device_type"), has("device_type") else {
            throw CatalogError(
                .notFound,
                detail: "the catalog has no application_device_type and device_type tables to tell \(entity.rawValue) apart",
                hint: "Import the itunes feed's application_device_type and device_type tables, or search without --entity")
        }
        let names = entity.deviceNames.map { "'\($0.lowercased())'" }.joined(separator: ", ")
        return """

            AND EXISTS (SELECT 1 FROM \(table("application_device_type")) AS d JOIN \(table("device_type")) AS t ON t.device_type_id = d.device_type_id
                WHERE d.application_id = s.application_id AND lower(t.name) IN (\(names)))
            """
    }

    /// The search rows matching `query` that pass the filters (sold in
    /// `storefront` when the catalog has prices; `entity`, from
    /// `entityFilter`): `SELECT ... FROM` this. With its parameters.
    private func searchRows(_ query: String, _ entity: String, _ storefront: Storefront) -> (String, [String?]) {
        var parameters: [String?] = [query]
        var sql = "\(quoteIdentifier(PostgresSearchIndex.tableName(for: names("application")))) AS s WHERE s.words @@ $1::tsquery"
        if has("application_price") {
            parameters.append(String(storefront.id))
            sql += """

                AND EXISTS (SELECT 1 FROM \(table("application_price")) AS p WHERE p.application_id = s.application_id AND p.storefront_id = $2)
                """
        }
        return (sql + entity, parameters)
    }

    /// The most matches a search sorts (taking them from the GIN index)
    /// rather than walking the `(sort_key, seq)` btree, for a page ending
    /// at `end`.
    static func sortedMatchesAtMost(pageEnd end: Int) -> Int { max(5_000, 100 * end) }

    /// Apple IDs of the matches of `query`, in search order.
    ///
    /// Two ways, chosen by a probe, because the planner's estimate for a
    /// word it has no statistics on (any rare word) is a guess: walking the
    /// btree in order and stopping after `limit` matches is fast for a word
    /// in many titles and reads the whole table for a word in none; taking
    /// the matches from the GIN index and sorting them is the opposite. The
    /// probe counts the matches through GIN, up to a bound
    /// (`sortedMatchesAtMost`: 100 times the page's end, at least 5,000):
    /// up to it they are sorted; more, and the walk meets a page's matches
    /// early (5,000 matches in 1M titles: one row in 200, so a page of 50
    /// within ~10,000 rows). The choice is made with `SET LOCAL enable_*`
    /// for the one query, reset after.
    private func matchingIDs(_ query: String, _ entity: String, _ storefront: Storefront, limit: Int, offset: Int) throws(PostgresError)
        -> [Int64]
    {
        guard limit > 0 else { return [] }
        let bound = Self.sortedMatchesAtMost(pageEnd: offset + limit)
        let search = quoteIdentifier(PostgresSearchIndex.tableName(for: names("application")))
        defer { _ = try? connection.execute("RESET enable_seqscan; RESET enable_indexscan; RESET enable_bitmapscan") }
        try connection.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off")
        let matches = Int(
            try connection.scalar(
                "SELECT count(*) FROM (SELECT 1 FROM \(search) AS s WHERE s.words @@ $1::tsquery LIMIT \(bound + 1)) AS m", [query]) ?? "0") ?? 0
        guard matches > 0 else { return [] }
        if matches > bound {
            try connection.execute("SET LOCAL enable_indexscan = on; SET LOCAL enable_bitmapscan = off")
        }
        var (rows, parameters) = searchRows(query, entity, storefront)
        parameters += [String(limit), String(offset)]
        return try connection.query(
            "SELECT s.application_id FROM \(rows) ORDER BY s.sort_key, s.seq LIMIT $\(parameters.count - 1) OFFSET $\(parameters.count)",
            parameters
        ).compactMap { $0[0].flatMap { Int64($0) } }
    }

    /// How many rows match `query` and pass the filters.
    private func matchCount(_ query: String, _ entity: String, _ storefront: Storefront) throws(PostgresError) -> Int {
        let (rows, parameters) = searchRows(query, entity, storefront)
        return Int(try connection.scalar("SELECT count(*) FROM \(rows)", parameters) ?? "0") ?? 0
    }

    // MARK: Reading

    /// The first `storefront` row matching `condition` (on `$1` = `value`).
    private func storefrontRow(_ action: String, where condition: String, _ value: String) throws(CatalogError) -> Storefront? {
        try attempt(action) { () throws(PostgresError) -> Storefront? in
            guard let row = try connection.query("SELECT storefront_id, country_code, name FROM \(table("storefront")) WHERE \(condition)", [value]).first
            else { return nil }
            return Storefront(id: row[0].flatMap { Int64($0) } ?? 0, countryCode: row[1], name: row[2])
        }
    }

    /// One application as a result, or nil when the catalog has no such ID.
    private func application(id: Int64, storefront: Storefront, language: Language?) throws(PostgresError) -> SoftwareResult? {
        let key = String(id)
        guard let row = try connection.query(applicationQuery, [key]).first else { return nil }
        var result = SoftwareResult(trackId: id)
        for (column, value) in zip(applicationColumns, row) {
            ResultAssembly.setApplication(column, value, in: &result)
        }
        if has("artist_application") {
            // NULL sorts first, as SQLite sorts it; a NULL artist_id reads as 0 there.
            let rows =
                has("artist")
                ? try connection.query(
                    """
                    SELECT aa.artist_id FROM \(table("artist_application")) AS aa LEFT JOIN \(table("artist")) AS a ON a.artist_id = aa.artist_id
                    WHERE aa.application_id = $1
                    ORDER BY coalesce(a.name = $2, false) DESC, coalesce(a.is_actual_artist, false) DESC, aa.artist_id NULLS FIRST LIMIT 1
                    """, [key, result.artistName])
                : try connection.query(
                    "SELECT artist_id FROM \(table("artist_application")) WHERE application_id = $1 ORDER BY artist_id NULLS FIRST LIMIT 1", [key])
            if let row = rows.first { result.artistId = row[0].flatMap { Int64($0) } ?? 0 }
        }
        if has("genre_application") {
            let withNames = has("genre")
            let rows = try connection.query(
                withNames
                    ? """
                    SELECT ga.genre_id, g.name FROM \(table("genre_application")) AS ga LEFT JOIN \(table("genre")) AS g ON g.genre_id = ga.genre_id
                    WHERE ga.application_id = $1 ORDER BY ga.is_primary DESC NULLS LAST, ga.genre_id NULLS FIRST
                    """
                    : "SELECT genre_id, NULL FROM \(table("genre_application")) WHERE application_id = $1 ORDER BY is_primary DESC NULLS LAST, genre_id NULLS FIRST",
                [key])
            ResultAssembly.addGenres(rows.map { (id: $0[0].flatMap { Int64($0) } ?? 0, name: $0[1]) }, withNames: withNames, to: &result)
        }
        if has("application_price"),
            let row = try connection.query(
                "SELECT retail_price, currency_code FROM \(table("application_price")) WHERE application_id = $1 AND storefront_id = $2 LIMIT 1",
                [key, String(storefront.id)]
            ).first
        {
            ResultAssembly.addPrice(ResultAssembly.price(fromText: row[0]), currency: row[1], to: &result)
        }
        if detailColumns.contains("language_code") {
            // The key's order, as SQLite reads the rows through its key index.
            let rows = try connection.query(
                """
                SELECT \(detailColumns.map { quoteIdentifier($0) }.joined(separator: ", ")) FROM \(table("application_detail"))
                WHERE application_id = $1 ORDER BY language_code COLLATE "C" NULLS FIRST
                """, [key])
            ResultAssembly.addDetail(
                rows.map { row in
                    var values: [String: String] = [:]
                    for (column, text) in zip(detailColumns, row) {
                        if let text, !text.isEmpty { values[column] = text }
                    }
                    return values
                }, language: language, to: &result)
        }
        if has("application_popularity_per_genre") {
            let rows = try connection.query(
                has("genre")
                    ? """
                    SELECT p.genre_id, g.name, p.application_rank FROM \(table("application_popularity_per_genre")) AS p
                    LEFT JOIN \(table("genre")) AS g ON g.genre_id = p.genre_id
                    WHERE p.application_id = $1 AND p.storefront_id = $2 ORDER BY p.application_rank NULLS FIRST, p.genre_id NULLS FIRST
                    """
                    : """
                    SELECT genre_id, NULL, application_rank FROM \(table("application_popularity_per_genre"))
                    WHERE application_id = $1 AND storefront_id = $2 ORDER BY application_rank NULLS FIRST, genre_id NULLS FIRST
                    """, [key, String(storefront.id)])
            let ranks = rows.compactMap { row -> PopularityRank? in
                guard let rank = row[2].flatMap({ Int($0) }) else { return nil }
                return PopularityRank(genreId: String(row[0].flatMap { Int64($0) } ?? 0), genreName: row[1], rank: rank)
            }
            ResultAssembly.addPopularity(ranks, to: &result)
        }
        return result
    }

    /// Runs `body` in one REPEATABLE READ, READ ONLY transaction, so that
    /// every table it reads comes from the same state of the catalog.
    private func snapshot<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        try attempt("starting a read") { () throws(PostgresError) in
            try connection.execute("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        }
        defer { connection.rollback() }
        return try body()
    }

    /// Runs `body`, turning a PostgreSQL error into a `CatalogError` about `action`.
    private func attempt<T>(_ action: String, _ body: () throws(PostgresError) -> T) throws(CatalogError) -> T {
        do {
            return try body()
        } catch {
            var wrapped = CatalogError(error, while: action)
            if error.sqlState != nil && error.sqlState?.hasPrefix("08") != true {
                // The import-side advice does not fit a read.
                wrapped.hint = "The catalog could not answer; check it with `epf tables`, or import again"
            }
            throw wrapped
        }
    }
}
