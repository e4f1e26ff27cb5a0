import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What applying one staged table changed in its live table.
public struct ApplyOutcome: Sendable, Equatable, Codable {
    /// Rows the live table holds after the apply.
    public var rowsAfter: Int
    /// INCREMENTAL: rows whose key was new. FULL: every row.
    public var inserted: Int
    /// INCREMENTAL: rows that replaced a row with the same key and
    /// differed from it in a column other than `export_date`.
    public var updated: Int
    /// INCREMENTAL: rows the same as the catalog's row of their key in
    /// every column of the file but `export_date`: not written (an
    /// INCREMENTAL day repeats every change since the FULL). The catalog's
    /// row keeps the `export_date` of the export that gave it its values.
    public var unchanged: Int
    /// INCREMENTAL: columns the live table did not have yet.
    public var addedColumns: [String]
    /// Rows written to the change log (`epf_price_change`,
    /// `epf_app_change`): the prices and applications this file changed.
    public var changesLogged: Int

    package init(rowsAfter: Int, inserted: Int, updated: Int, unchanged: Int = 0, addedColumns: [String], changesLogged: Int = 0) {
        self.rowsAfter = rowsAfter
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.addedColumns = addedColumns
        self.changesLogged = changesLogged
    }
}
