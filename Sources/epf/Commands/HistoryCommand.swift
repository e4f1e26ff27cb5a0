import ArgumentParser
import EPFCatalog
import EPFReport

extension JournalRecord.Status: ExpressibleByArgument {}

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
    var status: JournalRecord.Status?

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more.") }
    }

    func run() throws {
        let found = try Console.exitOnFailure("history") {
            try catalog.location.openAdmin().journal(feed: feed, table: table, status: status, limit: limit)
        }
        guard let rows = found else {
            throw Console.failure("epf history: \(catalog.displayName) has no import journal yet; run `epf import` first")
        }
        if rows.isEmpty { Console.message("epf history: no journal rows match") }
        Console.out(TabularOutput.journal(rows).render(format))
    }
}
