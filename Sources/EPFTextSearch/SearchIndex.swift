/// A full-text index the catalog keeps over one text column of one EPF
/// table, for searching by words in a name: which tables are indexed, and
/// the version of the spacing (`SearchText`) and order (`SearchOrder`) the
/// entries were made with. Each backend keeps the index its own way (the
/// SQLite store in an FTS5 table, the PostgreSQL store in a `tsvector`
/// column), from the same words: their SQL is theirs (EPFSQLiteReader's
/// `SearchIndex.swift` and EPFSQLite's `SearchIndex+Build.swift`;
/// EPFPostgresReader's `PostgresSearchIndex.swift` and EPFPostgres's
/// `PostgresSearchIndex+Build.swift`). The name of an index's table is the
/// catalog's (`tableName(for:)`, in EPFCatalogCore, which spells its
/// tables).
@usableFromInline
package struct SearchIndex: Sendable, Equatable {
    /// The EPF table (`application`); a catalog table `P<table>` made with
    /// `--table-prefix P` is indexed too.
    package var table: String
    /// The table's primary key, as EPF declares it: with the table name, it
    /// tells `application` from a prefixed table that ends with the same
    /// name (`artist_application`, keyed by two columns).
    package var key: [String]
    /// The column indexed.
    package var column: String

    /// The index of `column` of the EPF table `table`, keyed by `key`.
    package init(table: String, key: [String], column: String) {
        self.table = table
        self.key = key
        self.column = column
    }

    /// The indexes the catalog builds. (`application_detail.title`, the
    /// localized names, would be the next one: a large table, so measure.)
    package static let all: [SearchIndex] = [
        SearchIndex(table: "application", key: ["application_id"], column: "title"),
        SearchIndex(table: "artist", key: ["artist_id"], column: "name"),
    ]

    /// The version of the index (`SearchText`'s spacing and `SearchOrder`),
    /// written in each search table's declaration. Raise it when either
    /// changes: search tables of another version are rebuilt at the next
    /// apply of their table, and readers refuse them.
    package static let version = 2

    /// Bits of a search rowid that hold the table's rowid.
    package static let tableRowidBits = 40
    /// `search_rowid & tableRowidMask` is the table's rowid.
    package static let tableRowidMask: Int64 = (1 << 40) - 1

    /// SQL for the table rowid held in the search rowid expression `rowid`.
    package static func tableRowid(_ rowid: String) -> String { "(\(rowid) & \(tableRowidMask))" }

    /// The index of catalog table `table`, whose key is `key` and whose
    /// columns include `columns`, if the catalog indexes it.
    package static func index(forTable table: String, key: [String], columns: some Sequence<String>) -> SearchIndex? {
        let columns = Set(columns)
        return all.first { table.hasSuffix($0.table) && $0.key == key && columns.contains($0.column) }
    }
}
