import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// How a SQL database spells what the shared algorithms write, where
/// databases differ.
package protocol SQLDialect: Sendable {
    /// Parameter `n` (1-based) of a statement: `?1`, `$1`.
    func parameter(_ n: Int) -> String
    /// The declared type of a catalog column for an EPF type (empty: none).
    func columnType(_ type: ColumnType) -> String
    /// After `CREATE UNIQUE INDEX ... (columns)`: what makes NULL keys equal
    /// (`NULLS NOT DISTINCT` in PostgreSQL; SQLite's key columns hold no
    /// NULL that matters, an empty key stays empty text).
    var uniqueIndexSuffix: String { get }
    /// After `SELECT ... FROM staging` in an upsert: SQLite needs `WHERE
    /// true` before `ON CONFLICT` and inserts in load order (the staging
    /// table kept every row); PostgreSQL's staging holds one row per key.
    var upsertSourceClause: String { get }
    /// The statement that runs the upsert `upsert` and answers one row:
    /// the rows it inserted, and the rows it wrote (inserted or updated),
    /// if the database can tell in the same statement; nil to count them
    /// otherwise.
    func countingChanges(_ upsert: String) -> String?
    /// Whether a row an INSERT adds gets a `rowid` above every row the
    /// table held (SQLite's rowid tables, below the largest rowid): the rows
    /// an upsert inserted are then counted by a range of rowids, not by a
    /// lookup of each staged key in the live table.
    var insertsAboveLargestRowid: Bool { get }
    /// The integer type of the importer's own tables (64-bit).
    var integerType: String { get }
    /// The key column of a table whose rows are numbered as inserted.
    var serialKey: String { get }
    /// The type of a column of bytes (`BYTEA`; SQLite's `BLOB`).
    var bytesType: String { get }
    /// The statement that deletes, from the staging table `staging`, every
    /// row of a repeated key (`key`: the quoted column list) but the one
    /// loaded last.
    func keepLastOfEachKey(in staging: String, key: String) -> String
    /// A query whose column `name` lists the catalog's tables.
    var tableNamesQuery: String { get }
    /// True when `left` and `right` hold the same value, NULL the same as
    /// NULL (`IS NOT DISTINCT FROM`; SQLite's `IS`).
    func sameValue(_ left: String, _ right: String) -> String
}

/// Standard SQL, where a database needs nothing of its own.
extension SQLDialect {
    package var uniqueIndexSuffix: String { "" }
    package var upsertSourceClause: String { "" }
    package func countingChanges(_ upsert: String) -> String? { nil }
    package var insertsAboveLargestRowid: Bool { false }
    package var integerType: String { "BIGINT" }
    package var bytesType: String { "BYTEA" }
    package func sameValue(_ left: String, _ right: String) -> String { "\(left) IS NOT DISTINCT FROM \(right)" }

    /// One column of a `CREATE TABLE` or `ADD COLUMN` for an EPF column.
    package func columnDefinition(_ name: String, _ type: ColumnType) -> String {
        let declared = columnType(type)
        return declared.isEmpty ? quoteIdentifier(name) : "\(quoteIdentifier(name)) \(declared)"
    }

    /// The column list of a `CREATE TABLE` for a header.
    package func columnDefinitions(_ header: EPFHeader) -> String {
        zip(header.columns, header.types).map(columnDefinition).joined(separator: ", ")
    }

    /// `p1, p2, ...` for `count` parameters.
    package func parameters(_ count: Int) -> String {
        (1...count).map(parameter).joined(separator: ", ")
    }
}
