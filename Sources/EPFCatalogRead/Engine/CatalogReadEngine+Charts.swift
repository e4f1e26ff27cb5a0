import EPFCatalogCore
import EPFTextSearch

extension CatalogReadEngine {
    /// The top `kind` chart of genre `genre` in `country`'s storefront, at
    /// most `limit` applications (1 to 200), names in `language` where
    /// they have it, by rank: the popularity
    /// feed's chart of that storefront and genre, the applications that are
    /// free (price 0) or paid (above 0) there. Throws when the catalog has
    /// no charts or no prices, and for an unknown country.
    @usableFromInline
    package func chart(_ kind: ChartKind, inCountry country: String?, genre: Int64, limit: Int, language: Language?) throws(CatalogError)
        -> AppChart
    {
        guard (1...200).contains(limit) else {
            throw CatalogError(.usage, detail: "a chart of \(limit) applications", hint: "Give 1 to 200 (a chart holds 200)")
        }
        for (table, feed) in [(SearchRanking.chartTable, "popularity"), ("application_price", "pricing")]
        where !tables.contains(names(table)) {
            throw CatalogError(
                .notFound, detail: "\(source.displayName) has no \(names(table)) table to make a top chart of",
                hint: "Import the \(feed) feed (epf import, epf sync)")
        }
        let storefront = try storefront(for: country)
        let chart = quoteIdentifier(names(SearchRanking.chartTable))
        let prices = quoteIdentifier(names("application_price"))
        // The application row too: a chart newer than the itunes feed may
        // rank an application the catalog has not got, which a lookup
        // would leave out after the LIMIT, and the chart would fall short.
        let sql = """
            SELECT c.application_id, c.export_date FROM \(chart) AS c
                JOIN \(prices) AS p ON p.application_id = c.application_id AND p.storefront_id = c.storefront_id
                JOIN \(quoteIdentifier(names("application"))) AS a ON a.application_id = c.application_id
            WHERE c.storefront_id = \(source.parameter(1)) AND c.genre_id = \(source.parameter(2)) AND c.application_rank IS NOT NULL
                AND p.retail_price \(kind == .topFree ? "= 0" : "> 0")
            ORDER BY c.application_rank, c.application_id LIMIT \(source.parameter(3))
            """
        return try snapshot { () throws(CatalogError) -> AppChart in
            var ids: [Int64] = []
            var updated: Int64?
            try source.attempt("reading the \(kind.rawValue) chart") { () throws(Source.Failure) in
                var arguments = SQLArguments(.integer(storefront.id), .integer(genre))
                arguments.append(.integer(Int64(limit)))
                try source.forEachRow(sql, arguments) { row in
                    guard let id = row.integer(0) else { return }
                    ids.append(id)
                    if let date = row.integer(1) { updated = max(updated ?? date, date) }
                }
            }
            guard !ids.isEmpty else { return AppChart(kind: kind, storefront: storefront, genreId: genre, updated: nil, results: []) }
            var batch = try source.attempt(Self.lookingUp(ids)) { () throws(Source.Failure) in
                try applications(ids, storefront: .id(storefront.id))
            }
            return AppChart(
                kind: kind, storefront: storefront, genreId: genre, updated: updated,
                results: batch.results(storefront: storefront, queries, language: language))
        }
    }
}
