import EPFCatalogCore

/// Which of the App Store's top charts: the free applications or the paid
/// ones, told apart by their price in the chart's storefront.
public enum ChartKind: String, Sendable, CaseIterable {
    /// `top-free`: applications whose price in the storefront is 0.
    case topFree = "top-free"
    /// `top-paid`: applications whose price in the storefront is above 0.
    case topPaid = "top-paid"

    /// The feed's title, as Apple's RSS feed generator writes it.
    public var title: String { self == .topFree ? "Top Free Apps" : "Top Paid Apps" }
}

/// A top chart of a storefront, made from the popularity feed
/// (`application_popularity_per_genre`): the applications of a genre's
/// chart (36: the whole App Store) that are free, or paid, in that
/// storefront, by rank. Not Apple's live charts: the ranks are those of the
/// popularity feed of `updated`'s day. (`Catalog.chart(_:inCountry:genre:limit:language:)`)
public struct AppChart: Sendable, Equatable {
    public var kind: ChartKind
    /// The storefront of the chart and of the prices.
    public var storefront: Storefront
    /// The genre whose chart it is (36: the whole App Store).
    public var genreId: Int64
    /// The popularity feed's `export_date` of the chart's rows (epoch
    /// milliseconds); nil when the chart is empty.
    public var updated: Int64?
    /// The applications, by rank, as a lookup answers them.
    public var results: [SoftwareResult]

    @usableFromInline
    package init(kind: ChartKind, storefront: Storefront, genreId: Int64, updated: Int64?, results: [SoftwareResult]) {
        self.kind = kind
        self.storefront = storefront
        self.genreId = genreId
        self.updated = updated
        self.results = results
    }

    /// The genre of the whole App Store, whose chart is the overall one.
    public static let overallGenre: Int64 = 36
    /// The chart lengths Apple's RSS feed generator serves.
    public static let lengths = [10, 25, 50, 100]
}
