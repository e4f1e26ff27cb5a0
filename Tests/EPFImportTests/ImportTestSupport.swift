import CSQLite
import EPFCatalog
import EPFSQLite
import EPFImport
import Foundation
import Testing

/// Where the test files and the sample feeds are.
enum Fixtures {
    /// `SampleFeeds/` at the repository root, found from this file's path
    /// (`Tests/EPFImportTests/<file>` → `../../SampleFeeds`).
    static let sampleFeeds: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("SampleFeeds")

    static func feed(_ name: String) -> URL { sampleFeeds.appendingPathComponent(name) }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}

/// Runs `body` with a new, empty folder of its own under the system's
/// temporary directory, and removes the folder afterwards.
func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("epf-importtests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Plans `paths` and imports them into the catalog at `catalog` with the real
/// importer; the store is closed when this returns.
func runImport(_ paths: [String], catalog: String, options: ImportOptions = ImportOptions()) throws -> [FileReport] {
    let store = try SQLiteCatalogStore(path: catalog)
    let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter())
    return Importer(store: store, options: options).run(plan)
}

/// Copies a sample feed folder into `folder` (keeping its name, so the copy
/// is still recognised as a feed) and returns the copy.
func copyFeed(_ name: String, into folder: URL) throws -> URL {
    let copy = folder.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.copyItem(at: Fixtures.feed(name), to: copy)
    return copy
}

/// Writes a file with Foundation.
func write(_ bytes: [UInt8], to url: URL) throws {
    try Data(bytes).write(to: url)
}

/// Builds the bytes of a small table file: rows of text fields, each ended
/// by 0x02 0x0A, fields joined by 0x01.
func tableFileBytes(
    columns: [String], types: [String], key: [String], mode: String, rows: [[String]], recordsWritten: Int? = nil
) -> [UInt8] {
    var lines = [
        "#" + columns.joined(separator: "\u{1}"),
        "#primaryKey:" + key.joined(separator: "\u{1}"),
        "#dbTypes:" + types.joined(separator: "\u{1}"),
        "#exportMode:" + mode,
        "##legal: invented test data",
    ]
    lines += rows.map { $0.joined(separator: "\u{1}") }
    lines.append("#recordsWritten:\(recordsWritten ?? rows.count)")
    return lines.flatMap { Array($0.utf8) + [0x02, 0x0A] }
}

// MARK: Reading a catalog back, byte for byte

/// A failed SQLite call of the test's own reader.
struct RawSQLiteError: Error, CustomStringConvertible {
    var description: String
}

/// A read-only SQLite connection of the tests' own, through the C API: text
/// is read as its stored bytes (no decoding that could hide a bad byte) and
/// every value keeps its storage class.
final class RawCatalog {
    private let handle: OpaquePointer

    init(path: String) throws {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil)
        guard code == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw RawSQLiteError(description: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = connection
    }

    deinit { sqlite3_close_v2(handle) }

    /// Column names and rows of a query.
    func query(_ sql: String) throws -> (columns: [String], rows: [[StoredValue]]) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[StoredValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
            rows.append((0..<count).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: return .null
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    guard length > 0, let text = sqlite3_column_text(statement, column) else { return .text([]) }
                    return .text(Array(UnsafeBufferPointer(start: text, count: length)))
                default:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    guard length > 0, let blob = sqlite3_column_blob(statement, column) else { return .blob([]) }
                    return .blob(Array(UnsafeRawBufferPointer(start: blob, count: length)))
                }
            })
        }
        return (columns, rows)
    }

    func rows(_ sql: String) throws -> [[StoredValue]] { try query(sql).rows }

    /// The EPF tables of the catalog: every table whose name starts neither
    /// with `epf_` nor with `sqlite_`.
    func liveTables() throws -> [String] {
        try rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.string }
            .filter { !$0.hasPrefix("epf_") && !$0.hasPrefix("sqlite_") }
    }

    /// Names of the columns of `table`, in table order.
    func columns(of table: String) throws -> [String] {
        try query("SELECT * FROM \(sqlName(table)) LIMIT 0").columns
    }
}

/// `"name"`, quoted for SQL.
func sqlName(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Everything a reader of the catalog sees: the live tables with their
/// columns and rows, and what the importer knows of them (`epf_table_info`).
struct CatalogSnapshot: Equatable, CustomStringConvertible {
    struct Table: Equatable {
        var columns: [String]
        var rows: [[StoredValue]]
    }

    var tableNames: [String]
    var tables: [String: Table]
    var tableInfo: [[StoredValue]]

    init(path: String) throws {
        let catalog = try RawCatalog(path: path)
        tableNames = try catalog.liveTables()
        var tables: [String: Table] = [:]
        for name in tableNames {
            let result = try catalog.query("SELECT * FROM \(sqlName(name))")
            tables[name] = Table(columns: result.columns, rows: result.rows.sorted(by: StoredValue.rowOrder))
        }
        self.tables = tables
        tableInfo = try catalog.rows("SELECT * FROM epf_table_info ORDER BY table_name")
    }

    var description: String {
        tableNames.map { "\($0): \(tables[$0]?.rows.count ?? 0) rows" }.joined(separator: ", ")
    }
}

/// One row of `epf_journal`, the columns the tests look at.
struct JournalRow: Equatable {
    var feed: String?
    var feedDate: String?
    var table: String
    var exportDate: Int64?
    var mode: String?
    var rows: Int64
    var repairedRows: Int64
    var skippedRows: Int64
    var sourcePath: String
    var status: String
    var message: String?

    static func all(in path: String) throws -> [JournalRow] {
        try RawCatalog(path: path).rows(
            """
            SELECT feed, feed_date, table_name, export_date, mode, rows, repaired_rows, skipped_rows, source_path,
                status, message FROM epf_journal ORDER BY id
            """
        ).map { row in
            JournalRow(
                feed: row[0].string, feedDate: row[1].string, table: row[2].string ?? "", exportDate: row[3].integer,
                mode: row[4].string, rows: row[5].integer ?? -1, repairedRows: row[6].integer ?? -1,
                skippedRows: row[7].integer ?? -1, sourcePath: row[8].string ?? "", status: row[9].string ?? "",
                message: row[10].string)
        }
    }
}
