import EPFCatalogRead
import EPFPostgresReader
import EPFSQLiteReader
import Foundation

/// Where the catalog is, parsed once from `--db`: a SQLite file, or a
/// PostgreSQL database for a `postgres://` or `postgresql://` URL. With
/// EPFStores (which opens the stores of a location), the only
/// place that knows which backends there are: the executables (`epf`,
/// `epf-server`) ask for a store or a reader and never name a backend.
///
/// This module opens catalogs to read them (`openReader`, `openAdmin`)
/// through the backends' readers (EPFSQLiteReader, EPFPostgresReader), and
/// links no store that writes: `epf-server` reads through it and so links
/// no loader or COPY (`nm epf-server`), no lake, Parquet writer or zstd
/// (`ldd epf-server`). Stores are opened through EPFStores
/// (`openStore`), which only `epf` links.
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

    /// The catalog opened for lookups and searches, with the tables of
    /// `tablePrefix` (nil: found in the catalog).
    package func openReader(tablePrefix: String?) throws(CatalogError) -> any CatalogReader {
        switch self {
        case .sqlite(let path): return try Catalog(path: path, tablePrefix: tablePrefix)
        case .postgres(let target): return try PostgresCatalog(target: target, tablePrefix: tablePrefix)
        case .lake(let path): throw Self.notQueryable(path)
        }
    }

    /// The catalog opened for `epf tables`, `epf history` and `epf sql`.
    package func openAdmin() throws(CatalogError) -> any CatalogAdmin {
        switch self {
        case .sqlite(let path): return try SQLiteCatalogAdmin(path: path)
        case .postgres(let target): return try PostgresCatalogAdmin(target: target)
        case .lake(let path): throw Self.notQueryable(path)
        }
    }

    static func notQueryable(_ lake: String) -> CatalogError {
        CatalogError(
            .usage, detail: "\(lake) is a Parquet lake: epf imports into it but does not query it",
            hint: "Read it with DuckDB (see docs/lake.md), or import into a catalog with --db")
    }
}
