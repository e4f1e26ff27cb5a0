import ArgumentParser
import EPFCatalog
import EPFReport

/// `epf sql "SELECT ..."`
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run one read-only SQL statement on the catalog and print its rows.",
        discussion: """
            The catalog is opened read-only, and statements that could write (INSERT, UPDATE, \
            DELETE, CREATE, writing PRAGMAs, ATTACH, ...) are refused with exit status 64, as is \
            more than one statement. SQLite's errors exit 1. Against PostgreSQL (--db \
            postgres://...), the statement runs in a READ ONLY transaction: the server refuses \
            writes (exit 64); its errors exit 1.
            """)

    @OptionGroup var catalog: CatalogOption

    @Argument(help: ArgumentHelp("One SQL statement that only reads, e.g. \"SELECT count(*) FROM application\".", valueName: "sql"))
    var statement: String

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    func run() throws {
        let result: (columns: [String], rows: [[SQLValue]])
        do {
            result = try catalog.location.openAdmin().readOnlyQuery(statement)
        } catch let error as ReadOnlyQueryError where error.isUsageError {
            if case .notReadOnly = error {
                Console.message("epf sql only reads; the statement could change the catalog (use epf import to change it)")
            } else {
                Console.message("epf sql: \(error.description)")
            }
            throw ExitCode(64)
        } catch {
            throw Console.failure("epf sql: \(error)")
        }
        Console.out(TabularOutput(columns: result.columns, rows: result.rows).render(format))
    }
}
