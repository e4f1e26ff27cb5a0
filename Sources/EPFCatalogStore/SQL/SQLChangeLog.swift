import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// The change log, written by the apply in its transaction, once for every
/// SQL store (docs/changes.md, "The change log"):
///
/// - `epf_price_change`: a price of an application in a storefront that
///   changed or appeared (`price_before` NULL), with the `export_date` of
///   the INCREMENTAL file that showed it (a FULL file of prices is not
///   compared yet; `price_after` NULL is for the prices it lacks);
/// - `epf_app_change`: an application `new` (a key the catalog did not
///   have), a new `version` (its `version` or `itunes_release_date`
///   changed; the values are the versions), `renamed` (its `title`), or,
///   at a FULL file, `removed` (absent from it).
///
/// It is derived from the staging table joined to the live table by key,
/// before the live table changes. Staging holds one row per key (its key
/// index is built at the end of the load), and on SQLite the wide rows the
/// same as the catalog's are gone from it first, and rows the day before
/// held never reached it: the join costs what changed. A table's first
/// file (no live table) records nothing, so a catalog's first FULL is not
/// a million new applications.
extension SQLStoreBackend {
    /// The columns the log reads, by table.
    private static var loggedColumns: [String: [String]] {
        [
            "application_price": ["application_id", "storefront_id", "retail_price", CatalogTables.exportDateColumn],
            "application": ["application_id", "title", "version", "itunes_release_date", CatalogTables.exportDateColumn],
        ]
    }

    /// Whether the apply of `table` writes to the change log: a logged
    /// table whose file and live table both have the columns the log reads
    /// (asked before the apply creates the table or adds columns to it).
    func logsChanges(of table: StagedTable) throws -> Bool {
        guard let columns = Self.loggedColumns[table.target.table],
            Set(table.target.header.columns).isSuperset(of: columns),
            try applyConnection.tableExists(table.target.table)
        else { return false }
        return Set(try applyConnection.columnNames(of: table.target.table)).isSuperset(of: columns)
    }

    /// Records what the staged `table` changes, before it is applied, if
    /// `logsChanges(of:)` said so; returns the rows written to the log.
    func logChanges(of table: StagedTable) throws -> Int {
        let full = table.target.header.exportMode == .full
        let live = quoteIdentifier(table.target.table)
        let staging = quoteIdentifier(table.stagingName)
        let same = { (column: String) in self.dialect.sameValue("l.\(column)", "s.\(column)") }
        let connection = applyConnection
        var written = 0
        switch table.target.table {
        case "application_price":
            // A FULL file of prices is not compared yet: joining its 175M
            // rows (at 10^6 applications) to the catalog's costs half the
            // FULL again. docs/changes.md has the plan (compare only the
            // applications whose prices differ, found by digest).
            guard !full else { break }
            let prices = CatalogTables.priceChanges
            let key = "l.application_id = s.application_id AND l.storefront_id = s.storefront_id"
            written += try connection.change(
                """
                INSERT INTO \(prices) (application_id, storefront_id, price_before, price_after, export_date)
                SELECT s.application_id, s.storefront_id, l.retail_price, s.retail_price, s.export_date
                FROM \(staging) AS s LEFT JOIN \(live) AS l ON \(key)
                WHERE NOT (\(same("retail_price")))
                """, [])
        case "application":
            let apps = CatalogTables.appChanges
            let key = "l.application_id = s.application_id"
            let insert = "INSERT INTO \(apps) (application_id, kind, value_before, value_after, export_date)"
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'new', NULL, s.title, s.export_date
                FROM \(staging) AS s WHERE NOT EXISTS (SELECT 1 FROM \(live) AS l WHERE \(key))
                """, [])
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'version', l.version, s.version, s.export_date
                FROM \(staging) AS s JOIN \(live) AS l ON \(key)
                WHERE NOT (\(same("version"))) OR NOT (\(same("itunes_release_date")))
                """, [])
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'renamed', l.title, s.title, s.export_date
                FROM \(staging) AS s JOIN \(live) AS l ON \(key) WHERE NOT (\(same("title")))
                """, [])
            if full, let exportDate = table.firstExportDate {
                written += try connection.change(
                    """
                    \(insert)
                    SELECT l.application_id, 'removed', l.title, NULL, \(exportDate)
                    FROM \(live) AS l WHERE NOT EXISTS (SELECT 1 FROM \(staging) AS s WHERE \(key))
                    """, [])
            }
        default:
            break
        }
        return written
    }

    /// Deletes the changes older than `days` days before the newest export
    /// the log holds; returns how many.
    func pruneChanges(keepingDays days: Int) throws -> Int {
        let milliseconds = Int64(days) * 86_400_000
        var pruned = 0
        for log in [CatalogTables.priceChanges, CatalogTables.appChanges] {
            pruned += try applyConnection.change(
                """
                DELETE FROM \(log) WHERE export_date < (SELECT max(export_date) FROM \(log)) - \(milliseconds)
                """, [])
        }
        return pruned
    }
}
