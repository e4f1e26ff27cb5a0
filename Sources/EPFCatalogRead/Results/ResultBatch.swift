import EPFCatalogCore

/// The results of one request in the making: the rows each related table
/// gave for the request's applications, gathered per application as they
/// arrive (any application's rows may come in any order between
/// applications, in their own order within one), then assembled in the
/// request's order (`results`).
///
/// `CatalogReadEngine.applications` fills it from the set-based queries of
/// `CatalogReadQueries`; what a result is made of is `ResultAssembly`'s.
/// The storefront is needed only at the end (`results`): a lookup may read
/// its row in the same batch.
@usableFromInline
package struct ResultBatch {
    /// The applications asked for, each once, in the request's order.
    @usableFromInline let ids: [Int64]
    /// Where each ID is in `ids` (nil for a single ID: no table to build).
    @usableFromInline let positions: [Int64: Int]?
    /// The application rows found.
    @usableFromInline var found: [SoftwareResult?]
    /// Their price and currency (the catalog has prices: only applications
    /// with a price have a row), written out with the storefront at the end.
    @usableFromInline var prices: [(amount: Double?, currency: String?)?]
    @usableFromInline var artists: [[(id: Int64, viewURL: String?, name: String?)]]
    @usableFromInline var genres: [[(id: Int64, name: String?)]]
    @usableFromInline var details: [[[String: String]]]
    @usableFromInline var devices: [[String]]
    @usableFromInline var ranks: [[PopularityRank]]

    /// A batch for `ids` (distinct).
    @inlinable
    package init(ids: [Int64]) {
        self.ids = ids
        positions = ids.count == 1 ? nil : Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        found = Array(repeating: nil, count: ids.count)
        prices = Array(repeating: nil, count: ids.count)
        artists = Array(repeating: [], count: ids.count)
        genres = Array(repeating: [], count: ids.count)
        details = Array(repeating: [], count: ids.count)
        devices = Array(repeating: [], count: ids.count)
        ranks = Array(repeating: [], count: ids.count)
    }

    /// The place of application `id` in the request; nil for a row of an
    /// application not asked for (none: every query reads the IDs asked).
    @inlinable
    package func position(of id: Int64?) -> Int? {
        guard let id else { return nil }
        guard let positions else { return ids[0] == id ? 0 : nil }
        return positions[id]
    }

    /// The application's own row (and its price), when it is the first
    /// for its ID.
    @inlinable
    package mutating func setApplication(_ result: SoftwareResult, price: (amount: Double?, currency: String?)?, at position: Int) {
        guard found[position] == nil else { return }
        found[position] = result
        prices[position] = price
    }

    /// An artist row, in `CatalogReadQueries.Related.artist`'s order.
    @inlinable
    package mutating func addArtist(id: Int64, viewURL: String?, name: String?, at position: Int) {
        artists[position].append((id, viewURL, name))
    }

    @inlinable
    package mutating func addGenre(id: Int64, name: String?, at position: Int) {
        genres[position].append((id, name))
    }

    @inlinable
    package mutating func addDetail(_ values: [String: String], at position: Int) {
        details[position].append(values)
    }

    @inlinable
    package mutating func addDevice(_ name: String, at position: Int) {
        devices[position].append(name)
    }

    @inlinable
    package mutating func addRank(_ rank: PopularityRank, at position: Int) {
        ranks[position].append(rank)
    }

    /// The results, in the request's order, of the applications found
    /// (and priced in `storefront` when the catalog has prices), each
    /// made of its rows. An application without rows in a table the
    /// catalog has gets empty lists (`"supportedDevices": []`), one of a
    /// catalog without that table none.
    @inlinable
    mutating func results(storefront: Storefront, _ queries: CatalogReadQueries, language: Language?) -> [SoftwareResult] {
        let genresWithNames = queries.genresWithNames
        let hasDetail = queries.has(.detail)
        let hasDevices = queries.has(.devices)
        var results: [SoftwareResult] = []
        results.reserveCapacity(ids.count)
        for position in ids.indices {
            guard var result = found[position].take() else { continue }
            if let price = prices[position] {
                ResultAssembly.addPrice(price.amount, currency: price.currency, storefront: storefront, to: &result)
            }
            if let artist = Self.artist(of: result, among: artists[position]) {
                result.artistId = artist.id
                result.artistViewUrl = artist.viewURL
            }
            ResultAssembly.addGenres(genres[position], withNames: genresWithNames, to: &result)
            if hasDetail {
                ResultAssembly.addDetail(details[position], language: language, to: &result)
                result.screenshotUrls = result.screenshotUrls ?? []
                result.ipadScreenshotUrls = result.ipadScreenshotUrls ?? []
                result.languageCodesISO2A = result.languageCodesISO2A ?? []
            }
            if hasDevices { result.supportedDevices = devices[position] }
            ResultAssembly.addPopularity(ranks[position], to: &result)
            ResultAssembly.finish(&result, storefront: storefront)
            results.append(result)
        }
        return results
    }

    /// The application's artist: the first whose name is the one the
    /// application gives (`artistName`), compared byte by byte as SQL's
    /// `=` compares text, else the first.
    @inlinable
    static func artist(of result: SoftwareResult, among rows: [(id: Int64, viewURL: String?, name: String?)])
        -> (id: Int64, viewURL: String?)?
    {
        guard let first = rows.first else { return nil }
        if let named = result.artistName,
            let match = rows.first(where: { row in row.name.map { $0.utf8.elementsEqual(named.utf8) } ?? false })
        {
            return (match.id, match.viewURL)
        }
        return (first.id, first.viewURL)
    }
}

/// How a request's rows find their storefront (`CatalogReadEngine.applications`).
@usableFromInline
enum StorefrontKey: Sendable {
    /// By its ID.
    case id(Int64)
    /// By its alpha-3 code, upper case, as `storefront(for:)` finds it.
    case code(String)
}
