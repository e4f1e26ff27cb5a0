import EPFCatalogCore

/// The `media` values of Apple's Search API, as `epf search --media` and
/// the server's `/search?media=` take them.
package enum AppleMedia {
    /// The media that are not in an EPF application catalog: a search for
    /// them finds nothing.
    package static let others = ["movie", "podcast", "music", "musicVideo", "audiobook", "shortFilm", "tvShow", "ebook"]
    /// Every value Apple's API takes.
    package static let all = ["software", "all"] + others

    /// Whether `media` includes applications.
    package static func findsSoftware(_ media: String) -> Bool { media == "software" || media == "all" }
}
