import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What applying one staged table changed in its live table.
public struct ApplyOutcome: Sendable, Equatable, Codable {
    /// Rows the live table holds after the apply.
    public var rowsAfter: Int
    /// INCREMENTAL: rows whose key was new. FULL: every row.
    public var inserted: Int
    /// INCREMENTAL: rows that replaced a row with the same key.
    public var updated: Int
    /// INCREMENTAL: columns the live table did not have yet.
    public var addedColumns: [String]

    package init(rowsAfter: Int, inserted: Int, updated: Int, addedColumns: [String]) {
        self.rowsAfter = rowsAfter
        self.inserted = inserted
        self.updated = updated
        self.addedColumns = addedColumns
    }
}
