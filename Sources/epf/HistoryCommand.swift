import ArgumentParser
import EPFCatalog
import EPFReport

/// A journal status as `epf history --status` takes it.
enum JournalStatusFilter: String, ExpressibleByArgument, CaseIterable {
    case applied, failed
    case notApplied = "not-applied"
    case blocked
}

/// `epf history`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the import journal, newest first: one row per file applied or refused.")

    @OptionGroup var catalog: CatalogOption

    @Option(name: .long, help: "Show at most this many rows.")
    var limit: Int = 50

    @Option(name: .long, help: "Only this feed (itunes, pricing, popularity, ...).")
    var feed: String?

    @Option(name: .long, help: "Only this catalog table.")
    var table: String?

    @Option(name: .long, help: "Only this status.")
    var status: JournalStatusFilter?

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    /// The columns printed, in order.
    static let columns = [
        "id", "started_at", "feed", "feed_date", "table_name", "mode", "status", "rows", "repaired_rows",
        "skipped_rows", "seconds", "source_path", "message",
    ]

    /// Seconds with two decimals and start times to the second in a table
    /// and CSV; JSON has them as stored (to the millisecond).
    static let forms: [String: ColumnForm] = ["seconds": .seconds, "started_at": .timestampToTheSecond]

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more.") }
    }

    func run() throws {
        let rows: [[SQLValue]]
        do {
            guard
                let found = try catalog.location.openAdmin().journal(feed: feed, table: table, status: status?.rawValue, limit: limit)
            else {
                Console.message("epf history: \(catalog.displayName) has no import journal yet; run `epf import` first")
                throw ExitCode(1)
            }
            rows = found
        } catch let error as CatalogError {
            Console.message("epf history: \(error.description)")
            throw ExitCode(1)
        }
        if rows.isEmpty { Console.message("epf history: no journal rows match") }
        Console.out(TabularOutput(columns: Self.columns, rows: rows, forms: Self.forms).render(format))
    }
}
