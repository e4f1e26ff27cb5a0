import EPFCatalog
import EPFSQLite
import EPFPostgres
import EPFLake
import Foundation

/// Where the catalog is, parsed once from `--db`: a SQLite file, or a
/// PostgreSQL database for a `postgres://` or `postgresql://` URL. The one
/// place of the executables (`epf`, `epf-server`) that knows which backends
/// there are; they ask it for a store or a reader and never name a backend.
package enum CatalogLocation: Sendable {
    case sqlite(path: String)
    case postgres(PostgresTarget)
    /// A Parquet lake (`epf import --lake DIR`): imported into, never
    /// queried by `epf` (DuckDB, Spark, Trino read it).
    case lake(path: String)

    /// What `--db` is, for the help of every command that takes it.
    package static let optionHelp =
        "The catalog: a SQLite file, or a PostgreSQL database as postgres://user@host:port/dbname (parts left out come from the PG* environment variables) (default: $EPF_DB, else catalog.sqlite in the current folder)."

    /// The catalog `--db` names: `db` when given, else `$EPF_DB` when set
    /// and not empty, else `catalog.sqlite` in the current folder.
    package static func path(db: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let db { return db }
        if let fromEnvironment = environment["EPF_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        return "catalog.sqlite"
    }

    package init(_ text: String) {
        self = PostgresTarget.isURL(text) ? .postgres(PostgresTarget(url: text)) : .sqlite(path: text)
    }

    /// The catalog as messages name it: a PostgreSQL URL without its password.
    package var displayName: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let target): target.redacted
        case .lake(let path): path
        }
    }

    /// The catalog file whose disk `epf sync` checks for room before it
    /// downloads (`DiskSpace.catalogGrowthFactor`, measured on SQLite
    /// catalogs); nil for a lake (Parquet, far smaller than that) and a
    /// PostgreSQL server (its disk is not this machine's to see).
    package var spaceCheckedPath: String? {
        switch self {
        case .sqlite(let path): path
        case .postgres, .lake: nil
        }
    }

    /// Whether the table files of a feed folder may load at once, each on
    /// a connection of its own (SQLite loads one at a time).
    package var loadsTablesAtOnce: Bool {
        switch self {
        case .postgres, .lake: true  // a lake's tables go to files of their own
        case .sqlite: false
        }
    }

    /// The store `epf verify` checks with: keys as the default (SQLite)
    /// catalog stores them.
    package static func keyCheckStore(_ settings: KeyCheckSettings) -> any KeyCheckingStore {
        SQLiteKeyCheckStore(settings: settings)
    }

    /// Opens the catalog for an import (creating it if missing); a big
    /// file goes to PostgreSQL over `jobs` COPY connections at once.
    package func openStore(restart: Bool, exclusive: Bool, jobs: Int = 1, hooks: LoadHooks) throws -> any CatalogStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteCatalogStore(path: path, restart: restart, exclusive: exclusive, hooks: hooks)
        case .postgres(let target):
            var options = try PostgresStoreOptions(environment: ProcessInfo.processInfo.environment)
            options.copyStreams = jobs
            return try PostgresCatalogStore(target: target, options: options, restart: restart, hooks: hooks)
        case .lake(let path):
            return try LakeStore(path: path, hooks: hooks)
        }
    }

    /// The files the journal lists as applied, read without changing
    /// anything (for `--dry-run`); none when there is no catalog yet.
    package func appliedFiles() throws -> [AppliedFile] {
        switch self {
        case .sqlite(let path): return try SQLiteCatalogStore.appliedFiles(catalogAt: path)
        case .postgres(let target): return try PostgresCatalogStore.appliedFiles(at: target)
        case .lake(let path): return try LakeStore.appliedFiles(lakeAt: path)
        }
    }

    /// The catalog opened for lookups and searches, with the tables of
    /// `tablePrefix` (nil: found in the catalog).
    package func openReader(tablePrefix: String?) throws(CatalogError) -> any CatalogQuerying {
        switch self {
        case .sqlite(let path): return try Catalog(path: path, tablePrefix: tablePrefix)
        case .postgres(let target): return try PostgresCatalog(target: target, tablePrefix: tablePrefix)
        case .lake(let path): throw Self.notQueryable(path)
        }
    }

    /// The catalog opened for `epf tables`, `epf history` and `epf sql`.
    package func openAdmin() throws(CatalogError) -> any CatalogAdmin {
        switch self {
        case .sqlite(let path): return try CatalogReader(path: path)
        case .postgres(let target): return try PostgresCatalogReader(target: target)
        case .lake(let path): throw Self.notQueryable(path)
        }
    }

    static func notQueryable(_ lake: String) -> CatalogError {
        CatalogError(
            .usage, detail: "\(lake) is a Parquet lake: epf imports into it but does not query it",
            hint: "Read it with DuckDB (see docs/lake.md), or import into a catalog with --db")
    }
}
