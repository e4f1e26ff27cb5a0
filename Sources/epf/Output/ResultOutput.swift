import ArgumentParser
import EPFCatalog
import EPFLocation
import EPFReport
import Foundation

/// The catalog `epf lookup` and `epf search` ask.
enum ResultOutput {
    /// Opens the catalog (SQLite, or PostgreSQL for a `postgres://` URL)
    /// with the tables of `tablePrefix` (nil: found in the catalog) and
    /// resolves `--country`: an unknown country is a usage error (64), a
    /// catalog that cannot answer (or that holds tables under several
    /// prefixes, with no `--table-prefix`) exits 1.
    static func open(_ location: CatalogLocation, tablePrefix: String?, country: String?, command: String) throws
        -> (any CatalogReader, Storefront)
    {
        let catalog = try Console.exitOnFailure(command) { try location.openReader(tablePrefix: tablePrefix) }
        return (catalog, try Console.exitOnFailure(command, usage: true) { try catalog.storefront(for: country) })
    }
}
