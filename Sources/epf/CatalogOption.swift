import ArgumentParser
import EPFCatalog
import Foundation

/// `--db PATH`, shared by every command that uses a catalog.
struct CatalogOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The catalog: a SQLite file (default: $EPF_DB, else catalog.sqlite in the current folder).",
            valueName: "path"))
    var db: String?

    /// The catalog path the user asked for.
    var path: String {
        if let db { return db }
        if let fromEnvironment = ProcessInfo.processInfo.environment["EPF_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "catalog.sqlite"
    }

    /// The catalog opened read-only for `epf COMMAND`; a catalog that cannot
    /// be opened is said on standard error and exits 1.
    func reader(for command: String) throws -> CatalogReader {
        do {
            return try CatalogReader(path: path)
        } catch {
            Console.message("epf \(command): \(error.description)")
            throw ExitCode(1)
        }
    }
}

/// How a command prints its data.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}
