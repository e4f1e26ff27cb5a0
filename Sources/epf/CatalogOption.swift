import ArgumentParser
import EPFCatalog
import EPFPostgres
import Foundation

/// `--db PATH`, shared by every command that uses a catalog.
struct CatalogOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The catalog: a SQLite file, or a PostgreSQL database as postgres://user@host:port/dbname (parts left out come from the PG* environment variables) (default: $EPF_DB, else catalog.sqlite in the current folder).",
            valueName: "path|url"))
    var db: String?

    /// The catalog path the user asked for.
    var path: String {
        if let db { return db }
        if let fromEnvironment = ProcessInfo.processInfo.environment["EPF_DB"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "catalog.sqlite"
    }

    /// Whether the catalog is a PostgreSQL database.
    var isPostgres: Bool { PostgresTarget.isURL(path) }

    /// The PostgreSQL database, when the catalog is one.
    var postgres: PostgresTarget? { Self.postgresTarget(path) }

    /// The PostgreSQL database `path` names, if it is a URL.
    static func postgresTarget(_ path: String) -> PostgresTarget? {
        PostgresTarget.isURL(path) ? PostgresTarget(url: path) : nil
    }

    /// Says that `epf COMMAND` does not read PostgreSQL (every command that
    /// does checks `postgres` before asking for a SQLite reader); exits 1.
    static func readsSQLiteOnly(_ postgres: PostgresTarget, command: String) -> ExitCode {
        Console.message(
            "epf \(command): reads SQLite catalogs only; query \(postgres.redacted) with psql (see docs/postgres.md)")
        return ExitCode(1)
    }

    /// The catalog as messages name it: a PostgreSQL URL without its password.
    var displayName: String { postgres?.redacted ?? path }

    /// The catalog opened read-only for `epf COMMAND`; a catalog that cannot
    /// be opened is said on standard error and exits 1.
    func reader(for command: String) throws -> CatalogReader {
        if let postgres { throw Self.readsSQLiteOnly(postgres, command: command) }
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
