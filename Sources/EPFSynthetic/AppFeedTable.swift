/// The tables of the app feed set (`AppFeedSet`): their feed, columns and
/// keys, as EPF declares them.
package enum AppFeedTable: String, CaseIterable, Sendable {
    case application
    case applicationDetail = "application_detail"
    case applicationDeviceType = "application_device_type"
    case artist
    case artistApplication = "artist_application"
    case deviceType = "device_type"
    case genre
    case genreApplication = "genre_application"
    case storefront
    case applicationPrice = "application_price"
    case popularity = "application_popularity_per_genre"

    /// The feed whose folder holds it.
    package var feed: String {
        switch self {
        case .applicationPrice: return "pricing"
        case .popularity: return "popularity"
        default: return "itunes"
        }
    }

    /// Screenshots a detail row has room for, of each kind.
    static let screenshotSlots = 5

    /// Columns and their `#dbTypes`, `export_date` first.
    package var columns: [(name: String, type: String)] {
        let date = [("export_date", "BIGINT")]
        switch self {
        case .application:
            return FeedGenerator.applicationColumns.map { ($0.0, $0.1) }
        case .applicationDetail:
            let slots = 1...Self.screenshotSlots
            return date + [
                ("application_id", "INTEGER"), ("language_code", "VARCHAR(20)"), ("title", "VARCHAR(1000)"),
                ("description", "LONGTEXT"), ("release_notes", "LONGTEXT"), ("company_url", "VARCHAR(1000)"),
                ("support_url", "VARCHAR(1000)"),
            ] + slots.map { ("screenshot_url_\($0)", "VARCHAR(1000)") } + slots.map { ("screenshot_width_height_\($0)", "VARCHAR(20)") }
                + slots.map { ("ipad_screenshot_url_\($0)", "VARCHAR(1000)") }
                + slots.map { ("ipad_screenshot_width_height_\($0)", "VARCHAR(20)") }
        case .applicationDeviceType:
            return date + [("application_id", "INTEGER"), ("device_type_id", "INTEGER")]
        case .artist:
            return date + [
                ("artist_id", "INTEGER"), ("name", "VARCHAR(1000)"), ("is_actual_artist", "BOOLEAN"), ("view_url", "VARCHAR(1000)"),
                ("artist_type_id", "INTEGER"),
            ]
        case .artistApplication:
            return date + [("artist_id", "INTEGER"), ("application_id", "INTEGER")]
        case .deviceType:
            return date + [("device_type_id", "INTEGER"), ("name", "VARCHAR(200)")]
        case .genre:
            return date + [("genre_id", "INTEGER"), ("parent_id", "INTEGER"), ("name", "VARCHAR(200)")]
        case .genreApplication:
            return date + [("genre_id", "INTEGER"), ("application_id", "INTEGER"), ("is_primary", "BOOLEAN")]
        case .storefront:
            return date + [("storefront_id", "INTEGER"), ("country_code", "VARCHAR(3)"), ("name", "VARCHAR(200)")]
        case .applicationPrice:
            return FeedGenerator.priceColumns.map { ($0.0, $0.1) }
        case .popularity:
            return date + [
                ("storefront_id", "INTEGER"), ("genre_id", "INTEGER"), ("application_id", "INTEGER"), ("application_rank", "INTEGER"),
            ]
        }
    }

    /// The `#primaryKey` columns.
    package var key: [String] {
        switch self {
        case .application: return ["application_id"]
        case .applicationDetail: return ["application_id", "language_code"]
        case .applicationDeviceType: return ["application_id", "device_type_id"]
        case .artist: return ["artist_id"]
        case .artistApplication: return ["artist_id", "application_id"]
        case .deviceType: return ["device_type_id"]
        case .genre: return ["genre_id"]
        case .genreApplication: return ["genre_id", "application_id"]
        case .storefront: return ["storefront_id"]
        case .applicationPrice: return ["application_id", "storefront_id"]
        case .popularity: return ["storefront_id", "genre_id", "application_id"]
        }
    }
}
