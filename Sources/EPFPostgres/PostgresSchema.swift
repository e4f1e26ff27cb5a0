import EPFCatalogStore
import EPFFormat

/// How EPF columns become PostgreSQL columns.
///
/// | declared type                            | column      | a value that does not fit        |
/// |------------------------------------------|-------------|----------------------------------|
/// | BIGINT, INTEGER, INT, TINYINT, ...       | BIGINT      | NULL, counted, kept as text in `epf_unfit_values` |
/// | BOOLEAN                                  | BOOLEAN     | same                             |
/// | DECIMAL(p,s), NUMERIC, FLOAT, DOUBLE     | NUMERIC     | same                             |
/// | DATETIME, TIMESTAMP                      | TIMESTAMP   | same                             |
/// | DATE                                     | DATE        | same (also a time other than 00:00:00) |
/// | VARCHAR(n), CHAR, LONGTEXT, CLOB, other  | TEXT        | (all text fits)                  |
///
/// Every integer type is BIGINT: declared types drift between releases
/// (`application_id` was INTEGER, now BIGINT) and an INTEGER column would
/// refuse a later file. Widths are never limits (VARCHAR(n) is TEXT;
/// NUMERIC has no precision).
package enum PostgresSchema {
    /// The column holding each row's record number in its file, in staging
    /// tables only: "the last row of a key wins" needs the file order.
    package static let recordColumn = "epf_record"

    /// PostgreSQL's identifier limit, in bytes; longer names are cut by the
    /// server, so the importer refuses them instead.
    package static let maxIdentifierBytes = 63

    /// The column type for a declared EPF type.
    package static func columnType(for type: ColumnType) -> String {
        switch type.kind {
        case .integer: return "BIGINT"
        case .boolean: return "BOOLEAN"
        case .decimal: return "NUMERIC"
        case .date: return isDateOnly(type) ? "DATE" : "TIMESTAMP"
        case .text, .freeText, .unknown: return "TEXT"
        }
    }

    /// DATE (not DATETIME): the column holds days, no time.
    package static func isDateOnly(_ type: ColumnType) -> Bool {
        var base = Substring(type.declared)
        if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
        return base.filter { $0 != " " && $0 != "\t" }.uppercased() == "DATE"
    }

    /// Whether values of the type are written as they are (text columns):
    /// an empty key field is then the empty string, as in SQLite; in a typed
    /// key column it is NULL (keys are compared with NULLS NOT DISTINCT).
    package static func isText(_ type: ColumnType) -> Bool {
        switch type.kind {
        case .text, .freeText, .unknown: return true
        case .integer, .boolean, .decimal, .date: return false
        }
    }

    /// Refuses names PostgreSQL would cut.
    static func checkIdentifier(_ name: String, for table: String) throws(CatalogError) {
        guard name.utf8.count <= maxIdentifierBytes else {
            throw CatalogError(
                .usage,
                detail: "the name \(name) (for table \(table)) is longer than PostgreSQL's \(maxIdentifierBytes) bytes",
                hint: "Use a shorter --table-prefix")
        }
    }
}
