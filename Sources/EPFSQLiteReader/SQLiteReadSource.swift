import EPFCatalogRead
import EPFTextSearch
import Foundation

/// A SQLite catalog as the read engine and the admin commands read it
/// (`Catalog`, `SQLiteCatalogAdmin`): a read-only connection, its prepared
/// statements (each query prepared once per connection, then reset and
/// bound again: a lookup is ~20 µs, and preparing showed in profiles), and
/// SQLite's spelling (`?1`, FTS5 `MATCH` on `epf_search_<table>`).
///
/// Opening never creates the file, and changes it only to undo what an
/// interrupted import left (`SQLiteDatabase.openForReading(path:)`), so it
/// answers from the last committed catalog.
///
/// Not thread-safe: one connection, used from one thread at a time.
package final class SQLiteReadSource: CatalogAdminSource {
    /// The read-only connection.
    package let database: SQLiteDatabase
    private var statements: [String: SQLiteStatement] = [:]
    /// The catalog file's device and inode when it was opened.
    private let file: (device: UInt64, inode: UInt64)?
    /// Whether `beginSnapshot` opened the transaction that is open.
    private var ownsSnapshot = false

    /// Opens the catalog at `path` read-only, answering from its last
    /// committed state. Throws when there is no file there, or when it is
    /// not a SQLite database.
    package init(path: String) throws(CatalogError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CatalogError(
                .notFound,
                detail: "\(path): no catalog there",
                hint: "Run `epf import` first, or name the catalog with --db or $EPF_DB")
        }
        guard !isFolder.boolValue else {
            throw CatalogError(
                .notFound,
                detail: "\(path) is a folder, not a catalog",
                hint: "Name the catalog file with --db (\((path as NSString).appendingPathComponent("catalog.sqlite")), say)")
        }
        file = Self.identity(of: path)
        // Fails early on a file that is not a SQLite database.
        database = try SQLiteDatabase.openForReading(path: path)
        // Pages of the catalog file are read through a memory map, not
        // copied by pread into each connection's own cache: the readers of
        // one process (epf-server's pool) share the system's page cache.
        // scripts/load-test (2 cores): /lookup 7,800-8,200 -> 12,100-12,500
        // requests/s, p99 11 -> 5 ms.
        // Only reads use it (the connection is read-only); SQLite maps
        // again when an import grows or shrinks the file. Best effort: a
        // SQLite built without mmap ignores it.
        try? database.execute("PRAGMA mmap_size = \(Self.mmapBytes)")
    }

    /// The most of the catalog file a connection maps (1 GiB).
    static let mmapBytes = 1 << 30

    package var displayName: String { database.path }

    /// The path still names the file the connection opened: not removed,
    /// not replaced by another (which the connection would not see).
    package var isStillThere: Bool {
        guard let file, let now = Self.identity(of: database.path) else { return false }
        return now == file
    }

    /// The device and inode of the file at `path`; nil when there is none.
    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    package func parameter(_ number: Int) -> String { "?\(number)" }

    /// SQLite's default collation (BINARY) is bytewise.
    package func bytewise(_ expression: String) -> String { expression }

    /// The IDs as a JSON array, read by `json_each` (built into SQLite
    /// since 3.38): SQLite looks each one up in the index, as it would for
    /// `IN (?, ?, ...)`, with one statement for any number of IDs.
    package func idList(_ expression: String, parameter number: Int) -> String {
        "\(expression) IN (SELECT value FROM json_each(\(parameter(number))))"
    }

    package func idListValue(_ ids: [Int64]) -> SQLValue {
        .text(SQLArguments.idList(ids, open: "[", close: "]"))
    }

    package func relations() throws(SQLiteError) -> Set<String> {
        Set(try database.rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')").compactMap { $0.first?.textValue })
    }

    package func columnNames(of table: String) throws(SQLiteError) -> [String] {
        try database.columnNames(of: table)
    }

    package func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (SQLiteRow) -> Void) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { statement.reset() }
        for index in 0..<arguments.count { statement.bind(arguments[index], at: Int32(index + 1)) }
        while try statement.step() { body(statement.row) }
    }

    /// One query after another: a statement costs no round trip here.
    package func forEachRow(_ batch: [ReadQuery], endingSnapshot: Bool, _ body: (Int, SQLiteRow) -> Void) throws(SQLiteError) {
        for (index, query) in batch.enumerated() {
            try forEachRow(query.sql, query.arguments) { row in body(index, row) }
        }
    }

    /// A read transaction: in WAL mode, a snapshot of the last commit.
    package func beginSnapshot() throws(SQLiteError) {
        guard !database.inTransaction else { return }
        try database.execute("BEGIN")
        ownsSnapshot = true
    }

    package func endSnapshot() {
        guard ownsSnapshot else { return }
        ownsSnapshot = false
        database.rollback()
    }

    // MARK: Search

    /// The table's declaration holds its version (`SearchIndex.isCurrent`).
    package func searchIndexIsCurrent(_ name: String) -> String {
        SearchIndex.isCurrentCondition(name)
    }

    /// FTS5 expressions (`SearchQuery`); the prefix-only matches are the
    /// prefix matches `NOT` the whole-word ones.
    package func searchMatch(_ term: String) throws(CatalogError) -> SearchMatch? {
        guard let prefix = SearchQuery.matchExpression(term), let words = SearchQuery.matchExpression(term, prefix: false),
            let tokens = SearchTokenizer().queryWords(term)
        else {
            return nil
        }
        return SearchMatch(words: words, prefixOnly: "(\(prefix)) NOT (\(words))", tokens: SearchWords(tokens))
    }

    package func searchTokens(_ text: String) -> [String] { SearchTokenizer().tokens(text) }

    /// The FTS5 table's rows joined to the application rows by rowid (the
    /// search rowid holds it: `SearchIndex.tableRowid`), in rowid order,
    /// which is search order.
    package func searchRows(index: String, application: String, match: String) -> SearchRowsSQL {
        SearchRowsSQL(
            from: """
                \(index) AS s CROSS JOIN \(application) AS a ON a.rowid = \(SearchIndex.tableRowid("s.rowid"))
                WHERE s.\(index) MATCH \(match)
                """,
            applicationID: "a.application_id", order: "s.rowid")
    }

    /// FTS5 walks the doclists in rowid order and stops after the page.
    package func searchPage(index: String, match: String, pageEnd: Int, _ page: (SearchPlan) throws(SQLiteError) -> [Int64])
        throws(SQLiteError)
        -> [Int64]
    {
        try page(.walk)
    }

    // MARK: Admin

    package func baseTables() throws(SQLiteError) -> [String] {
        try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            .compactMap { $0.first?.textValue }
    }

    package func secondsBetween(_ start: String, _ end: String) -> String {
        "round((julianday(\(end)) - julianday(\(start))) * 86400, 3)"
    }

    package func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        try database.readOnlyQuery(sql: sql)
    }

    /// The prepared statement for `sql`, prepared once per connection.
    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }
}
