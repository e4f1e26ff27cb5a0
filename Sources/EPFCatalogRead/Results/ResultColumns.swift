import EPFCatalogCore

/// The `application_detail` columns a `SoftwareResult` reads.
package enum DetailColumns {
    package static let screenshots = (1...10).map { "screenshot_url_\($0)" }
    package static let ipadScreenshots = (1...10).map { "ipad_screenshot_url_\($0)" }
    package static let texts = ["language_code", "title", "description", "release_notes", "company_url"]

    /// The columns of `columns` a result reads, in a fixed order.
    package static func wanted(in columns: [String]) -> [String] {
        let present = Set(columns)
        return (texts + screenshots + ipadScreenshots).filter(present.contains)
    }
}

/// The `application` columns a `SoftwareResult` is made of.
package enum ApplicationColumns {
    package static let wanted = [
        "title", "recommended_age", "artist_name", "seller_name", "view_url", "artwork_url_large",
        "artwork_url_small", "itunes_release_date", "description", "version", "download_size",
    ]
}
