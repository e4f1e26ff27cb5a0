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
    func queries(tablePrefix: String?) throws(CatalogError) -> any CatalogQuerying {
        switch self {
        case .sqlite(let path): return try Catalog(path: path, tablePrefix: tablePrefix)
        case .postgres(let target): return try PostgresCatalog(target: target, tablePrefix: tablePrefix)
        }
    }

    /// One EPF table, for `epf tables`.
    typealias TableSummary = (name: String, rows: Int, lastMode: String?, lastImport: String?, exportDate: Int64?, source: String?)

    /// The catalog's EPF tables (of `prefix` only, when given), by name.
    func tables(prefix: String?) throws(CatalogError) -> [TableSummary] {
        switch self {
        case .sqlite(let path):
            let tables = try CatalogReader(path: path).tables(prefix: prefix)
            return tables.map { ($0.name, $0.rows, $0.lastMode, $0.lastImport, $0.exportDate, $0.source) }
        case .postgres(let target):
            let tables = try PostgresCatalogReader.tables(at: target, prefix: prefix)
            return tables.map { ($0.name, $0.rows, $0.lastMode, $0.lastImport, $0.exportDate, $0.source) }
        }
    }

    /// The import journal, newest first (the columns of `epf history`); nil
    /// when the catalog has no journal yet.
    func journal(feed: String?, table: String?, status: String?, limit: Int) throws(CatalogError) -> [[SQLValue]]? {
        switch self {
        case .sqlite(let path):
            return try CatalogReader(path: path).journal(feed: feed, table: table, status: status, limit: limit)
        case .postgres(let target):
            // Numbers as numbers: id, rows, repaired_rows, skipped_rows, seconds.
            let numeric: Set<Int> = [0, 7, 8, 9, 10]
            let found = try PostgresCatalogReader.journal(at: target, feed: feed, table: table, status: status, limit: limit)
            return found?.map { row in
                row.enumerated().map { index, text -> SQLValue in
                    guard let text else { return .null }
                    if numeric.contains(index), let number = Int64(text) { return .integer(number) }
                    return .text(text)
                }
            }
        }
    }

    /// Runs one statement that only reads: SQLite refuses writes at
    /// prepare, PostgreSQL runs it in a READ ONLY transaction.
    func readOnlyQuery(_ sql: String) throws -> (columns: [String], rows: [[SQLValue]]) {
        switch self {
        case .sqlite(let path): return try CatalogReader(path: path).database.readOnlyQuery(sql: sql)
        case .postgres(let target): return try PostgresReadOnlyQuery.run(sql, at: target)
        }
    }
}
