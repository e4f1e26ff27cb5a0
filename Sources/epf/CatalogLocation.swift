import EPFCatalog
import EPFSQLite
import EPFPostgres
import Foundation

/// Where the catalog is, parsed once from `--db`: a SQLite file, or a
/// PostgreSQL database for a `postgres://` or `postgresql://` URL. The one
/// place in the command line that knows which backends there are; commands
/// ask it for a store or a reader and never name a backend.
enum CatalogLocation {
    case sqlite(path: String)
    case postgres(PostgresTarget)

    init(_ text: String) {
        self = PostgresTarget.isURL(text) ? .postgres(PostgresTarget(url: text)) : .sqlite(path: text)
    }

    /// The catalog as messages name it: a PostgreSQL URL without its password.
    var displayName: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let target): target.redacted
        }
    }

    /// Whether the table files of a feed folder may load at once, each on
    /// a connection of its own (SQLite loads one at a time).
    var loadsTablesAtOnce: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// The store `epf verify` checks with: keys as the default (SQLite)
    /// catalog stores them.
    static func keyCheckStore(_ settings: KeyCheckSettings) -> any KeyCheckingStore {
        SQLiteKeyCheckStore(settings: settings)
    }

    /// Opens the catalog for an import (creating it if missing).
    func openStore(restart: Bool, exclusive: Bool, hooks: LoadHooks) throws -> any CatalogStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteCatalogStore(path: path, restart: restart, exclusive: exclusive, hooks: hooks)
        case .postgres(let target):
            let options = try PostgresStoreOptions(environment: ProcessInfo.processInfo.environment)
            return try PostgresCatalogStore(target: target, options: options, restart: restart, hooks: hooks)
        }
    }

    /// The files the journal lists as applied, read without changing
    /// anything (for `--dry-run`); none when there is no catalog yet.
    func appliedFiles() throws -> [AppliedFile] {
        switch self {
        case .sqlite(let path): return try SQLiteCatalogStore.appliedFiles(catalogAt: path)
        case .postgres(let target): return try PostgresCatalogStore.appliedFiles(at: target)
        }
    }

    /// The catalog opened for lookups and searches, with the tables of
    /// `tablePrefix` (nil: found in the catalog).
    func openReader(tablePrefix: String?) throws(CatalogError) -> any CatalogQuerying {
        switch self {
        case .sqlite(let path): return try Catalog(path: path, tablePrefix: tablePrefix)
        case .postgres(let target): return try PostgresCatalog(target: target, tablePrefix: tablePrefix)
        }
    }

    /// The catalog opened for `epf tables`, `epf history` and `epf sql`.
    func openAdmin() throws(CatalogError) -> any CatalogAdmin {
        switch self {
        case .sqlite(let path): return try CatalogReader(path: path)
        case .postgres(let target): return try PostgresCatalogReader(target: target)
        }
    }
}
