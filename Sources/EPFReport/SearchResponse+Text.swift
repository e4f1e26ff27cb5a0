import EPFCatalogRead

extension SearchResponse {
    /// `epf lookup` and `epf search`: JSON in the iTunes Search/Lookup
    /// shape, or one row per result as a table or CSV.
    package func rendered(as format: OutputFormat) -> String {
        guard format != .json else { return String(decoding: jsonBytes(), as: UTF8.self) + "\n" }
        let columns = ["trackId", "trackName", "artistName", "formattedPrice", "version", "primaryGenreName"]
        let rows: [[SQLValue]] = results.map { result in
            [.integer(result.trackId)]
                + [result.trackName, result.artistName, result.formattedPrice, result.version, result.primaryGenreName].map {
                    $0.map(SQLValue.text) ?? .null
                }
        }
        return TabularOutput(columns: columns, rows: rows).render(format)
    }
}

extension SearchResponse {
    /// The IDs of `ids` a lookup did not answer, each once, in order.
    package func missing(_ ids: [Int64]) -> [Int64] {
        var seen = Set(results.map(\.trackId))
        return ids.filter { seen.insert($0).inserted }
    }
}

extension CatalogReader {
    /// Why a search of `term` found nothing: no match, or an `offset` past
    /// them all (said with how many there are).
    package func whyNothingFound(term: String, offset: Int, in storefront: Storefront, entity: SoftwareEntity?) -> String {
        guard offset > 0, let total = try? searchCount(term: term, in: storefront, entity: entity), total > 0 else {
            return "no application matches '\(term)'"
        }
        return
            "\(total) application\(total == 1 ? "" : "s") match '\(term)'; --offset \(offset) is past them (give --offset \(total - 1) or less)"
    }
}

extension AppChart {
    /// `epf charts`: the JSON of Apple's RSS feed generator (its `id` the
    /// path epf-server serves the chart at), or one row per application,
    /// by rank, as a table or CSV.
    package func rendered(as format: OutputFormat, limit: Int) -> String {
        let genrePath = genreId == AppChart.overallGenre ? "apps.json" : "genre/\(genreId).json"
        let path = "/api/v2/\(countryCode.isEmpty ? String(storefront.id) : countryCode)/apps/\(kind.rawValue)/\(limit)/\(genrePath)"
        guard format != .json else { return String(decoding: jsonBytes(feedURL: path), as: UTF8.self) + "\n" }
        let rows: [[SQLValue]] = results.enumerated().map { rank, result in
            [.integer(Int64(rank + 1)), .integer(result.trackId)]
                + [result.trackName, result.artistName, result.formattedPrice, result.primaryGenreName].map {
                    $0.map(SQLValue.text) ?? .null
                }
        }
        return TabularOutput(columns: ["rank", "trackId", "trackName", "artistName", "formattedPrice", "primaryGenreName"], rows: rows)
            .render(format)
    }
}
