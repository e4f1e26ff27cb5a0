import EPFCatalogCore
import EPFCatalogRead

/// What `CatalogMigrator` needs of a catalog's database: the backend's SQL
/// for each step, a way to run it, and `epf_schema` read and written.
package protocol CatalogMigrationDatabase {
    associatedtype Failure: Error
    /// The backend's SQL for `step`: statements separated by `;`, or none
    /// when the backend's tables had it from the start.
    func sql(for step: CatalogMigration) -> String
    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(Failure)
    /// The names of `table`'s columns; none when there is no such table.
    func columnNames(of table: String) throws(Failure) -> [String]
    /// The identifiers `epf_schema` records.
    func recordedSteps() throws(Failure) -> [String]
    /// Records in `epf_schema` that step `identifier` is applied, now.
    func record(_ identifier: String) throws(Failure)
    /// The error to report for `error`, met while doing `action`.
    func catalogError(_ error: Failure, while action: String) -> CatalogError
}

/// Brings the importer's own tables up to `CatalogMigration.allCases`
/// (after GRDB's `DatabaseMigrator`): each step not yet recorded in
/// `epf_schema` is applied, in order, once, in one transaction with its
/// record. A step that an earlier one may have made already
/// (`CatalogMigration.mayBeMadeByAnEarlierStep`) is recorded without
/// running when its tables and columns (`adds`) are all there. The same algorithm for every backend; only import stores run
/// it (readers never write, so they read old catalogs as they are).
package enum CatalogMigrator {
    /// Migrates `database` (named `catalog` in messages) and returns the
    /// steps this call applied.
    ///
    /// A catalog without `epf_schema` (new, or made before it existed) gets
    /// one, with the steps it already has recorded without running them.
    /// Throws without changing anything when `epf_schema` records a step
    /// this binary does not know: a newer epf wrote the catalog.
    @discardableResult
    package static func migrate<Database: CatalogMigrationDatabase>(
        _ database: Database, catalog: String
    ) throws(CatalogError) -> [CatalogMigration] {
        let recorded: Set<String>
        do {
            recorded = try recordedOrRecognised(database)
        } catch {
            throw database.catalogError(error, while: "reading the schema steps of \(catalog)")
        }
        if let unknown = recorded.sorted().first(where: { CatalogMigration(rawValue: $0) == nil }) {
            throw CatalogError.newerCatalog(catalog, step: unknown)
        }
        var applied: [CatalogMigration] = []
        for step in CatalogMigration.allCases where !recorded.contains(step.rawValue) {
            do {
                try transaction(database) { () throws(Database.Failure) in
                    let sql = database.sql(for: step)
                    var run = !sql.isEmpty
                    if run, step.mayBeMadeByAnEarlierStep { run = try !hasHad(step, database) }
                    if run { try database.execute(sql) }
                    try database.record(step.rawValue)
                }
            } catch {
                throw database.catalogError(error, while: "upgrading \(catalog) (schema step \(step.rawValue))")
            }
            applied.append(step)
        }
        return applied
    }

    /// The steps `epf_schema` records; without it, creates it and records
    /// the steps whose tables and columns the catalog has.
    static func recordedOrRecognised<Database: CatalogMigrationDatabase>(
        _ database: Database
    ) throws(Database.Failure) -> Set<String> {
        if try !database.columnNames(of: CatalogTables.schema).isEmpty {
            return Set(try database.recordedSteps())
        }
        var had: [CatalogMigration] = []
        try transaction(database) { () throws(Database.Failure) in
            for step in CatalogMigration.allCases where try hasHad(step, database) { had.append(step) }
            try database.execute(
                "CREATE TABLE \(CatalogTables.schema) (identifier TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            for step in had { try database.record(step.rawValue) }
        }
        return Set(had.map(\.rawValue))
    }

    /// Whether the catalog has what `step` adds.
    static func hasHad<Database: CatalogMigrationDatabase>(
        _ step: CatalogMigration, _ database: Database
    ) throws(Database.Failure) -> Bool {
        for (table, columns) in step.adds {
            let present = Set(try database.columnNames(of: table))
            if present.isEmpty || !present.isSuperset(of: columns) { return false }
        }
        return true
    }

    /// Runs `body` in a transaction (both backends spell it the same).
    private static func transaction<Database: CatalogMigrationDatabase>(
        _ database: Database, _ body: () throws(Database.Failure) -> Void
    ) throws(Database.Failure) {
        try database.execute("BEGIN")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
