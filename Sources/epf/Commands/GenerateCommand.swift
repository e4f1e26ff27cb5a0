import ArgumentParser
import EPFCatalog
import EPFFormat
import EPFReport
import EPFSynthetic
import Foundation

/// `epf generate`
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic synthetic feed (application, application_price) for benchmarks and tests.",
        discussion: """
            The same --rows and --seed always give the same bytes; rows are ~2 KB, like the \
            real application table's. With --all-tables, every app table of the itunes, \
            pricing and popularity feeds at the real feed's proportions, in feed folders, and \
            with --days N the N days after it (INCREMENTAL, each seventh a FULL): 1,000,000 \
            applications make about 19 GB a FULL day. See docs/import.md.
            """)

    @Option(name: .long, help: ArgumentHelp("The folder to write (created if needed).", valueName: "dir"))
    var out: String

    @Option(name: .long, help: "Applications to write.")
    var rows: Int = 10_000

    @Option(name: .long, help: "Seed of the pseudo-random data.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Storefronts per application in application_price, 0 to 177 (default: 5; 175 with --all-tables).")
    var storefronts: Int?

    @Flag(name: .long, help: "Write every app table of the itunes, pricing and popularity feeds, in feed folders.")
    var allTables = false

    @Option(name: .long, help: "With --all-tables: the days written after the first FULL (each seventh a FULL, the others INCREMENTAL).")
    var days: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp("With --all-tables: write only day N (0 is the first FULL), the same bytes as with --days.", valueName: "n"))
    var onlyDay: Int?

    @Flag(name: .long, help: "Also write the storefront, genre, artist and device tables (a catalog to query).")
    var catalogTables = false

    @Flag(name: .long, help: "Also write application_popularity_per_genre: the top 200 of each genre in each of 175 storefronts.")
    var charts = false

    @Option(name: .long, help: ArgumentHelp("The export_date of every row, a UTC day (default: 2026-11-01).", valueName: "yyyy-mm-dd"))
    var exportDate: String?

    @Flag(name: .long, help: "Write INCREMENTAL files (#exportMode:INCREMENTAL) instead of FULL ones.")
    var incremental = false

    /// `--export-date` as epoch milliseconds.
    var exportMilliseconds: Int64? { exportDate.flatMap(Timestamp.epochMilliseconds(ofDay:)) }

    /// The feed the options ask for.
    var feed: SyntheticFeed {
        var feed = SyntheticFeed(rows: rows)
        (feed.seed, feed.storefronts, feed.allTables, feed.days, feed.onlyDay) = (seed, storefronts, allTables, days, onlyDay)
        (feed.catalogTables, feed.charts, feed.exportDate, feed.incremental) = (catalogTables, charts, exportMilliseconds, incremental)
        return feed
    }

    func validate() throws {
        if exportDate != nil && exportMilliseconds == nil { throw ValidationError("--export-date takes a day as YYYY-MM-DD.") }
        if let problem = feed.problem { throw ValidationError(problem) }
    }

    func run() throws {
        try Console.exitOnFailure("generate") { try feed.write(to: out) { Console.message(LogMessage($0)) } }
    }
}
