import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFPostgres
import EPFSQLite
import Foundation

/// Plans `paths` and imports them into `store` with the real importer.
func runImport(_ paths: [String], into store: any CatalogStore, options: ImportOptions = ImportOptions()) throws -> [FileReport] {
    let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter())
    return PlanRunner(store: store, options: options).run(plan)
}

/// Imports `paths` into a new SQLite catalog in `folder` and into `database`
/// (both with the same options, PostgreSQL also with `parallelTables`).
func importIntoBoth(
    _ paths: [String], folder: URL, database: TestDatabase, options: ImportOptions = ImportOptions(),
    parallelTables: Int = 2, postgresOptions: PostgresStoreOptions = PostgresStoreOptions()
) throws -> (sqlite: String, sqliteReports: [FileReport], postgresReports: [FileReport]) {
    let path = folder.appendingPathComponent("catalog.sqlite").path
    let sqliteReports = try runImport(paths, into: try SQLiteCatalogStore(path: path), options: options)
    var parallel = options
    parallel.parallelTables = parallelTables
    let postgresReports = try runImport(paths, into: try database.store(postgresOptions), options: parallel)
    return (path, sqliteReports, postgresReports)
}
