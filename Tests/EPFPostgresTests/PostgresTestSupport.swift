import CSQLite
import EPFCatalog
import EPFSQLite
import EPFFormat
import EPFImport
import EPFPostgres
import Foundation
import Testing

/// The PostgreSQL server the tests run against: `$EPF_TEST_POSTGRES`, a
/// URL whose user may create databases (`scripts/pg-test-server start`,
/// then `eval "$(scripts/pg-test-server env)"`; `.ci/run` does both).
enum TestServer {
    static let url: String? = {
        let value = ProcessInfo.processInfo.environment["EPF_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static var available: Bool { url != nil }

    static let skipReason: Comment =
        "no PostgreSQL server: EPF_TEST_POSTGRES is not set (scripts/pg-test-server start; eval \"$(scripts/pg-test-server env)\"; .ci/run does both)"

    /// The URL of database `name` on the test server.
    static func url(database name: String) -> String {
        let base = url!
        let withoutQuery = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        let schemeEnd = withoutQuery.range(of: "://")!.upperBound
        let authorityEnd = withoutQuery[schemeEnd...].firstIndex(of: "/") ?? withoutQuery.endIndex
        return String(withoutQuery[..<authorityEnd]) + "/" + name
    }
}

/// A database of its own for one test, dropped afterwards.
final class TestDatabase {
    let name: String
    let url: String
    var target: PostgresTarget { PostgresTarget(url: url) }

    /// A new database, empty or a copy of `template` (which nobody may be
    /// connected to).
    init(template: TestDatabase? = nil) throws {
        name = "epf_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        url = TestServer.url(database: name)
        let admin = try PostgresConnection(PostgresTarget(url: TestServer.url!))
        try admin.execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0.name)" } ?? ""))
    }

    deinit {
        if let admin = try? PostgresConnection(PostgresTarget(url: TestServer.url!)) {
            _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    func connect() throws -> PostgresConnection { try PostgresConnection(target) }

    func store(_ options: PostgresStoreOptions = PostgresStoreOptions(), restart: Bool = false) throws -> PostgresCatalogStore {
        try PostgresCatalogStore(target: target, options: options, restart: restart)
    }
}

/// `SampleFeeds/` at the repository root.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static func feed(_ name: String) -> String { root.appendingPathComponent("SampleFeeds").appendingPathComponent(name).path }
    static let feedsInOrder = ["itunes20261101", "pricing20261101", "popularity20261101", "itunes20261102"]
}

/// Runs `body` with a new, empty folder, removed afterwards.
func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-pgtests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Plans `paths` and imports them into `store` with the real importer.
func runImport(_ paths: [String], into store: any CatalogStore, options: ImportOptions = ImportOptions()) throws -> [FileReport] {
    let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter())
    return Importer(store: store, options: options).run(plan)
}

/// Imports `paths` into a new SQLite catalog in `folder` and into `database`
/// (both with the same options, PostgreSQL also with `parallelTables`).
func importIntoBoth(
    _ paths: [String], folder: URL, database: TestDatabase, options: ImportOptions = ImportOptions(),
    parallelTables: Int = 2, postgresOptions: PostgresStoreOptions = PostgresStoreOptions()
) throws -> (sqlite: String, sqliteReports: [FileReport], postgresReports: [FileReport]) {
    let path = folder.appendingPathComponent("catalog.sqlite").path
    let sqliteReports = try runImport(paths, into: try SQLiteCatalogStore(path: path), options: options)
    var parallel = options
    parallel.parallelTables = parallelTables
    let postgresReports = try runImport(paths, into: try database.store(postgresOptions), options: parallel)
    return (path, sqliteReports, postgresReports)
}

/// The bytes of a small table file.
func tableFileBytes(columns: [String], types: [String], key: [String], mode: String, rows: [[String]]) -> [UInt8] {
    tableFileBytes(columns: columns, types: types, key: key, mode: mode, rawRows: rows.map { $0.map { Array($0.utf8) } })
}

/// The bytes of a small table file whose fields are raw bytes (invalid
/// UTF-8, NUL).
func tableFileBytes(columns: [String], types: [String], key: [String], mode: String, rawRows: [[[UInt8]]]) -> [UInt8] {
    var bytes: [UInt8] = []
    func line(_ fields: [[UInt8]]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x01) }
            bytes += field
        }
        bytes += [0x02, 0x0A]
    }
    line(["#" + columns.joined(separator: "\u{1}")].map { Array($0.utf8) })
    line([Array("#primaryKey:".utf8) + Array(key.joined(separator: "\u{1}").utf8)])
    line([Array("#dbTypes:".utf8) + Array(types.joined(separator: "\u{1}").utf8)])
    line([Array("#exportMode:\(mode)".utf8)])
    line([Array("##legal: invented test data".utf8)])
    for row in rawRows { line(row) }
    line([Array("#recordsWritten:\(rawRows.count)".utf8)])
    return bytes
}

// MARK: Comparing the two stores

/// A catalog's content in one form both stores can be read into: every
/// value as text, decoded per the column's declared kind, so that SQLite's
/// integer 7 and PostgreSQL's BIGINT 7, SQLite's 2.99 and PostgreSQL's
/// NUMERIC 2.990, `2012-03-06` in both, compare equal. A value SQLite kept
/// as text because it did not fit its type reads as NULL, as PostgreSQL
/// stores it; those values are listed in `unfit` (`table.column=value`).
struct CanonicalCatalog: Equatable, CustomStringConvertible {
    struct Table: Equatable {
        var columns: [String]
        var rows: [[String?]]
    }

    var tables: [String: Table] = [:]
    var unfit: [String] = []
    /// `epf_table_info`: table, feed, mode, export_date, columns, key, source.
    var tableInfo: [[String?]] = []

    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]!.rows.count) rows" }.joined(separator: ", ")
    }

    /// The canonical text of a value of `kind`; nil for NULL or a value
    /// that does not fit the PostgreSQL column.
    static func canonical(_ text: String?, kind: ColumnType.Kind, dateOnly: Bool) -> String? {
        guard let text else { return nil }
        switch kind {
        case .integer: return Int64(text).map { String($0) }
        case .boolean:
            switch text {
            case "1", "t": return "true"
            case "0", "f": return "false"
            default: return nil
            }
        case .decimal: return Double(text).map { "\($0 == 0 ? 0 : $0)" }  // NUMERIC has no -0
        case .date:
            let isDate = text.utf8.count == 10 || text.utf8.count == 19
            guard isDate, text.range(of: #"^\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d)?$"#, options: .regularExpression) != nil else { return nil }
            let full = text.utf8.count == 10 ? text + " 00:00:00" : text
            if full.hasSuffix(":60") { return nil }
            if dateOnly && !full.hasSuffix(" 00:00:00") { return nil }
            return full
        case .text, .freeText, .unknown: return text
        }
    }

    static func kinds(fromInfoColumns json: String) -> [String: ColumnType] {
        struct Column: Decodable { var name: String; var type: String }
        let columns = (try? JSONDecoder().decode([Column].self, from: Data(json.utf8))) ?? []
        return Dictionary(columns.map { ($0.name, ColumnType(declared: $0.type)) }, uniquingKeysWith: { $1 })
    }

    /// Reads a SQLite catalog.
    init(sqlite path: String) throws {
        let db = try SQLiteReader(path: path)
        let info = try db.rows("SELECT table_name, feed, export_mode, export_date, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name")
        tableInfo = info.map { Self.sortedJSON($0.map { $0.text }) }
        for row in info {
            let name = row[0].text!
            let types = Self.kinds(fromInfoColumns: row[4].text!)
            let (columns, values) = try db.query("SELECT * FROM \(quoteIdentifier(name))")
            var rows: [[String?]] = []
            for value in values {
                rows.append(zip(columns, value).map { column, stored in
                    let type = types[column] ?? ColumnType(declared: "TEXT")
                    let text = stored.text
                    let canonical = Self.canonical(text, kind: type.kind, dateOnly: PostgresSchemaProbe.isDateOnly(type))
                    if canonical == nil, let text, !text.isEmpty, type.kind != .text, type.kind != .freeText, type.kind != .unknown {
                        unfit.append("\(name).\(column)=\(text)")
                    }
                    return canonical
                })
            }
            tables[name] = Table(columns: columns, rows: rows.sorted(by: Self.rowOrder))
        }
        unfit.sort()
    }

    /// Reads a PostgreSQL catalog.
    init(postgres connection: PostgresConnection) throws {
        let info = try connection.query(
            "SELECT table_name, feed, export_mode, export_date::text, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name")
        tableInfo = info.map(Self.sortedJSON)
        for row in info {
            let name = row[0]!
            let types = Self.kinds(fromInfoColumns: row[4]!)
            let columns = try connection.query(
                "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                [quoteIdentifier(name)]
            ).map { $0[0]! }
            let values = try connection.query("SELECT * FROM \(quoteIdentifier(name))")
            let rows = values.map { value in
                zip(columns, value).map { column, text in
                    let type = types[column] ?? ColumnType(declared: "TEXT")
                    return Self.canonical(text, kind: type.kind, dateOnly: PostgresSchemaProbe.isDateOnly(type))
                }
            }
            tables[name] = Table(columns: columns, rows: rows.sorted(by: Self.rowOrder))
        }
        unfit = try connection.query("SELECT table_name || '.' || column_name || '=' || value FROM epf_unfit_values").map { $0[0]! }.sorted()
    }

    /// A table info row with its columns JSON re-encoded with sorted keys
    /// (the encoder's key order is not fixed).
    static func sortedJSON(_ row: [String?]) -> [String?] {
        var row = row
        if let json = row[4], let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)),
            let sorted = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        {
            row[4] = String(decoding: sorted, as: UTF8.self)
        }
        return row
    }

    static func rowOrder(_ a: [String?], _ b: [String?]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            guard let x else { return true }
            guard let y else { return false }
            return x < y
        }
        return a.count < b.count
    }

    /// Records an issue per difference (at most 20), naming table, row and column.
    func expectEqual(to other: CanonicalCatalog, compareUnfit: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tables.keys.sorted() == other.tables.keys.sorted(), "tables", sourceLocation: sourceLocation)
        var differences = 0
        for name in tables.keys.sorted() {
            guard let mine = tables[name], let theirs = other.tables[name] else { continue }
            #expect(mine.columns == theirs.columns, "columns of \(name)", sourceLocation: sourceLocation)
            #expect(mine.rows.count == theirs.rows.count, "rows of \(name)", sourceLocation: sourceLocation)
            for (index, (a, b)) in zip(mine.rows, theirs.rows).enumerated() where a != b {
                differences += 1
                if differences <= 20 {
                    let columns = zip(mine.columns, zip(a, b)).filter { $1.0 != $1.1 }
                        .map { "\($0.0): \($0.1.0 ?? "NULL") vs \($0.1.1 ?? "NULL")" }
                    Issue.record("\(name) row \(index): \(columns.joined(separator: "; "))", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(differences == 0, "rows differing", sourceLocation: sourceLocation)
        #expect(tableInfo == other.tableInfo, "epf_table_info", sourceLocation: sourceLocation)
        if compareUnfit {
            #expect(unfit == other.unfit, "values that do not fit their type", sourceLocation: sourceLocation)
        }
    }
}

/// `PostgresSchema.isDateOnly`, for the comparison.
enum PostgresSchemaProbe {
    static func isDateOnly(_ type: ColumnType) -> Bool { PostgresSchema.isDateOnly(type) }
}

/// The journal rows both stores must agree on: table, mode, rows,
/// repaired, skipped, status, source (in order).
func journalSummary(sqlite path: String) throws -> [[String?]] {
    try SQLiteReader(path: path).rows(
        "SELECT table_name, mode, rows, repaired_rows, skipped_rows, status, source_path, details FROM epf_journal ORDER BY id"
    ).map { $0.map(\.text) }
}

func journalSummary(postgres connection: PostgresConnection) throws -> [[String?]] {
    try connection.query(
        "SELECT table_name, mode, rows::text, repaired_rows::text, skipped_rows::text, status, source_path, details FROM epf_journal ORDER BY id")
}

// MARK: A small SQLite reader

struct SQLiteReaderError: Error, CustomStringConvertible { var description: String }

/// A value as SQLite stored it.
enum StoredValue: Equatable {
    case null, integer(Int64), real(Double), text(String)

    var text: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let value): return value
        }
    }
}

final class SQLiteReader {
    private let handle: OpaquePointer

    init(path: String) throws {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw SQLiteReaderError(description: "cannot open \(path)")
        }
        handle = connection
    }

    deinit { sqlite3_close_v2(handle) }

    func query(_ sql: String) throws -> (columns: [String], rows: [[StoredValue]]) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteReaderError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[StoredValue]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<count).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: return .null
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                default:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    guard length > 0, let text = sqlite3_column_text(statement, column) else { return .text("") }
                    return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
                }
            })
        }
        return (columns, rows)
    }

    func rows(_ sql: String) throws -> [[StoredValue]] { try query(sql).rows }
}
