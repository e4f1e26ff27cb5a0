/// A Lookup response for apps, as client code of Apple's Lookup API
/// decodes it (the tests decode what `epf lookup` answers with it).
///
/// `AppleLookupResult` is written the way public Swift clients model a
/// Lookup result for an app: PlayCover/PlayCover
/// `PlayCover/Model/ITunesResponse.swift` (`struct ITunesResult`, every
/// key non-optional, `price: Float`, `genreIds: [String]`,
/// `primaryGenreId: Int`, `fileSizeBytes: String`), grouped by type. Here the keys Apple
/// always sends for an app and that EPF holds or that are derived from it
/// (`artworkUrl60`) are non-optional, as there;
/// the keys EPF does not hold (docs/query.md, "not in EPF") are optional,
/// since we never send them, and so are those Apple itself leaves out of
/// some apps (`releaseNotes`, `sellerUrl`: absent from the 2022 US lookup
/// of Contacts in ttpho/ttpho.github.io `_posts/2022-10-14-maestro-ios.md`).
public struct AppleLookupResponse: Decodable, Sendable {
    public var resultCount: Int
    public var results: [AppleLookupResult]
}

public struct AppleLookupResult: Decodable, Sendable {
    // Always sent by Apple, held by EPF: non-optional.
    public var wrapperType, kind, trackName, trackCensoredName, trackViewUrl, artistName, artistViewUrl, sellerName: String
    public var artworkUrl60, artworkUrl100, artworkUrl512, currency, formattedPrice, version, releaseDate, description: String
    public var primaryGenreName, contentAdvisoryRating, trackContentRating, fileSizeBytes: String
    public var trackId, artistId, primaryGenreId: Int
    public var screenshotUrls, ipadScreenshotUrls, supportedDevices, languageCodesISO2A, genres, genreIds: [String]
    public var price: Float
    // Sent by Apple for some apps only.
    public var releaseNotes, sellerUrl: String?
    // Not in EPF: never sent by epf.
    public var bundleId, minimumOsVersion, currentVersionReleaseDate: String?
    public var features, advisories, appletvScreenshotUrls: [String]?
    public var isGameCenterEnabled, isVppDeviceBasedLicensingEnabled: Bool?
    public var averageUserRating: Float?
    public var userRatingCount: Int?
}
