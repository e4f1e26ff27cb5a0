/// What a column's declared `#dbTypes` entry means for decoding and storage.
///
/// Declared widths (`VARCHAR(1000)`, `DECIMAL(9,3)`) are kept for reference
/// only: real values exceed them, so they are never used as limits.
public struct ColumnType: Sendable, Hashable, Codable {
    /// How values of the column are decoded.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// BIGINT, INTEGER, INT, TINYINT, SMALLINT, MEDIUMINT.
        case integer
        /// BOOLEAN: `1`/`0` (also `true`/`false`).
        case boolean
        /// DECIMAL(p,s), NUMERIC, FLOAT, DOUBLE, REAL.
        case decimal
        /// DATETIME, DATE, TIMESTAMP: normalised to ISO 8601 text.
        case date
        /// VARCHAR(n), CHAR(n), TEXT, TIME: stored as text.
        case text
        /// LONGTEXT, CLOB: free text, where stray 0x01 bytes are rejoined.
        case freeText
        /// A type this version does not know: stored as text, with a warning.
        case unknown
    }

    /// The declared type exactly as the header spells it.
    public let declared: String
    /// How the column is decoded.
    public let kind: Kind

    /// Maps a declared type (case-insensitive, widths ignored) to a kind.
    package init(declared: String) {
        self.declared = declared
        var base = Substring(declared)
        if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
        let name = base.trimmingSpaces().uppercased()
        switch name {
        case "BIGINT", "INTEGER", "INT", "TINYINT", "SMALLINT", "MEDIUMINT":
            kind = .integer
        case "BOOLEAN", "BOOL":
            kind = .boolean
        case "DECIMAL", "NUMERIC", "FLOAT", "DOUBLE", "REAL":
            kind = .decimal
        case "DATETIME", "DATE", "TIMESTAMP":
            kind = .date
        case "VARCHAR", "CHAR", "TEXT", "TIME", "NVARCHAR":
            kind = .text
        case "LONGTEXT", "CLOB", "MEDIUMTEXT":
            kind = .freeText
        default:
            kind = .unknown
        }
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
