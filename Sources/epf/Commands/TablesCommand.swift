import ArgumentParser
import EPFCatalog
import EPFReport

/// `epf tables`
struct TablesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tables",
        abstract: "List the catalog's tables with their row counts and last import.",
        discussion: """
            Lists every EPF table of the catalog, under whatever prefix it was imported \
            (epf import --table-prefix); with --table-prefix, only the tables under that one.
            """)

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var prefix: TablePrefixOption

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    func run() throws {
        let tables: [CatalogTableSummary]
        do {
            tables = try catalog.location.openAdmin().tables(prefix: prefix.tablePrefix)
        } catch {
            throw Console.failure("epf tables: \(error.description)")
        }
        if tables.isEmpty {
            Console.message("epf tables: the catalog has no tables\(prefix.tablePrefix.map { " named \($0)..." } ?? "") yet")
        }
        Console.out(tables.output.render(format))
    }
}
