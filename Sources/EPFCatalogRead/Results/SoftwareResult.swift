import EPFCatalogCore

/// What a lookup or a search answers, in the shape of the iTunes Search and
/// Lookup APIs: `{"resultCount": N, "results": [...]}`.
public struct SearchResponse: Codable, Sendable, Equatable {
    /// How many results follow.
    public var resultCount: Int
    /// The results, in the order asked for (lookup) or by rank (search).
    public var results: [SoftwareResult]

    /// A response holding `results`.
    @usableFromInline
    package init(results: [SoftwareResult]) {
        self.resultCount = results.count
        self.results = results
    }

    private enum CodingKeys: String, CodingKey {
        case resultCount, results
    }

    /// Decodes a response, Apple's or ours.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([SoftwareResult].self, forKey: .results)
        resultCount = try container.decodeIfPresent(Int.self, forKey: .resultCount) ?? results.count
    }

    /// Encodes `resultCount` first, then `results`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resultCount, forKey: .resultCount)
        try container.encode(results, forKey: .results)
    }
}

/// One application as the iTunes Search/Lookup APIs describe software.
///
/// Fields whose catalog table is absent (no pricing feed imported, no
/// genres, no artists) are nil and left out of the JSON, never an error.
/// The icon URLs and `fileSizeBytes`, which Apple always sends, are `""`
/// when EPF's fields are empty and nothing derives them.
/// Names are Apple's; `genreIds` and `fileSizeBytes` are strings, as Apple
/// sends them. The lists Apple always sends (`screenshotUrls`,
/// `ipadScreenshotUrls`, `languageCodesISO2A`, `supportedDevices`) are
/// empty rather than left out when their table is imported but holds
/// nothing for the application.
public struct SoftwareResult: Codable, Sendable, Equatable {
    /// Always `software`.
    public var wrapperType: String = "software"
    /// Always `software`.
    public var kind: String = "software"
    /// The Apple ID (`application_id`).
    public var trackId: Int64
    /// The title.
    public var trackName: String?
    /// The artist (developer) ID, from `artist_application`.
    public var artistId: Int64?
    /// The artist (developer) name.
    public var artistName: String?
    /// The developer's App Store page (`artist.view_url`), in the
    /// storefront asked for.
    public var artistViewUrl: String?
    /// The seller's name.
    public var sellerName: String?
    /// The App Store page (`view_url`), in the storefront asked for
    /// (`https://apps.apple.com/jp/app/<slug>/id<ID>?uo=4`).
    public var trackViewUrl: String?
    /// The title again: Apple's `trackCensoredName` of an application is
    /// its name (EPF has no censored title).
    public var trackCensoredName: String?
    /// The 60 px icon, derived from the URLs EPF holds (`ArtworkURL`).
    public var artworkUrl60: String?
    /// The 100 px icon (`artwork_url_small`, else derived from
    /// `artwork_url_large`); `""` when EPF holds no icon URL.
    public var artworkUrl100: String?
    /// The 512 px icon (`artwork_url_large`, else derived from
    /// `artwork_url_small`); `""` when EPF holds no icon URL.
    public var artworkUrl512: String?
    /// The price in the storefront asked for, in its currency; written
    /// with two decimals as Apple writes it (`0.00`, `2.99`, `120.00`).
    public var price: Double?
    /// ISO 4217 code of `price`.
    public var currency: String?
    /// `Free`, `$0.99`, `¥120`, ... (see `PriceFormat`).
    public var formattedPrice: String?
    /// The version string.
    public var version: String?
    /// First release, `YYYY-MM-DDTHH:MM:SSZ` as Apple writes it.
    public var releaseDate: String?
    /// The description.
    public var description: String?
    /// Genre names, primary first.
    public var genres: [String]?
    /// Genre IDs as strings, in the order of `genres`.
    public var genreIds: [String]?
    /// The primary genre's name.
    public var primaryGenreName: String?
    /// The primary genre's ID.
    public var primaryGenreId: Int64?
    /// The age rating (`4+`, `12+`).
    public var contentAdvisoryRating: String?
    /// The age rating again: Apple sends `recommended_age` under both keys.
    public var trackContentRating: String?
    /// The download size in bytes, as a string; `""` when EPF's field is
    /// empty (Apple always sends the key).
    public var fileSizeBytes: String?
    /// What is new in this version (`application_detail.release_notes` in
    /// the language asked for).
    public var releaseNotes: String?
    /// The developer's web site (`application_detail.company_url`).
    public var sellerUrl: String?
    /// Screenshots (`application_detail.screenshot_url_N`), in order.
    public var screenshotUrls: [String]?
    /// iPad screenshots (`application_detail.ipad_screenshot_url_N`).
    public var ipadScreenshotUrls: [String]?
    /// The devices it runs on: `device_type.name` of its
    /// `application_device_type` rows (`iPhone`, `iPad`), by device type ID.
    public var supportedDevices: [String]?
    /// The languages `application_detail` has for the application
    /// (`EN`, `JA`, ...), sorted.
    public var languageCodesISO2A: [String]?
    /// Not in Apple's API: the application's ranks in the storefront's
    /// popularity charts (`application_popularity_per_genre`), best first,
    /// when the popularity feed is imported.
    public var popularity: [PopularityRank]?

    /// A result with only its Apple ID set.
    @usableFromInline
    package init(trackId: Int64) {
        self.trackId = trackId
    }
}

/// One place in a popularity chart: the application's rank among the
/// applications of a genre in a storefront (1 is the most popular).
public struct PopularityRank: Codable, Sendable, Equatable {
    /// The genre ID, as a string like Apple's `genreIds`.
    public var genreId: String
    /// The genre's name, when the catalog has the `genre` table.
    public var genreName: String?
    /// The place in the chart, 1 the most popular.
    public var rank: Int

    @usableFromInline
    package init(genreId: String, genreName: String?, rank: Int) {
        self.genreId = genreId
        self.genreName = genreName
        self.rank = rank
    }
}
