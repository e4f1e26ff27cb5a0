import EPFCatalogCore
import EPFCatalogRead

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
package enum LookupIndex {
    /// The column looked up by.
    package static let column = "application_id"

    /// Whether a table with `key` gets the index: `application_id` is in its
    /// key but does not lead it (a leading key column is served by the key).
    package static func applies(toKey key: [String]) -> Bool {
        key.count > 1 && key.dropFirst().contains(column)
    }

    /// Creates the index on `table` (staging or live) unless an index on
    /// exactly that column exists already.
    package static func build(on table: String, catalogTable: String, key: [String], in connection: some SQLConnection) throws {
        guard applies(toKey: key), try connection.index(on: table, columns: [column], uniqueOnly: false) == nil else { return }
        let name = try connection.freeIndexName(base: "\(catalogTable)_by_\(column)")
        try connection.execute("CREATE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table)) (\(quoteIdentifier(column)))")
    }
}
