import EPFCatalogCore

/// What `epf tables`, `epf history` and `epf sql` read from a catalog,
/// whatever backend holds it (`CatalogAdminEngine` over the backend's
/// `CatalogAdminSource`). Never writes.
///
/// Not thread-safe: one connection, used from one thread at a time.
package protocol CatalogAdmin: AnyObject {
    /// The EPF tables of the catalog, by name (bytewise): every table
    /// outside the importer's own (`epf_...`) and the database's, and every
    /// table the importer lists as applied (`epf_table_info`: a table
    /// imported with `--table-prefix epf_` is an EPF table); only those
    /// whose name starts with `prefix` when it is given.
    func tables(prefix: String?) throws(CatalogError) -> [CatalogTableSummary]

    /// The import journal, newest first, for `epf history`: id,
    /// started_at, feed, feed_date, table_name, mode, status, rows,
    /// repaired_rows, skipped_rows, seconds, source_path, message (numbers
    /// as integers). Nil when the catalog has no journal yet.
    func journal(feed: String?, table: String?, status: JournalRecord.Status?, limit: Int) throws(CatalogError) -> [[SQLValue]]?

    /// Runs exactly one statement that only reads, for `epf sql`, and
    /// returns its column names and rows; refuses one that could write.
    func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]])
}

/// One EPF table of a catalog, for `epf tables`.
package struct CatalogTableSummary: Sendable, Equatable {
    /// The table's name in the catalog (with its prefix).
    package var name: String
    /// How many rows it has.
    package var rows: Int
    /// FULL or INCREMENTAL: how the last applied file was applied.
    package var lastMode: String?
    /// When the last file of this table was applied (ISO 8601).
    package var lastImport: String?
    /// The `export_date` of the last applied file (epoch milliseconds).
    package var exportDate: Int64?
    /// The file the last import read.
    package var source: String?
    /// For a table with a `storefront_id` column that an import filters:
    /// the storefronts it holds (`US, JP`), or `all`.
    package var storefronts: String?

    /// A summary; what the journal does not tell is nil.
    package init(
        name: String, rows: Int, lastMode: String? = nil, lastImport: String? = nil, exportDate: Int64? = nil, source: String? = nil
    ) {
        self.name = name
        self.rows = rows
        self.lastMode = lastMode
        self.lastImport = lastImport
        self.exportDate = exportDate
        self.source = source
    }
}
