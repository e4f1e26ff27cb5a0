import ArgumentParser
import EPFCatalog
import EPFReport

/// `epf charts [--country US] [--lang L] [--genre ID] [--paid] [--limit N]`
struct ChartsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "charts",
        abstract: "Print a storefront's top free or paid applications, from the popularity feed, as Apple's RSS feed generator does.",
        discussion: """
            The genre's chart (36: the whole store) in the storefront of --country, the free (or --paid) \
            applications there, by rank; JSON as epf-server's /api/v2/{country}/apps/top-free/{limit}/apps.json. \
            Not Apple's live charts: `updated` is the popularity feed's day. See docs/query.md.
            """)

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var locale: ResultLocaleOptions

    @Option(name: .long, help: ArgumentHelp("The genre whose chart it is (default 36: the whole App Store).", valueName: "id"))
    var genre: Int64 = AppChart.overallGenre

    @Flag(name: .long, help: "The paid applications' chart, not the free ones'.")
    var paid = false

    @Option(name: .long, help: "At most this many applications, 1 to 200.")
    var limit: Int = 100

    @OptionGroup var prefix: TablePrefixOption

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .json

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200.") }
        guard genre > 0 else { throw ValidationError("--genre takes a genre ID, as 6014.") }
    }

    func run() throws {
        let kind: ChartKind = paid ? .topPaid : .topFree
        let reader = try Console.exitOnFailure("charts") { try catalog.location.openReader(tablePrefix: prefix.tablePrefix) }
        let chart = try Console.exitOnFailure("charts", usage: true) {
            try reader.chart(kind, inCountry: locale.country, genre: genre, limit: limit, language: try locale.language())
        }
        if chart.results.isEmpty {
            Console.message("epf charts: the \(kind.rawValue) chart of genre \(genre) has no application in this storefront")
        }
        Console.out(chart.rendered(as: format, limit: limit))
    }
}
