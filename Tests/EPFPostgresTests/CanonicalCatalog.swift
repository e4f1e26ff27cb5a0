import EPFCatalog
import EPFFormat
import EPFPostgres
import EPFTestSupport
import Foundation
import Testing

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
        let db = try RawSQLiteReader(path: path)
        let info = try db.rows(
            "SELECT table_name, feed, export_mode, export_date, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name")
        tableInfo = info.map { Self.sortedJSON($0.map { $0.textForm }) }
        for row in info {
            let name = row[0].textForm!
            let types = Self.kinds(fromInfoColumns: row[4].textForm!)
            let (columns, values) = try db.query("SELECT * FROM \(quoteIdentifier(name))")
            var rows: [[String?]] = []
            for value in values {
                rows.append(
                    zip(columns, value).map { column, stored in
                        let type = types[column] ?? ColumnType(declared: "TEXT")
                        let text = stored.textForm
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
            "SELECT table_name, feed, export_mode, export_date::text, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name"
        )
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
        unfit = try connection.query("SELECT table_name || '.' || column_name || '=' || value FROM epf_unfit_values").map { $0[0]! }
            .sorted()
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

extension StoredValue {
    /// The value as text, as the comparison reads a SQLite value: nil for
    /// NULL, numbers in Swift's form, text and blobs decoded as UTF-8.
    var textForm: String? {
        switch self {
        case .null: return nil
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let bytes), .blob(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }
}
