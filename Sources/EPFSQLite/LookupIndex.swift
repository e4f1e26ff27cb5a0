import EPFFormat
import EPFCatalog

/// Secondary indexes the catalog builds so that reading one application
/// does not scan a link table: a table whose compound key holds
/// `application_id` behind another column (`genre_application` keyed by
/// genre_id, application_id; `artist_application`) gets an index on
/// `application_id` alone, `<table>_by_application_id`.
///
/// Built like the key: after the bulk load, on the staging table of a FULL
/// file (the swap renames it into place with its table; names alternate
/// between `_by_application_id` and `_by_application_id2` because an index
/// keeps its name through `ALTER TABLE ... RENAME`), and at the apply of an
/// INCREMENTAL file when the live table lacks it.
enum LookupIndex {
    /// The column looked up by.
    static let column = "application_id"

    /// Whether a table with `key` gets the index: `application_id` is in its
    /// key but does not lead it (a leading key column is served by the key).
    static func applies(toKey key: [String]) -> Bool {
        key.count > 1 && key.dropFirst().contains(column)
    }

    /// Creates the index on `table` (staging or live) unless an index on
    /// exactly that column exists already.
    static func build(on table: String, catalogTable: String, key: [String], in database: SQLiteDatabase) throws(SQLiteError) {
        guard applies(toKey: key), try database.index(on: table, columns: [column], uniqueOnly: false) == nil else { return }
        let name = try database.freeIndexName(base: "\(catalogTable)_by_\(column)")
        try database.execute("CREATE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(quoteIdentifier(column)))")
    }
}
