import ArgumentParser
import EPFCatalog
import EPFLocation
import Foundation

/// Prints a `SearchResponse` (`epf lookup`, `epf search`): JSON in the
/// iTunes Search/Lookup shape, or one row per result as a table or CSV.
enum ResultOutput {
    static func render(_ response: SearchResponse, as format: OutputFormat) throws -> String {
        switch format {
        case .json:
            return String(decoding: response.jsonBytes(), as: UTF8.self) + "\n"
        case .table, .csv:
            let columns = ["trackId", "trackName", "artistName", "formattedPrice", "version", "primaryGenreName"]
            let rows: [[SQLValue]] = response.results.map { result in
                [
                    .integer(result.trackId), text(result.trackName), text(result.artistName),
                    text(result.formattedPrice), text(result.version), text(result.primaryGenreName),
                ]
            }
            return TabularOutput(columns: columns, rows: rows).render(format)
        }
    }

    private static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }

    /// Opens the catalog (SQLite, or PostgreSQL for a `postgres://` URL)
    /// with the tables of `tablePrefix` (nil: found in the catalog) and
    /// resolves `--country`: an unknown country is a usage error (64), a
    /// catalog that cannot answer (or that holds tables under several
    /// prefixes, with no `--table-prefix`) exits 1.
    static func open(_ location: CatalogLocation, tablePrefix: String?, country: String?, command: String) throws
        -> (any CatalogQuerying, Storefront)
    {
        let catalog: any CatalogQuerying
        do {
            catalog = try location.openReader(tablePrefix: tablePrefix)
        } catch {
            Console.message("epf \(command): \(error.description)")
            throw ExitCode(1)
        }
        do {
            return (catalog, try catalog.storefront(for: country))
        } catch {
            Console.message("epf \(command): \(error.description)")
            throw ExitCode(error.kind == .usage ? 64 : 1)
        }
    }
}
