import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// The change log, written by the apply in its transaction, once for every
/// SQL store (docs/changes.md, "The change log"):
///
/// - `epf_price_change`: a price of an application in a storefront that
///   changed, appeared (`price_before` NULL) or, at a FULL file, went
///   (`price_after` NULL), with the `export_date` of the file that showed
///   it;
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
    /// Whether the apply of `table` writes to the change log: a logged
    /// table whose file and live table both have the columns the log reads
    /// (asked before the apply creates the table or adds columns to it).
    func logsChanges(of table: StagedTable) throws -> Bool {
        guard let compared = ChangeLogColumns.compared[table.target.table] else { return false }
        let columns = ["application_id", CatalogTables.exportDateColumn] + compared
        guard
            Set(table.target.header.columns).isSuperset(of: columns),
            try applyConnection.tableExists(table.target.table)
        else { return false }
        return Set(try applyConnection.columnNames(of: table.target.table)).isSuperset(of: columns)
    }

    /// Records what the staged `table` changes, before it is applied, if
    /// `logsChanges(of:)` said so; returns the rows written to the log.
    ///
    /// A FULL file is not joined row by row (at 10^6 applications, 175M
    /// price rows: half the FULL again): only the applications that may
    /// differ are compared (`differingApplications`), listed in a table
    /// the statements join, dropped before the transaction ends.
    func logChanges(of table: StagedTable) throws -> Int {
        let full = table.target.header.exportMode == .full
        let live = quoteIdentifier(table.target.table)
        let staging = quoteIdentifier(table.stagingName)
        let same = { (column: String) in self.dialect.sameValue("l.\(column)", "s.\(column)") }
        let connection = applyConnection
        let isPrices = table.target.table == "application_price"
        let log = isPrices ? CatalogTables.priceChanges : CatalogTables.appChanges
        // The rows to compare, from staging (`s`) and from the live table
        // (`l`, for what a FULL lacks).
        var fromStaging = "\(staging) AS s"
        var fromLive = "\(live) AS l"
        // With a list, the condition that picks its applications' rows.
        var inStaging = ""
        var inLive = ""
        let list = quoteIdentifier(CatalogTables.staging(for: "changed_applications"))
        if full {
            guard let applications = try differingApplications(table, log: log), !applications.isEmpty else { return 0 }
            try connection.execute("DROP TABLE IF EXISTS \(list)")
            // Typed as the catalog's `application_id` (SQLite: no type), or
            // SQLite would not look the ids up in the tables' key indexes.
            let type = dialect.columnType(ColumnType(declared: "INTEGER"))
            try connection.execute("CREATE TABLE \(list) (application_id \(type))")
            for start in stride(from: 0, to: applications.count, by: 500) {
                let values = applications[start..<min(start + 500, applications.count)].map { "(\($0))" }.joined(separator: ", ")
                try connection.execute("INSERT INTO \(list) (application_id) VALUES \(values)")
            }
            // CROSS JOIN: the list first (SQLite keeps that order; it would
            // rather scan the table of millions for each of the list).
            fromStaging = "\(list) AS d CROSS JOIN \(staging) AS s"
            fromLive = "\(list) AS d CROSS JOIN \(live) AS l"
            inStaging = "s.application_id = d.application_id AND "
            inLive = "l.application_id = d.application_id AND "
        }
        var written = 0
        if isPrices {
            let key = "l.application_id = s.application_id AND l.storefront_id = s.storefront_id"
            let insert = "INSERT INTO \(log) (application_id, storefront_id, price_before, price_after, export_date)"
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, s.storefront_id, l.retail_price, s.retail_price, s.export_date
                FROM \(fromStaging) LEFT JOIN \(live) AS l ON \(key)
                WHERE \(inStaging)NOT (\(same("retail_price")))
                """, [])
            if full, let exportDate = table.firstExportDate {
                written += try connection.change(
                    """
                    \(insert)
                    SELECT l.application_id, l.storefront_id, l.retail_price, NULL, \(exportDate)
                    FROM \(fromLive) WHERE \(inLive)NOT EXISTS (SELECT 1 FROM \(staging) AS s WHERE \(key))
                    """, [])
            }
        } else {
            let key = "l.application_id = s.application_id"
            let insert = "INSERT INTO \(log) (application_id, kind, value_before, value_after, export_date)"
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'new', NULL, s.title, s.export_date
                FROM \(fromStaging) WHERE \(inStaging)NOT EXISTS (SELECT 1 FROM \(live) AS l WHERE \(key))
                """, [])
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'version', l.version, s.version, s.export_date
                FROM \(fromStaging) JOIN \(live) AS l ON \(key)
                WHERE \(inStaging)(NOT (\(same("version"))) OR NOT (\(same("itunes_release_date"))))
                """, [])
            written += try connection.change(
                """
                \(insert)
                SELECT s.application_id, 'renamed', l.title, s.title, s.export_date
                FROM \(fromStaging) JOIN \(live) AS l ON \(key) WHERE \(inStaging)NOT (\(same("title")))
                """, [])
            if full, let exportDate = table.firstExportDate {
                written += try connection.change(
                    """
                    \(insert)
                    SELECT l.application_id, 'removed', l.title, NULL, \(exportDate)
                    FROM \(fromLive) WHERE \(inLive)NOT EXISTS (SELECT 1 FROM \(staging) AS s WHERE \(key))
                    """, [])
            }
        }
        if full { try connection.execute("DROP TABLE \(list)") }
        return written
    }

    /// For a FULL file: the applications whose rows may differ from the
    /// catalog's, ascending. Those whose digest differs from the FULL
    /// before's (`ApplicationDigests`), and those an INCREMENTAL day since
    /// that FULL changed (in `log`). nil without the FULL before's digests
    /// (the first FULL since the catalog kept them, or after a resumed
    /// load): then the FULL records nothing.
    private func differingApplications(_ table: StagedTable, log: String) throws -> [Int64]? {
        guard let current = table.applicationDigests,
            let (previous, previousDate) = try storedApplicationDigests(of: table.target.table)
        else { return nil }
        var differing = Set(current.applicationsDiffering(from: previous))
        for row in try applyConnection.rows(
            "SELECT DISTINCT application_id FROM \(log) WHERE export_date > \(dialect.parameter(1))", [.integer(previousDate)])
        {
            if let application = row.first?.asInteger { differing.insert(application) }
        }
        return differing.sorted()
    }

    /// The application digests kept for `table`, with the date of the FULL
    /// file they were taken from.
    private func storedApplicationDigests(of table: String) throws -> (ApplicationDigests, Int64)? {
        let connection = applyConnection
        let condition = "WHERE table_name = \(dialect.parameter(1))"
        guard
            let date = try connection.scalar(
                "SELECT export_date FROM \(CatalogTables.applicationDigests) \(condition)", [.text(table)])?.asInteger,
            let digests = try connection.withBytes(
                "SELECT digests FROM \(CatalogTables.applicationDigests) \(condition)", [.text(table)], { ApplicationDigests(bytes: $0) }),
            let digests
        else { return nil }
        return (digests, date)
    }

    /// In the apply's transaction, for a FULL file of a logged table: its
    /// application digests replace the table's, or, when it has none (a
    /// resumed load), the table keeps none, so the next FULL compares
    /// nothing stale.
    func saveApplicationDigests(_ table: StagedTable) throws {
        guard table.target.header.exportMode == .full else { return }
        let connection = applyConnection
        try connection.change(
            "DELETE FROM \(CatalogTables.applicationDigests) WHERE table_name = \(dialect.parameter(1))", [.text(table.target.table)])
        guard let digests = table.applicationDigests, let exportDate = table.firstExportDate else { return }
        try connection.change(
            """
            INSERT INTO \(CatalogTables.applicationDigests) (digests, table_name, export_date, applications)
            VALUES (\(dialect.parameters(4)))
            """, bytes: digests.bytes, [.text(table.target.table), .integer(exportDate), .integer(Int64(digests.digests.count))])
    }

    /// Deletes the changes older than `days` days before the newest export
    /// the log holds; returns how many. Both ends are read from the
    /// `export_date` index, so an apply with nothing to prune reads a few
    /// pages, however long the log.
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
