import EPFFormat

/// How EPF columns become SQLite columns.
///
/// | declared type                  | SQLite affinity | stored as                          |
/// |--------------------------------|-----------------|------------------------------------|
/// | BIGINT, INTEGER, INT, TINYINT  | INTEGER         | integer; non-numeric text kept     |
/// | BOOLEAN                        | INTEGER         | 0 / 1                              |
/// | DECIMAL(p,s)                   | REAL            | the nearest double                 |
/// | DATETIME, DATE, TIMESTAMP      | TEXT            | `YYYY-MM-DD[ HH:MM:SS]`            |
/// | VARCHAR, LONGTEXT, CLOB, other | TEXT            | the text, valid UTF-8              |
public enum SchemaMapping {
    /// The SQLite column type (and so affinity) for a declared EPF type.
    public static func affinity(for type: ColumnType) -> String {
        switch type.kind {
        case .integer, .boolean: return "INTEGER"
        case .decimal: return "REAL"
        case .date, .text, .freeText, .unknown: return "TEXT"
        }
    }

    /// The column list of a `CREATE TABLE`: `"name" AFFINITY, ...`.
    public static func columnDefinitions(_ header: EPFHeader) -> String {
        zip(header.columns, header.types)
            .map { "\(quoteIdentifier($0)) \(affinity(for: $1))" }
            .joined(separator: ", ")
    }

    /// A comma-separated list of quoted names.
    public static func columnList(_ names: [String]) -> String {
        names.map(quoteIdentifier).joined(separator: ", ")
    }
}
