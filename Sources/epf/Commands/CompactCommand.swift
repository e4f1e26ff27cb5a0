import ArgumentParser
import EPFCatalog
import EPFLocation
import EPFReport
import EPFStores
import Foundation

/// `epf compact [--db PATH|URL] [--format table|json|csv]`
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Give back to the disk the space a FULL re-import left free inside the catalog.",
        discussion: """
            A FULL re-import builds each table beside the one it replaces, and SQLite keeps \
            the old pages free inside the file. epf compact writes the catalog again without \
            them, while lookups and searches go on; it needs free disk of about twice the \
            catalog's size in use, checked first. PostgreSQL gives the space back itself. \
            Prints bytes before and after, bytes returned and seconds.
            """)

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var log: LogFormatOption

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    func run() throws {
        let display = CompactionProgressText(live: Console.messagesAreTerminal, write: Console.show)
        let report = try Console.exitOnFailure("compact", usage: true) {
            defer { display.finish() }
            return try catalog.location.compact(hooks: TestEnvironment().compactionHooks, progress: display.show)
        }
        for note in report.notes { Console.message("note: \(note)") }
        Console.message("epf compact: \(report.message)")
        Console.out(report.output.render(format))
    }
}
