import CSQLite
import EPFCatalogStore
import EPFFormat

/// How an INCREMENTAL file's rows go into staging when most of them are
/// the catalog's rows again: an EPF day repeats every change since the
/// FULL, so day 6 holds days 1-5's rows, each the same as the catalog's
/// but for its `export_date`.
///
/// Each row is compared, as it is inserted, with the live row of its key
/// (every column of the file but `export_date`, NULL the same as NULL). A
/// row that is the same goes into staging as its key alone, marked
/// (`CatalogTables.unchangedColumn` = 1, its other columns NULL): a few
/// bytes, not the row's kilobytes written twice through the WAL. The key
/// stays so that a key repeated in the file still keeps its last row
/// (`StagingKey`); the apply then deletes the marked rows
/// (`SQLStoreBackend.upsert`) and writes only what changed.
///
/// Invariant: the live table does not change between the load and the
/// apply of the file. It holds: a unit's files load after the unit before
/// it was applied (`PlanRunner` runs units one after another), and a load
/// resumed in a later import resumes the same file, whose day comes
/// before any not applied yet.
///
/// Comparing costs a lookup of the live row; a row the apply writes anyway
/// pays it twice. So only files of wide rows are compared as they load
/// (`minimumRowBytes`: `application`, `application_detail`); narrow ones
/// (prices, charts) load plainly and the upsert skips their same rows.
enum UnchangedRowFilter {
    /// The average record size, in the first batch of a file, from which
    /// its rows are compared as they load.
    static let minimumRowBytes = 256

    /// The plain INSERT of a staging row: the file's columns, in order.
    static func plainInsert(for target: StagingTarget, staging: String) -> String {
        let columns = target.header.columns
        let parameters = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(quoteIdentifier(staging)) (\(quoteColumnList(columns))) VALUES (\(parameters))"
    }

    /// The INSERT of a staging row that compares it with the live table
    /// and marks it (into a staging table with the marker column), with
    /// the same parameters as `plainInsert`; nil when it cannot compare:
    /// a FULL file, no key, no live table, a live table without every
    /// column of the file (a new column is a change in every row) or
    /// without a unique index on the key.
    static func comparingInsert(
        for target: StagingTarget, staging: String, in database: SQLiteDatabase
    ) throws(SQLiteError) -> String? {
        let header = target.header
        let columns = header.columns
        let key = header.primaryKey
        let live = target.table
        guard header.exportMode == .incremental, !key.isEmpty, try database.tableExists(live),
            Set(try database.columnNames(of: live)).isSuperset(of: columns),
            try database.index(on: live, columns: key, uniqueOnly: true) != nil
        else { return nil }
        var conditions: [String] = []
        var values: [String] = []
        for (index, column) in columns.enumerated() {
            let name = quoteIdentifier(column)
            if key.contains(column) {
                conditions.append("l.\(name) = ?\(index + 1)")
                values.append("?\(index + 1)")
            } else {
                if column != CatalogTables.exportDateColumn { conditions.append("l.\(name) IS ?\(index + 1)") }
                values.append("CASE WHEN m THEN NULL ELSE ?\(index + 1) END")
            }
        }
        return """
            INSERT INTO \(quoteIdentifier(staging)) (\(quoteColumnList(columns)), \(quoteIdentifier(CatalogTables.unchangedColumn)))
            SELECT \(values.joined(separator: ", ")), m
            FROM (SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(live)) AS l WHERE \(conditions.joined(separator: " AND "))) AS m)
            """
    }
}
