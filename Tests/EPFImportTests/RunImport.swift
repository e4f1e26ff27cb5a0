import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFSQLite

/// Plans `paths` and imports them into the catalog at `catalog` with the real
/// importer; the store is closed when this returns.
func runImport(_ paths: [String], catalog: String, options: ImportOptions = ImportOptions()) throws -> [FileReport] {
    let store = try SQLiteCatalogStore(path: catalog)
    let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter())
    return PlanRunner(store: store, options: options).run(plan)
}
