import EPFCatalogCore
import EPFTextSearch

/// Answers the questions of Apple's Search and Lookup APIs from a catalog,
/// whatever backend holds it: lookup by Apple ID or product link, search
/// by words in the title, prices in a storefront. Results are
/// `SearchResponse` values that encode to the JSON shape of Apple's
/// responses. `Catalog` (SQLite) and `PostgresCatalog`, the public read
/// API, each hold this engine over their backend's `CatalogReadSource`.
///
/// The engine is the algorithm, written once: which rows a result draws on
/// and in which order (`CatalogReadQueries`, `CatalogSearchQueries`), how
/// a result is made of them (`ResultAssembly`), the country a user types
/// (`StorefrontRequest`), every message; the pages of a search in the order
/// EPFTextSearch says (`SearchRanking`, `SearchPaging`). A source gives SQL spelling and
/// runs queries. The hot paths are `@inlinable` (package), and what they
/// use `@usableFromInline`, so that the engine is specialized for its
/// source in the backend's module (`Catalog` in EPFSQLiteReader): no dynamic
/// dispatch per row.
///
/// A catalog imported with `--table-prefix` is read through its prefixed
/// tables (`CatalogTableNames`). The tables a result draws on
/// (`application`; `application_price`, `storefront`, `genre`,
/// `genre_application`, `artist`, `artist_application`,
/// `application_detail`, `application_device_type` with `device_type`,
/// `application_popularity_per_genre` when imported) are found once, when opening; a table that is absent leaves
/// its fields out of the results.
///
/// A request costs a fixed number of statements, whatever its number of
/// IDs or results: each related table is read once for all of a request's
/// applications (`applications`), as one batch, which PostgreSQL sends in
/// one round trip. A lookup of 50 IDs costs what a lookup of one costs;
/// a search costs its page's statements more.
///
/// Each lookup or search reads one snapshot (`CatalogReadSource.
/// beginSnapshot`): an import that applies meanwhile is seen whole or not
/// at all, never half of a swap. Never writes.
///
/// Not thread-safe: one engine (one connection, its prepared statements)
/// is used from one thread at a time; open one per thread.
@usableFromInline
package final class CatalogReadEngine<Source: CatalogReadSource>: CatalogReader {
    /// The backend: its connection and SQL spelling.
    @usableFromInline
    package let source: Source
    /// The names of the EPF tables: the prefix they were imported with.
    @usableFromInline
    package let names: CatalogTableNames
    /// The tables (and views) of the catalog, by name.
    @usableFromInline let tables: Set<String>
    /// The SQL of a lookup's rows.
    @usableFromInline let queries: CatalogReadQueries
    /// The storefronts the catalog was imported with (`epf import
    /// --storefront`); nil: every storefront.
    let storefronts: StorefrontSet?

    /// Opens the catalog `source` reads. Throws when it has no application
    /// table.
    ///
    /// - Parameter tablePrefix: the prefix the catalog's tables were
    ///   imported with (`epf import --table-prefix`); nil finds it
    ///   (`CatalogTableNames.resolve`), and throws when the catalog holds
    ///   application tables under several prefixes.
    package init(source: Source, tablePrefix: String? = nil) throws(CatalogError) {
        self.source = source
        let catalog = source.displayName
        let action = "opening the catalog \(catalog)"
        let tables = try source.attempt(action) { () throws(Source.Failure) in try source.relations() }
        let names: CatalogTableNames
        do {
            names = try CatalogTableNames.resolve(given: tablePrefix, tables: tables, columns: source.columnNames(of:), catalog: catalog)
        } catch let error as CatalogError {
            throw error
        } catch let error as Source.Failure {
            throw source.readError(error, while: action)
        } catch {
            throw CatalogError(.failed, detail: "\(action): \(error)", hint: "")
        }
        guard tables.contains(names("application")) else { throw names.noApplicationTable(in: catalog, tables: tables) }
        let (applicationColumns, detailColumns, artistHasViewURL) = try source.attempt(action) { () throws(Source.Failure) in
            let present = Set(try source.columnNames(of: names("application")))
            let detail =
                tables.contains(names("application_detail"))
                ? DetailColumns.wanted(in: try source.columnNames(of: names("application_detail"))) : []
            let artistViewURL = tables.contains(names("artist")) ? try source.columnNames(of: names("artist")).contains("view_url") : false
            return (ApplicationColumns.wanted.filter(present.contains), detail, artistViewURL)
        }
        storefronts = try source.attempt(action) { () throws(Source.Failure) in try source.storefrontSet(tables: tables) }
        self.tables = tables
        self.names = names
        queries = CatalogReadQueries(
            source, names: names, tables: tables, applicationColumns: applicationColumns, detailColumns: detailColumns,
            artistHasViewURL: artistHasViewURL)
    }

    // MARK: Questions

    /// The applications with these Apple IDs, priced in `storefront` (one
    /// `storefront(for:)` resolved): one statement per related table,
    /// whatever the number of IDs (`applications`).
    @inlinable
    package func lookup(ids: [Int64], in storefront: Storefront, language: Language? = nil) throws(CatalogError) -> SearchResponse {
        let distinct = ResultAssembly.distinct(ids)
        guard !distinct.isEmpty else { return SearchResponse(results: []) }
        return try snapshot { () throws(CatalogError) -> SearchResponse in
            var batch = try source.attempt(Self.lookingUp(distinct)) { () throws(Source.Failure) in
                try applications(distinct, storefront: .id(storefront.id))
            }
            return SearchResponse(results: batch.results(storefront: storefront, queries, language: language))
        }
    }

    /// `storefront(for: country)` and `lookup(ids:in:language:)` at once,
    /// in one snapshot: the storefront's row is read in the same batch as
    /// the applications' (one round trip on PostgreSQL), the queries that
    /// need its ID finding it themselves when `country` is a code. Throws
    /// what those two throw.
    @inlinable
    package func lookup(ids: [Int64], inCountry country: String?, language: Language?) throws(CatalogError) -> SearchResponse {
        let distinct = ResultAssembly.distinct(ids)
        guard let (key, row) = storefrontKey(country) else {
            // Refused before anything is read: `storefront(for:)` says why.
            return try lookup(ids: ids, in: try storefront(for: country), language: language)
        }
        guard !distinct.isEmpty else {
            _ = try storefront(for: country)
            return SearchResponse(results: [])
        }
        return try snapshot { () throws(CatalogError) -> SearchResponse in
            var found: Storefront?
            var batch = try source.attempt(Self.lookingUp(distinct)) { () throws(Source.Failure) in
                try applications(distinct, storefront: key, with: row) { row in found = Self.storefront(row) }
            }
            let storefront = try resolve(country, found: found)
            return SearchResponse(results: batch.results(storefront: storefront, queries, language: language))
        }
    }

    /// How the rows of a question in `country`'s storefront find it, and
    /// the query of its own row; nil when `country` is refused before
    /// anything is read (`storefront(for:)` says why).
    @inlinable
    func storefrontKey(_ country: String?) -> (StorefrontKey, ReadQuery?)? {
        switch StorefrontRequest(country) {
        case .unitedStates:
            return (
                .id(Storefront.unitedStatesID),
                queries.storefrontByID.map { ReadQuery(sql: $0, arguments: SQLArguments(.integer(Storefront.unitedStatesID))) }
            )
        case .storefrontID(let id):
            return (.id(id), queries.storefrontByID.map { ReadQuery(sql: $0, arguments: SQLArguments(.integer(id))) })
        case .countryCode(let code) where queries.storefrontByCode != nil:
            return (.code(code), queries.storefrontByCode.map { ReadQuery(sql: $0, arguments: SQLArguments(.text(code))) })
        case .countryCode("USA"):
            return (.id(Storefront.unitedStatesID), nil)
        case .countryCode, .unknown:
            return nil
        }
    }

    /// A `storefront` row (`storefront_id`, `country_code`, `name`).
    @inlinable
    static func storefront(_ row: Source.Row) -> Storefront {
        Storefront(id: row.integer(0) ?? 0, countryCode: row.text(1), name: row.text(2))
    }

    /// The row `row` reads, on its own; nil without a query.
    @usableFromInline
    func storefrontRow(_ row: ReadQuery?) throws(CatalogError) -> Storefront? {
        guard let row else { return nil }
        return try source.attempt("reading the storefront") { () throws(Source.Failure) -> Storefront? in
            var found: Storefront?
            try source.forEachRow(row.sql, row.arguments) { found = found ?? Self.storefront($0) }
            return found
        }
    }

    /// What a failed lookup was doing, for its message.
    @usableFromInline
    static func lookingUp(_ ids: [Int64]) -> String {
        ids.count == 1 ? "looking up \(ids[0])" : "looking up \(ids.count) applications"
    }

    /// `search(term:country:entity:limit:offset:)` in a storefront already
    /// resolved: the page's Apple IDs first, then one statement per
    /// related table for all of them (`applications`).
    ///
    /// Order: the applications of the storefront's chart first, by rank
    /// (`SearchRanking`); then titles holding every word as a whole word,
    /// then those that hold some word only as the beginning of a longer one
    /// (`chess` finds `Chess Pro` before `Chessboard`); within each, titles
    /// of fewer words, then shorter ones (`SearchOrder`, which is bm25's
    /// order for titles). When the catalog has prices, only applications
    /// with a price in the storefront are found, as Apple's search finds
    /// only what a storefront sells.
    ///
    /// A page reads the index only when it is of this version of epf (the
    /// page's SQL says so, `CatalogSearchQueries`): a page that finds
    /// nothing, or fails, asks why before it answers.
    @inlinable
    package func search(
        term: String, in storefront: Storefront, language: Language? = nil, entity: SoftwareEntity? = nil, limit: Int = 50,
        offset: Int = 0
    ) throws(CatalogError) -> SearchResponse {
        try search(term: term, storefront: .id(storefront.id), language: language, entity: entity, limit: limit, offset: offset, with: nil)
        {
            _ throws(CatalogError) in storefront
        }
    }

    /// `storefront(for: country)` and `search(term:in:...)` at once, in one
    /// snapshot: the page finds the storefront's ID itself when `country` is
    /// a code, and its row is read with the results' (one round trip less
    /// on PostgreSQL). Throws what those two throw, the storefront's refusal
    /// first.
    @inlinable
    package func search(
        term: String, inCountry country: String?, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int
    ) throws(CatalogError) -> SearchResponse {
        guard let (key, row) = storefrontKey(country) else {
            // Refused before anything is read: `storefront(for:)` says why.
            return try search(
                term: term, in: try storefront(for: country), language: language, entity: entity, limit: limit, offset: offset)
        }
        do throws(CatalogError) {
            return try search(term: term, storefront: key, language: language, entity: entity, limit: limit, offset: offset, with: row) {
                (found) throws(CatalogError) in try resolve(country, found: found)
            }
        } catch let error where !error.refusesStorefront {
            // What the country gets wrong comes first, as when the two are
            // asked apart (a negative limit, a search index of another
            // version: the storefront is asked for on its own).
            _ = try storefront(for: country)
            throw error
        }
    }

    /// A search in the storefront `storefront` finds, its row read by
    /// `row` (if any) in the last batch and made the storefront by
    /// `resolve`.
    @inlinable
    func search(
        term: String, storefront: StorefrontKey, language: Language?, entity: SoftwareEntity?, limit: Int, offset: Int,
        with row: ReadQuery?,
        resolve: (Storefront?) throws(CatalogError) -> Storefront
    ) throws(CatalogError) -> SearchResponse {
        try ResultAssembly.checkPage(limit: limit, offset: offset)
        let index = SearchIndex.tableName(for: names("application"))
        guard tables.contains(index) else { throw ResultAssembly.noSearchIndex(index) }
        let byCode: Bool
        let storefrontValue: SQLValue
        switch storefront {
        case .id(let id): (byCode, storefrontValue) = (false, .integer(id))
        case .code(let code): (byCode, storefrontValue) = (true, .text(code))
        }
        let queries = try CatalogSearchQueries(source, index: index, names: names, tables: tables, entity: entity, storefrontByCode: byCode)
        // NUL is no token character, and would end FTS5's query text early
        // ("unterminated string"): it separates words, as a space does.
        let words = String(String.UnicodeScalarView(term.unicodeScalars.map { $0 == "\u{0}" ? " " : $0 }))
        guard let match = try source.searchMatch(words), limit > 0 else {
            _ = try resolve(try storefrontRow(row))
            return SearchResponse(results: [])
        }
        return try snapshot { () throws(CatalogError) -> SearchResponse in
            let ids: [Int64]
            do throws(Source.Failure) {
                let ranked = try rankedMatches(queries, match.tokens, storefrontValue)
                ids = try SearchRanking.ids(ranked: ranked, limit: limit, offset: offset) { (limit, offset) throws(Source.Failure) in
                    try SearchPaging.ids(
                        limit: limit, offset: offset,
                        wordMatches: { (limit, offset) throws(Source.Failure) in
                            try matchingIDs(queries, index: index, match.words, storefrontValue, limit: limit, offset: offset)
                        },
                        wordMatchCount: { () throws(Source.Failure) in try matchCount(queries, match.words, storefrontValue) },
                        prefixOnlyMatches: { (limit, offset) throws(Source.Failure) in
                            try matchingIDs(queries, index: index, match.prefixOnly, storefrontValue, limit: limit, offset: offset)
                        })
                }
            } catch {
                // Inside the snapshot, a failed statement may have ended it
                // (PostgreSQL's pipeline): ask about the index after it.
                source.endSnapshot()
                _ = try checkSearchIndex(queries, index, with: row)
                throw source.readError(error, while: "searching for '\(term)'")
            }
            guard !ids.isEmpty else {
                let found = try checkSearchIndex(queries, index, with: row)
                _ = try resolve(found)
                return SearchResponse(results: [])
            }
            var found: Storefront?
            var batch = try source.attempt("searching for '\(term)'") { () throws(Source.Failure) in
                try applications(ids, storefront: storefront, with: row) { row in found = Self.storefront(row) }
            }
            return SearchResponse(results: batch.results(storefront: try resolve(found), self.queries, language: language))
        }
    }

    /// How many applications `search(term:in:entity:...)` finds in all,
    /// whole-word and prefix-only matches together: what a user whose
    /// `offset` is past them is told.
    @inlinable
    package func searchCount(term: String, in storefront: Storefront, entity: SoftwareEntity?) throws(CatalogError) -> Int {
        let index = SearchIndex.tableName(for: names("application"))
        guard tables.contains(index) else { throw ResultAssembly.noSearchIndex(index) }
        let queries = try CatalogSearchQueries(source, index: index, names: names, tables: tables, entity: entity)
        let words = String(String.UnicodeScalarView(term.unicodeScalars.map { $0 == "\u{0}" ? " " : $0 }))
        guard let match = try source.searchMatch(words) else { return 0 }
        return try snapshot { () throws(CatalogError) -> Int in
            try source.attempt("counting the matches of '\(term)'") { () throws(Source.Failure) -> Int in
                let storefront = SQLValue.integer(storefront.id)
                return try rankedMatches(queries, match.tokens, storefront).count + matchCount(queries, match.words, storefront)
                    + matchCount(queries, match.prefixOnly, storefront)
            }
        }
    }

    /// When the newest file the journal lists as applied was imported
    /// (`YYYY-MM-DD HH:MM:SS`, UTC); nil before any import. Throws when
    /// the catalog cannot be read, or is no longer where it was opened
    /// (`CatalogReadSource.isStillThere`): what `/health` asks.
    @usableFromInline
    package func lastImportTime() throws(CatalogError) -> String? {
        guard source.isStillThere else {
            throw CatalogError(
                .notFound, detail: "\(source.displayName): the catalog was removed or replaced since it was opened",
                hint: "Open it again (restart the server), or import into it")
        }
        guard tables.contains(CatalogTables.journal) else { return nil }
        return try source.attempt("reading the import journal") { () throws(Source.Failure) -> String? in
            var started: String?
            try source.forEachRow(
                "SELECT started_at FROM \(quoteIdentifier(CatalogTables.journal)) WHERE status = 'applied' ORDER BY id DESC LIMIT 1",
                SQLArguments()
            ) { row in started = row.text(0) }
            return started
        }
    }

    /// The storefront `country` names: ISO 3166 alpha-2 (`US`, `jp`),
    /// alpha-3 (`USA`) or a storefront ID (`143441`), mapped through the
    /// catalog's `storefront` table; nil means the United States.
    ///
    /// Throws a `CatalogError` naming the countries the catalog has when
    /// `country` is not one of them (`.usage`), and one naming the
    /// storefronts imported when the catalog was imported without this one
    /// (`.notFound`, `StorefrontSet.notImported`).
    @usableFromInline
    package func storefront(for country: String?) throws(CatalogError) -> Storefront {
        let storefront = try StorefrontRequest.resolve(
            country, hasTable: queries.storefrontByID != nil,
            byID: { (id) throws(CatalogError) in
                try storefrontRow("reading storefront \(id)", queries.storefrontByID, .integer(id))
            },
            byCode: { (code) throws(CatalogError) in
                try storefrontRow("finding country '\(country?.trimmingWhitespace ?? "")'", queries.storefrontByCode, .text(code))
            },
            knownCodes: { () throws(CatalogError) in try knownCountryCodes() })
        if let storefronts, !storefronts.ids.contains(storefront.id) { throw storefronts.notImported(storefront) }
        return storefront
    }

    /// The storefront `country` names, given the row its query `found` (the
    /// query `lookup(ids:inCountry:language:)` read with the rows): what
    /// `storefront(for:)` answers or throws for it.
    @usableFromInline
    func resolve(_ country: String?, found: Storefront?) throws(CatalogError) -> Storefront {
        let storefront = try StorefrontRequest.resolve(
            country, hasTable: queries.storefrontByID != nil, byID: { _ in found }, byCode: { _ in found },
            knownCodes: { () throws(CatalogError) in try knownCountryCodes() })
        if let storefronts, !storefronts.ids.contains(storefront.id) { throw storefronts.notImported(storefront) }
        return storefront
    }

    /// Every country code of the catalog's `storefront` table, bytewise.
    func knownCountryCodes() throws(CatalogError) -> [String] {
        try source.attempt("listing storefronts") { () throws(Source.Failure) -> [String] in
            var codes: [String] = []
            if let sql = queries.countryCodes {
                try source.forEachRow(sql, SQLArguments()) { row in
                    if let code = row.text(0) { codes.append(code) }
                }
            }
            return codes
        }
    }

    // MARK: Searching

    /// Apple IDs of the matches of `match`, in search order.
    @inlinable
    func matchingIDs(_ queries: CatalogSearchQueries, index: String, _ match: String, _ storefront: SQLValue, limit: Int, offset: Int)
        throws(Source.Failure) -> [Int64]
    {
        guard limit > 0 else { return [] }
        var arguments = SQLArguments(.text(match))
        if queries.byStorefront { arguments.append(storefront) }
        arguments.append(.integer(Int64(limit)))
        arguments.append(.integer(Int64(offset)))
        // Saturating: an offset near Int.max (`/search?offset=9223372036854775806`)
        // must find nothing, not trap.
        let (pageEnd, overflow) = offset.addingReportingOverflow(limit)
        return try source.searchPage(index: index, match: match, pageEnd: overflow ? .max : pageEnd) {
            (plan) throws(Source.Failure) -> [Int64] in
            var ids: [Int64] = []
            try source.forEachRow(queries.page(plan), arguments) { row in
                if let id = row.integer(0) { ids.append(id) }
            }
            return ids
        }
    }

    /// Throws `.incompatible` when the search table `index` was not built
    /// by this version of epf; else the storefront `row` reads (if any) in
    /// the same batch, which ends the snapshot.
    @inlinable
    func checkSearchIndex(_ queries: CatalogSearchQueries, _ index: String, with row: ReadQuery?) throws(CatalogError) -> Storefront? {
        var current = false
        var found: Storefront?
        var batch = [ReadQuery(sql: queries.indexIsCurrent, arguments: SQLArguments())]
        if let row { batch.append(row) }
        try source.attempt("reading the search index") { () throws(Source.Failure) in
            try source.forEachRow(batch, endingSnapshot: true) { query, row in
                if query == 0 { current = row.integer(0) == 1 } else if found == nil { found = Self.storefront(row) }
            }
        }
        guard current else {
            throw CatalogError(
                .incompatible,
                detail: "the catalog's search index (\(index)) was built by an older version of epf",
                hint: "Import the itunes feed's application table again (epf import --force ...) to rebuild it")
        }
        return found
    }

    /// The Apple IDs of the storefront's chart whose titles hold `words`
    /// and that pass the filters, by rank (`SearchRanking`); none when the
    /// catalog has no charts.
    @inlinable
    func rankedMatches(_ queries: CatalogSearchQueries, _ words: SearchWords, _ storefront: SQLValue) throws(Source.Failure) -> [Int64] {
        guard let sql = queries.rankedCandidates else { return [] }
        var ids: [Int64] = []
        try source.forEachRow(sql, SQLArguments(storefront)) { row in
            if let id = row.integer(0), let title = row.text(1), words.match(source.searchTokens(title)) { ids.append(id) }
        }
        return ids
    }

    /// How many rows match `match` and pass the filters.
    @inlinable
    func matchCount(_ queries: CatalogSearchQueries, _ match: String, _ storefront: SQLValue) throws(Source.Failure) -> Int {
        var arguments = SQLArguments(.text(match))
        if queries.byStorefront { arguments.append(storefront) }
        var count = 0
        try source.forEachRow(queries.count, arguments) { row in count = Int(row.integer(0) ?? 0) }
        return count
    }

    // MARK: Reading

    /// The `storefront` row `sql` finds for `value`, if any.
    func storefrontRow(_ action: @autoclosure () -> String, _ sql: String?, _ value: SQLValue) throws(CatalogError) -> Storefront? {
        guard let sql else { return nil }
        return try source.attempt(action()) { () throws(Source.Failure) -> Storefront? in
            var found: Storefront?
            try source.forEachRow(sql, SQLArguments(value)) { row in
                if found == nil { found = Storefront(id: row.integer(0) ?? 0, countryCode: row.text(1), name: row.text(2)) }
            }
            return found
        }
    }

    /// The rows of the applications `ids` (distinct), each related table
    /// read once for all of them in one batch (one round trip on
    /// PostgreSQL, which ends the snapshot with it), in the storefront
    /// `storefront` finds; `first`, a query read first in the same batch,
    /// its rows to `firstRow`. `ResultBatch.results` makes the results: an
    /// ID the catalog does not have, or, with prices imported, has no price
    /// for in the storefront, is left out (as Apple's Lookup leaves out
    /// what a storefront does not sell).
    @inlinable
    func applications(
        _ ids: [Int64], storefront: StorefrontKey, with first: ReadQuery? = nil, _ firstRow: (Source.Row) -> Void = { _ in }
    ) throws(Source.Failure) -> ResultBatch {
        let one = ids.count == 1
        let idList = one ? SQLValue.integer(ids[0]) : source.idListValue(ids)
        let storefrontValue: SQLValue
        let related: [CatalogReadQueries.RelatedQuery]
        switch storefront {
        case .id(let id):
            storefrontValue = .integer(id)
            related = queries.related(one: one, byCode: false)
        case .code(let code):
            storefrontValue = .text(code)
            related = queries.related(one: one, byCode: true)
        }
        var batch: [ReadQuery] = []
        batch.reserveCapacity(related.count + 1)
        if let first { batch.append(first) }
        let offset = batch.count
        for query in related {
            batch.append(
                ReadQuery(sql: query.sql, arguments: query.byStorefront ? SQLArguments(idList, storefrontValue) : SQLArguments(idList)))
        }
        var rows = ResultBatch(ids: ids)
        try source.forEachRow(batch, endingSnapshot: true) { index, row in
            guard index >= offset else { return firstRow(row) }
            guard let position = rows.position(of: row.integer(0)) else { return }
            switch related[index - offset].table {
            case .application:
                var result = SoftwareResult(trackId: ids[position])
                for (column, name) in queries.applicationColumns.enumerated() {
                    ResultAssembly.setApplication(name, row.text(column + 1), in: &result)
                }
                let priceColumn = queries.applicationColumns.count + 1
                rows.setApplication(
                    result, price: queries.withPrices ? (row.number(priceColumn), row.text(priceColumn + 1)) : nil, at: position)
            case .artist:
                rows.addArtist(id: row.integer(1) ?? 0, viewURL: row.text(2), name: row.text(3), at: position)
            case .genres:
                rows.addGenre(id: row.integer(1) ?? 0, name: row.text(2), at: position)
            case .detail:
                var values: [String: String] = [:]
                for (column, name) in queries.detailColumns.enumerated() {
                    if let text = row.text(column + 1), !text.isEmpty { values[name] = text }
                }
                rows.addDetail(values, at: position)
            case .devices:
                if let name = row.text(1) { rows.addDevice(name, at: position) }
            case .popularity:
                guard let rank = row.integer(3) else { return }
                rows.addRank(PopularityRank(genreId: String(row.integer(1) ?? 0), genreName: row.text(2), rank: Int(rank)), at: position)
            }
        }
        return rows
    }

    /// Runs `body` in one snapshot (`CatalogReadSource.beginSnapshot`), so
    /// that every table it reads comes from the same state of the catalog
    /// (inside the transaction the caller has open, if any).
    @inlinable
    func snapshot<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        try source.attempt("starting a read") { () throws(Source.Failure) in try source.beginSnapshot() }
        defer { source.endSnapshot() }
        return try body()
    }
}
