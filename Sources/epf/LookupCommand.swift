import ArgumentParser
import EPFCatalog

/// `epf lookup ID`
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show one application by Apple ID.",
        discussion: """
            Prints {"resultCount": N, "results": [...]} with the application table's columns. \
            An unknown ID gives an empty result (exit 0) and a message on standard error.
            """)

    @OptionGroup var catalog: CatalogOption

    @Argument(help: ArgumentHelp("The Apple ID, e.g. 364709193.", valueName: "id"))
    var id: String

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .json

    func validate() throws {
        guard Int64(id) != nil else { throw ValidationError("'\(id)' is not an Apple ID (a number such as 364709193).") }
    }

    func run() throws {
        let rows: [[(String, SQLValue)]]
        do {
            rows = try CatalogReader(path: catalog.path).rows(of: "application", where: "application_id", equals: .integer(Int64(id)!))
        } catch {
            Console.message("epf lookup: \(error.description)")
            throw ExitCode(1)
        }
        if rows.isEmpty { Console.message("epf lookup: no application with Apple ID \(id)") }
        switch format {
        case .json:
            let results = rows.map { row in JSONText.object(row.map { ($0.0, JSONText.value($0.1)) }) }
            Console.out(JSONText.object([("resultCount", String(rows.count)), ("results", JSONText.array(results))]) + "\n")
        case .table, .csv:
            let columns = rows.first?.map(\.0) ?? []
            Console.out(TabularOutput(columns: columns, rows: rows.map { $0.map(\.1) }).render(format))
        }
    }
}
