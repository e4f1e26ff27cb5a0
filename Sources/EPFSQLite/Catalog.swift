import EPFCatalog
/// Answers the questions of Apple's Search and Lookup APIs from a catalog,
/// locally: lookup by Apple ID or product link, search by words in the
/// title, prices in a storefront. Results are `SearchResponse` values that
/// encode to the JSON shape of Apple's responses.
///
/// A catalog imported with `--table-prefix` is read through its prefixed
/// tables (`CatalogTableNames`).
///
/// Opens the catalog read-only: it never creates the file, and changes it
/// only to undo what an interrupted import left
/// (`SQLiteDatabase.openForReading(path:)`), so it answers from the last
/// committed catalog. The tables a result draws on (`application`;
/// `application_price`, `storefront`, `genre`, `genre_application`,
/// `artist`, `artist_application` when imported) are found once, when
/// opening; a table that is absent leaves its fields out of the results.
///
/// Not thread-safe: one `Catalog` (one SQLite connection, its prepared
/// statements) is used from one thread at a time; open one per thread.
///
/// The questions with a country or language as text, and by product
/// links, come from `CatalogQuerying` (as for every store).
public final class Catalog: CatalogQuerying {
    /// The read-only connection.
    public let database: SQLiteDatabase
    /// The tables of the catalog, by name.
    let tables: Set<String>
    /// The names of the EPF tables: the prefix they were imported with.
    public let names: CatalogTableNames
    /// The `application` columns a result reads, those the table has, in
    /// `ApplicationColumns.wanted` order.
    let applicationColumns: [String]
    /// The query of one application's row (built once: a lookup is ~30 µs,
    /// and building SQL text each time showed in profiles).
    let applicationQuery: String
    /// The `application_detail` columns a result reads, in order (empty
    /// without the table).
    let detailColumns: [String]
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens the catalog at `path` read-only. Throws when there is no
    /// catalog there, or when it has no application table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it
    ///   (`CatalogTableNames.resolve`), and throws when the catalog holds
    ///   application tables under several prefixes.
    public init(path: String, tablePrefix: String? = nil) throws(CatalogError) {
        database = try CatalogReader(path: path).database
        do {
            let tables = Set(
                try database.rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')")
                    .compactMap { $0.first?.textValue })
            let names = try CatalogTableNames.resolve(
                given: tablePrefix, tables: tables, columns: database.columnNames(of:), catalog: path)
            guard tables.contains(names("application")) else { throw names.noApplicationTable(in: path) }
            let present = Set(try database.columnNames(of: names("application")))
            applicationColumns = ApplicationColumns.wanted.filter(present.contains)
            applicationQuery =
                "SELECT \((["application_id"] + applicationColumns).map { quoteIdentifier($0) }.joined(separator: ", ")) FROM \(quoteIdentifier(names("application"))) WHERE application_id = ?1"
            detailColumns =
                tables.contains(names("application_detail"))
                ? DetailColumns.wanted(in: try database.columnNames(of: names("application_detail"))) : []
            self.tables = tables
            self.names = names
        } catch let error as CatalogError {
            throw error
        } catch let error as SQLiteError {
            throw CatalogError(error, while: "opening the catalog \(path)")
        } catch {
            throw CatalogError(.failed, detail: "opening the catalog \(path): \(error)", hint: "")
        }
    }

    /// Whether the catalog has EPF table `table` (under the prefix).
    private func has(_ table: String) -> Bool { tables.contains(names(table)) }

    /// EPF table `table` as SQL names it (prefixed, quoted).
    private func table(_ table: String) -> String { quoteIdentifier(names(table)) }

    // MARK: Questions

    /// The applications with these Apple IDs, priced in `storefront` (one
    /// `storefront(for:)` resolved).
    public func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        try snapshot { () throws(CatalogError) -> SearchResponse in
            try ResultAssembly.lookup(ids) { (id) throws(CatalogError) in
                try attempt("looking up \(id)") { () throws(SQLiteError) in try application(id: id, storefront: storefront, language: language) }
            }
        }
    }

    /// `search(term:country:entity:limit:offset:)` in a storefront already
    /// resolved.
    ///
    /// Order: titles holding every word as a whole word come first, then
    /// those that hold some word only as the beginning of a longer one
    /// (`chess` finds `Chess Pro` before `Chessboard`); within each, titles
    /// of fewer words, then shorter ones (`SearchOrder`, which is bm25's
    /// order for titles). When the catalog has prices, only applications
    /// with a price in the storefront are found, as Apple's search finds
    /// only what a storefront sells.
    public func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try ResultAssembly.checkPage(limit: limit, offset: offset)
        let search = SearchIndex.tableName(for: names("application"))
        guard tables.contains(search) else { throw ResultAssembly.noSearchIndex(search) }
        let filter = try searchFilter(entity: entity)
        guard let prefixMatch = SearchQuery.matchExpression(term), let wordMatch = SearchQuery.matchExpression(term, prefix: false),
            limit > 0
        else { return SearchResponse(results: []) }
        return try snapshot { () throws(CatalogError) -> SearchResponse in
            guard try attempt("reading the search index", { () throws(SQLiteError) in try SearchIndex.isCurrent(search, in: database) }) else {
                throw CatalogError(
                    .incompatible,
                    detail: "the catalog's search index (\(search)) was built by an older version of epf",
                    hint: "Import the itunes feed's application table again (epf import --force ...) to rebuild it")
            }
            let ids = try attempt("searching for '\(term)'") { () throws(SQLiteError) -> [Int64] in
                try SearchPaging.ids(
                    limit: limit, offset: offset,
                    wordMatches: { (limit, offset) throws(SQLiteError) in try matchingIDs(wordMatch, filter, storefront, limit: limit, offset: offset) },
                    wordMatchCount: { () throws(SQLiteError) in try matchCount(wordMatch, filter, storefront) },
                    prefixOnlyMatches: { (limit, offset) throws(SQLiteError) in
                        try matchingIDs("(\(prefixMatch)) NOT (\(wordMatch))", filter, storefront, limit: limit, offset: offset)
                    })
            }
            var results: [SoftwareResult] = []
            for id in ids {
                if let result = try attempt(
                    "searching for '\(term)'", { () throws(SQLiteError) in try application(id: id, storefront: storefront, language: language) })
                {
                    results.append(result)
                }
            }
            return SearchResponse(results: results)
        }
    }

    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States.
    ///
    /// Throws a `CatalogError` naming the countries the catalog has when
    /// `country` is not one of them.
    public func storefront(for country: String?) throws(CatalogError) -> Storefront {
        try StorefrontRequest.resolve(
            country, hasTable: has("storefront"), byID: storefrontRow(id:),
            byCode: { (code) throws(CatalogError) in
                try storefrontRow(
                    "finding country '\(country?.trimmingWhitespace ?? "")'", where: "upper(country_code) = ?1 ORDER BY storefront_id LIMIT 1", .text(code))
            },
            knownCodes: { () throws(CatalogError) in
                try attempt("listing storefronts") { () throws(SQLiteError) -> [String] in
                    try database.rows("SELECT country_code FROM \(table("storefront")) WHERE country_code IS NOT NULL ORDER BY country_code")
                        .compactMap { $0.first?.textValue }
                }
            })
    }

    // MARK: Reading

    /// The `storefront` row of `id`, if any.
    private func storefrontRow(id: Int64) throws(CatalogError) -> Storefront? {
        try storefrontRow("reading storefront \(id)", where: "storefront_id = ?1", .integer(id))
    }

    /// The first `storefront` row matching `condition` (on `?1` = `value`).
    private func storefrontRow(_ action: String, where condition: String, _ value: SQLValue) throws(CatalogError) -> Storefront? {
        try attempt(action) { () throws(SQLiteError) -> Storefront? in
            let statement = try prepared("SELECT storefront_id, country_code, name FROM \(table("storefront")) WHERE \(condition)")
            defer { statement.reset() }
            statement.bind([value])
            guard try statement.step() else { return nil }
            return Storefront(id: statement.int64(0), countryCode: statement.string(1), name: statement.string(2))
        }
    }

    /// The search rows matching `match` (an FTS5 expression) that pass
    /// `filter`, joined to `application`: `SELECT ... FROM` this, `WHERE`
    /// the filter. `?1` is the match, `?4` the storefront.
    private func searchJoin(_ filter: String) -> String {
        let search = quoteIdentifier(SearchIndex.tableName(for: names("application")))
        return """
            \(search) AS s CROSS JOIN \(table("application")) AS a ON a.rowid = \(SearchIndex.tableRowid("s.rowid"))
            WHERE s.\(search) MATCH ?1\(filter)
            """
    }

    /// Apple IDs of the matches of `match`, in search order.
    private func matchingIDs(_ match: String, _ filter: String, _ storefront: Storefront, limit: Int, offset: Int) throws(SQLiteError)
        -> [Int64]
    {
        guard limit > 0 else { return [] }
        let statement = try prepared("SELECT a.application_id FROM \(searchJoin(filter)) ORDER BY s.rowid LIMIT ?2 OFFSET ?3")
        defer { statement.reset() }
        statement.bind(match, at: 1)
        statement.bind(Int64(limit), at: 2)
        statement.bind(Int64(offset), at: 3)
        if filter.contains("?4") { statement.bind(storefront.id, at: 4) }
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(0)) }
        return ids
    }

    /// How many rows match `match` and pass `filter`.
    private func matchCount(_ match: String, _ filter: String, _ storefront: Storefront) throws(SQLiteError) -> Int {
        let statement = try prepared("SELECT count(*) FROM \(searchJoin(filter))")
        defer { statement.reset() }
        statement.bind(match, at: 1)
        if filter.contains("?4") { statement.bind(storefront.id, at: 4) }
        return try statement.step() ? Int(statement.int64(0)) : 0
    }

    /// The `AND ...` conditions a search adds: sold in the storefront
    /// (`?4`) when the catalog has prices; made for `entity`'s devices.
    private func searchFilter(entity: SoftwareEntity?) throws(CatalogError) -> String {
        var filter = ""
        if has("application_price") {
            filter += """

                AND EXISTS (SELECT 1 FROM \(table("application_price")) AS p WHERE p.application_id = a.application_id AND p.storefront_id = ?4)
                """
        }
        if let entity {
            guard has("application_device_type"), has("device_type") else {
                throw CatalogError(
                    .notFound,
                    detail: "the catalog has no application_device_type and device_type tables to tell \(entity.rawValue) apart",
                    hint: "Import the itunes feed's application_device_type and device_type tables, or search without --entity")
            }
            let names = entity.deviceNames.map { "'\($0.lowercased())'" }.joined(separator: ", ")
            filter += """

                AND EXISTS (SELECT 1 FROM \(table("application_device_type")) AS d JOIN \(table("device_type")) AS t ON t.device_type_id = d.device_type_id
                    WHERE d.application_id = a.application_id AND lower(t.name) IN (\(names)))
                """
        }
        return filter
    }

    /// One application as a result, or nil when the catalog has no such ID.
    private func application(id: Int64, storefront: Storefront, language: Language?) throws(SQLiteError) -> SoftwareResult? {
        let statement = try prepared(applicationQuery)
        defer { statement.reset() }
        statement.bind(id, at: 1)
        guard try statement.step() else { return nil }
        var result = SoftwareResult(trackId: id)
        for (index, column) in applicationColumns.enumerated() {
            ResultAssembly.setApplication(column, statement.value(index + 1).textValue, in: &result)
        }
        statement.reset()
        try addArtist(to: &result)
        try addGenres(to: &result)
        try addPrice(to: &result, storefront: storefront)
        try addDetail(to: &result, language: language)
        try addPopularity(to: &result, storefront: storefront)
        return result
    }

    /// From `application_detail`: the name, description and release notes
    /// in `language` (when the application has that language), the
    /// developer's site, screenshots, and the languages it has. Without a
    /// language, English for all but the name and description.
    private func addDetail(to result: inout SoftwareResult, language: Language?) throws(SQLiteError) {
        guard detailColumns.contains("language_code") else { return }
        let statement = try prepared(
            "SELECT \(detailColumns.map { quoteIdentifier($0) }.joined(separator: ", ")) FROM \(table("application_detail")) WHERE application_id = ?1")
        defer { statement.reset() }
        statement.bind(result.trackId, at: 1)
        var rows: [[String: String]] = []
        while try statement.step() {
            var values: [String: String] = [:]
            for (index, column) in detailColumns.enumerated() {
                if let text = statement.string(index), !text.isEmpty { values[column] = text }
            }
            rows.append(values)
        }
        ResultAssembly.addDetail(rows, language: language, to: &result)
    }

    /// The application's ranks in the storefront's popularity charts.
    private func addPopularity(to result: inout SoftwareResult, storefront: Storefront) throws(SQLiteError) {
        guard has("application_popularity_per_genre") else { return }
        let statement = try prepared(
            has("genre")
                ? """
                SELECT p.genre_id, g.name, p.application_rank FROM \(table("application_popularity_per_genre")) AS p
                LEFT JOIN \(table("genre")) AS g ON g.genre_id = p.genre_id
                WHERE p.application_id = ?1 AND p.storefront_id = ?2 ORDER BY p.application_rank, p.genre_id
                """
                : """
                SELECT genre_id, NULL, application_rank FROM \(table("application_popularity_per_genre"))
                WHERE application_id = ?1 AND storefront_id = ?2 ORDER BY application_rank, genre_id
                """)
        defer { statement.reset() }
        statement.bind(result.trackId, at: 1)
        statement.bind(storefront.id, at: 2)
        var ranks: [PopularityRank] = []
        while try statement.step() {
            guard case .integer(let rank) = statement.value(2) else { continue }
            ranks.append(PopularityRank(genreId: String(statement.int64(0)), genreName: statement.string(1), rank: Int(rank)))
        }
        ResultAssembly.addPopularity(ranks, to: &result)
    }

    /// `artistId`: the application's artist whose name is its
    /// `artist_name`, else an actual artist, else the smallest ID.
    private func addArtist(to result: inout SoftwareResult) throws(SQLiteError) {
        guard has("artist_application") else { return }
        let statement: SQLiteStatement
        if has("artist") {
            statement = try prepared(
                """
                SELECT aa.artist_id FROM \(table("artist_application")) AS aa LEFT JOIN \(table("artist")) AS a ON a.artist_id = aa.artist_id
                WHERE aa.application_id = ?1
                ORDER BY coalesce(a.name = ?2, 0) DESC, coalesce(a.is_actual_artist, 0) DESC, aa.artist_id LIMIT 1
                """)
            if let name = result.artistName { statement.bind(name, at: 2) } else { statement.bindNull(at: 2) }
        } else {
            statement = try prepared(
                "SELECT artist_id FROM \(table("artist_application")) WHERE application_id = ?1 ORDER BY artist_id LIMIT 1")
        }
        defer { statement.reset() }
        statement.bind(result.trackId, at: 1)
        if try statement.step() { result.artistId = statement.int64(0) }
    }

    /// `genres`, `genreIds`, `primaryGenre*`: primary first, then by ID.
    private func addGenres(to result: inout SoftwareResult) throws(SQLiteError) {
        guard has("genre_application") else { return }
        let withNames = has("genre")
        let statement = try prepared(
            withNames
                ? """
                SELECT ga.genre_id, g.name FROM \(table("genre_application")) AS ga LEFT JOIN \(table("genre")) AS g ON g.genre_id = ga.genre_id
                WHERE ga.application_id = ?1 ORDER BY ga.is_primary DESC, ga.genre_id
                """
                : "SELECT genre_id, NULL FROM \(table("genre_application")) WHERE application_id = ?1 ORDER BY is_primary DESC, genre_id")
        defer { statement.reset() }
        statement.bind(result.trackId, at: 1)
        var rows: [(id: Int64, name: String?)] = []
        while try statement.step() { rows.append((statement.int64(0), statement.string(1))) }
        ResultAssembly.addGenres(rows, withNames: withNames, to: &result)
    }

    /// `price`, `currency`, `formattedPrice` in `storefront`.
    private func addPrice(to result: inout SoftwareResult, storefront: Storefront) throws(SQLiteError) {
        guard has("application_price") else { return }
        let statement = try prepared(
            "SELECT retail_price, currency_code FROM \(table("application_price")) WHERE application_id = ?1 AND storefront_id = ?2")
        defer { statement.reset() }
        statement.bind(result.trackId, at: 1)
        statement.bind(storefront.id, at: 2)
        guard try statement.step() else { return }
        let price: Double?
        switch statement.value(0) {
        case .integer(let number): price = Double(number)
        case .real(let number): price = number
        case .text(let text): price = ResultAssembly.price(fromText: text)
        case .null: price = nil
        }
        ResultAssembly.addPrice(price, currency: statement.string(1), to: &result)
    }

    /// Runs `body` in one read transaction, so that every table it reads
    /// comes from the same state of the catalog: an import that applies
    /// meanwhile (WAL) is seen whole or not at all, never half of a swap.
    private func snapshot<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        guard !database.inTransaction else { return try body() }
        try attempt("starting a read") { () throws(SQLiteError) in try database.execute("BEGIN") }
        defer { database.rollback() }
        return try body()
    }

    /// The prepared statement for `sql`, prepared once per catalog.
    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body`, turning a SQLite error into a `CatalogError` about `action`.
    private func attempt<T>(_ action: String, _ body: () throws(SQLiteError) -> T) throws(CatalogError) -> T {
        do {
            return try body()
        } catch {
            var wrapped = CatalogError(error, while: action)
            if error.code != 11 /* SQLITE_CORRUPT */ && error.code != 26 /* SQLITE_NOTADB */ {
                // The import-side advice does not fit a read.
                wrapped.hint =
                    error.isBusy
                    ? "An import is writing the catalog; ask again when it is done"
                    : "The catalog could not answer; check it with `epf tables`, or import again"
            }
            throw wrapped
        }
    }
}
