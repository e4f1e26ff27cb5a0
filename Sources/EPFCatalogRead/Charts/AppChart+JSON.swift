import EPFCatalogCore
import Foundation

extension AppChart {
    /// The storefront's ISO 3166 alpha-2 code, lower case as Apple's feed
    /// writes it (`us`); empty for a storefront ID no code is known for.
    package var countryCode: String {
        (CountryCode.alpha2(forStorefront: storefront.id) ?? storefront.countryCode.flatMap(CountryCode.alpha2(forAlpha3:)) ?? "")
            .lowercased()
    }

    /// The chart as Apple's RSS feed generator writes one
    /// (`/api/v2/us/apps/top-free/10/apps.json`): `{"feed": {"title",
    /// "id", "author", "links", "copyright", "country", "icon", "updated",
    /// "results": [...]}}`, each result with `artistName`, `id` (a
    /// string), `name`, `releaseDate` (`YYYY-MM-DD`), `kind` (`apps`),
    /// `artistId`, `artistUrl`, `artworkUrl100`, `genres` and `url`, in
    /// Apple's order. `feedURL` is the address the chart was asked at (the
    /// feed's `id` and `self` link). `updated` is the popularity feed's day
    /// (now, for an empty chart). A value the catalog lacks is an empty
    /// string, so that clients that read every field as a string decode it.
    public func jsonBytes(feedURL: String, now: Date = Date()) -> [UInt8] {
        let updated = updated ?? Int64(now.timeIntervalSince1970 * 1000)
        let date = Timestamp.rfc2822(fromEpochMilliseconds: updated)
        let year = Timestamp.string(fromEpochMilliseconds: updated).prefix(4)
        let country = countryCode
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(1024 + results.count * 600)
        writer.raw("{\"feed\":{\"title\":")
        writer.string(kind.title)
        writer.raw(",\"id\":")
        writer.string(feedURL)
        writer.raw(",\"author\":{\"name\":\"Apple\",\"url\":\"https://www.apple.com/\"},\"links\":[{\"self\":")
        writer.string(feedURL)
        writer.raw("}],\"copyright\":")
        writer.string("Copyright © \(year) Apple Inc. All rights reserved.")
        writer.raw(",\"country\":")
        writer.string(country)
        writer.raw(",\"icon\":\"https://www.apple.com/favicon.ico\",\"updated\":")
        writer.string(date)
        writer.raw(",\"results\":[")
        for (index, result) in results.enumerated() {
            writer.raw(index == 0 ? "{\"artistName\":" : ",{\"artistName\":")
            writer.string(result.artistName ?? "")
            writer.raw(",\"id\":")
            writer.string(String(result.trackId))
            writer.raw(",\"name\":")
            writer.string(result.trackName ?? "")
            writer.raw(",\"releaseDate\":")
            writer.string(String((result.releaseDate ?? "").prefix(10)))
            writer.raw(",\"kind\":\"apps\"")
            if let artistId = result.artistId {
                writer.raw(",\"artistId\":")
                writer.string(String(artistId))
            }
            if let artistURL = result.artistViewUrl {
                writer.raw(",\"artistUrl\":")
                writer.string(String(artistURL.prefix { $0 != "?" }))
            }
            writer.raw(",\"artworkUrl100\":")
            writer.string(result.artworkUrl100 ?? "")
            writer.raw(",\"genres\":[")
            for (position, (id, name)) in zip(result.genreIds ?? [], result.genres ?? []).enumerated() {
                writer.raw(position == 0 ? "{\"genreId\":" : ",{\"genreId\":")
                writer.string(id)
                writer.raw(",\"name\":")
                writer.string(name)
                writer.raw(",\"url\":")
                writer.string("https://itunes.apple.com/\(country)/genre/id\(id)")
                writer.raw("}")
            }
            writer.raw("],\"url\":")
            // The product link without the Search API's `?uo=4`, as the feed writes it.
            writer.string(String((result.trackViewUrl ?? "").prefix { $0 != "?" }))
            writer.raw("}")
        }
        writer.raw("]}}")
        return writer.bytes
    }
}
