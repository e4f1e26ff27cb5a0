import EPFTestSupport
import Foundation

// An independent, deliberately simple reference for what a catalog must hold
// after importing EPF files. It shares no code with EPFFormat or EPFCatalog:
// it reads whole files as byte arrays, splits them the slow obvious way and
// applies FULL and INCREMENTAL files to dictionaries. Its values are
// `StoredValue`s (EPFTestSupport), what the raw SQLite reader gives back.

/// A reference reader error: the file does not have the shape the reference
/// expects of good input.
struct ReferenceError: Error, CustomStringConvertible {
    var description: String
}

/// One table file as the reference reads it.
struct ReferenceFile {
    var columns: [String]
    var declaredTypes: [String]
    var primaryKey: [String]
    var mode: String
    var recordsWritten: Int?
    /// Data records, aligned to `columns`, in their stored forms.
    var records: [[StoredValue]]
    /// Records that had more fields than columns and were rejoined.
    var rejoinedRecords: Int

    /// Reads a whole table file.
    init(bytes: [UInt8]) throws {
        let rows = ReferenceFile.splitRows(bytes)
        guard let first = rows.first, first.first == UInt8(ascii: "#") else {
            throw ReferenceError(description: "no column row")
        }
        columns = ReferenceFile.splitFields(Array(first.dropFirst())).map { String(decoding: $0, as: UTF8.self) }
        var key: [String]?
        var types: [String]?
        var mode: String?
        var dataRows: [[UInt8]] = []
        for row in rows.dropFirst() {
            let text = String(decoding: row, as: UTF8.self)
            if text.hasPrefix("##") { continue }
            if let value = text.value(after: "#primaryKey:") {
                key = value.isEmpty ? [] : value.components(separatedBy: "\u{1}")
            } else if let value = text.value(after: "#dbTypes:") {
                types = value.components(separatedBy: "\u{1}")
            } else if let value = text.value(after: "#exportMode:") {
                mode = value
            } else if let value = text.value(after: "#recordsWritten:") {
                recordsWritten = Int(value)
            } else {
                dataRows.append(row)
            }
        }
        guard let types, types.count == columns.count, let mode else {
            throw ReferenceError(description: "no #dbTypes: with one type per column, or no #exportMode:")
        }
        declaredTypes = types
        primaryKey = (key ?? []).filter(columns.contains)
        self.mode = mode
        let kinds = types.map(ReferenceKind.init(declared:))
        let keyColumns = Set(primaryKey.compactMap(columns.firstIndex(of:)))
        var rejoined = 0
        records = try dataRows.enumerated().map { number, row in
            var fields = ReferenceFile.splitFields(row)
            if fields.count > kinds.count {
                fields = try ReferenceFile.rejoin(fields, kinds: kinds)
                rejoined += 1
            }
            guard fields.count == kinds.count else {
                throw ReferenceError(description: "record \(number + 1) has \(fields.count) fields for \(kinds.count) columns")
            }
            return fields.indices.map { column in
                ReferenceFile.storedForm(fields[column], kind: kinds[column], isKey: keyColumns.contains(column))
            }
        }
        rejoinedRecords = rejoined
    }

    /// Rows: the bytes between `0x02 0x0A` terminators (a newline alone is
    /// data). Bytes after the last terminator would be a cut row; good files
    /// have none.
    static func splitRows(_ bytes: [UInt8]) -> [[UInt8]] {
        var rows: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x02 && bytes[index + 1] == 0x0A {
                rows.append(Array(bytes[start..<index]))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.count { rows.append(Array(bytes[start...])) }
        return rows
    }

    /// Offsets of the rows' first bytes, in file order.
    static func rowOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets = [0]
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x02 && bytes[index + 1] == 0x0A {
                index += 2
                if index < bytes.count { offsets.append(index) }
            } else {
                index += 1
            }
        }
        return offsets
    }

    /// Fields: the bytes between `0x01` separators.
    static func splitFields(_ row: [UInt8]) -> [[UInt8]] {
        row.split(separator: 0x01, omittingEmptySubsequences: false).map(Array.init)
    }

    /// A row with too many fields: the extra fields, with the 0x01 bytes
    /// between them, belong to a LONGTEXT/CLOB column: the first one after
    /// which the remaining fields fit their types (else the first one).
    static func rejoin(_ fields: [[UInt8]], kinds: [ReferenceKind]) throws -> [[UInt8]] {
        let extra = fields.count - kinds.count
        let candidates = kinds.indices.filter { kinds[$0] == .freeText }
        guard let firstCandidate = candidates.first else {
            throw ReferenceError(description: "\(fields.count) fields for \(kinds.count) columns and no LONGTEXT column")
        }
        func fitsAfter(_ column: Int) -> Bool {
            ((column + 1)..<kinds.count).allSatisfy { kinds[$0].accepts(fields[$0 + extra]) }
        }
        let column = candidates.first(where: fitsAfter) ?? firstCandidate
        let joined = Array(fields[column...(column + extra)].joined(separator: [0x01]))
        return Array(fields[..<column]) + [joined] + Array(fields[(column + extra + 1)...])
    }

    /// The stored form of one field, per the table in the issue.
    static func storedForm(_ field: [UInt8], kind: ReferenceKind, isKey: Bool) -> StoredValue {
        if field.isEmpty { return isKey ? .text([]) : .null }
        let text = String(decoding: field, as: UTF8.self)
        switch kind {
        case .integer:
            if let value = Int64(text) { return .integer(value) }
        case .boolean:
            if text == "1" { return .integer(1) }
            if text == "0" { return .integer(0) }
        case .decimal:
            if let value = Double(text), value.isFinite { return .real(value) }
        case .date:
            if let date = isoDate(text) { return .string(date) }
        case .text, .freeText:
            break
        }
        return .text(field)
    }

    /// `2012 03 06` → `2012-03-06`; `2012 03 06 10 00 00` →
    /// `2012-03-06 10:00:00`; `2005-09-06-00:00:00-Etc/GMT` →
    /// `2005-09-06 00:00:00`; nil for anything else.
    static func isoDate(_ text: String) -> String? {
        func allDigits(_ parts: [String], _ widths: [Int]) -> Bool {
            parts.count == widths.count
                && zip(parts, widths).allSatisfy { part, width in part.count == width && part.allSatisfy(\.isASCIIDigit) }
        }
        let spaced = text.components(separatedBy: " ")
        if allDigits(spaced, [4, 2, 2]) {
            return "\(spaced[0])-\(spaced[1])-\(spaced[2])"
        }
        if allDigits(spaced, [4, 2, 2, 2, 2, 2]) {
            return "\(spaced[0])-\(spaced[1])-\(spaced[2]) \(spaced[3]):\(spaced[4]):\(spaced[5])"
        }
        if text.hasSuffix("-Etc/GMT") {
            let stamp = String(text.dropLast("-Etc/GMT".count))
            let dateAndTime = stamp.components(separatedBy: "-")
            if dateAndTime.count == 4, allDigits(Array(dateAndTime[0...2]), [4, 2, 2]),
                allDigits(dateAndTime[3].components(separatedBy: ":"), [2, 2, 2])
            {
                return "\(dateAndTime[0])-\(dateAndTime[1])-\(dateAndTime[2]) \(dateAndTime[3])"
            }
        }
        return nil
    }
}

/// How the reference decodes a declared type.
enum ReferenceKind: Equatable {
    case integer, boolean, decimal, date, text, freeText

    init(declared: String) {
        let base = declared.prefix { $0 != "(" }.uppercased()
        switch base {
        case "BIGINT", "INTEGER", "INT", "TINYINT": self = .integer
        case "BOOLEAN": self = .boolean
        case "DECIMAL": self = .decimal
        case "DATETIME", "DATE", "TIMESTAMP": self = .date
        case "LONGTEXT", "CLOB": self = .freeText
        default: self = .text
        }
    }

    /// Whether a field is a valid value of this kind (empty fits all).
    func accepts(_ field: [UInt8]) -> Bool {
        if field.isEmpty { return true }
        let text = String(decoding: field, as: UTF8.self)
        switch self {
        case .integer: return Int64(text) != nil
        case .boolean: return text == "0" || text == "1"
        case .decimal: return Double(text) != nil
        case .date: return ReferenceFile.isoDate(text) != nil
        case .text, .freeText: return true
        }
    }
}

/// One catalog table in the reference: columns in table order and rows by key.
struct ReferenceTable {
    var columns: [String]
    var key: [String]
    /// Key values → column name → value.
    var rows: [[StoredValue]: [String: StoredValue]]

    /// Rows as value arrays in column order, sorted by key (then by value).
    var sortedRows: [[StoredValue]] {
        let keyIndexes = key.compactMap(columns.firstIndex(of:))
        return rows.values
            .map { row in columns.map { row[$0] ?? .null } }
            .sorted { lhs, rhs in
                let lk = keyIndexes.map { lhs[$0] }
                let rk = keyIndexes.map { rhs[$0] }
                if lk != rk { return StoredValue.rowOrder(lk, rk) }
                return StoredValue.rowOrder(lhs, rhs)
            }
    }
}

/// The reference catalog: FULL files replace their table, INCREMENTAL files
/// upsert by key, matching columns by name.
struct ReferenceCatalog {
    var tables: [String: ReferenceTable] = [:]

    mutating func apply(_ file: ReferenceFile, as name: String) {
        func keyOf(_ row: [String: StoredValue]) -> [StoredValue] {
            file.primaryKey.map { row[$0] ?? .null }
        }
        let incoming = file.records.map { record in
            Dictionary(uniqueKeysWithValues: zip(file.columns, record))
        }
        if file.mode == "FULL" || tables[name] == nil {
            var table = ReferenceTable(columns: file.columns, key: file.primaryKey, rows: [:])
            for (number, row) in incoming.enumerated() {
                // Without a key every row is its own.
                let key = file.primaryKey.isEmpty ? [StoredValue.integer(Int64(number))] : keyOf(row)
                table.rows[key] = row  // a repeated key: the last row wins
            }
            tables[name] = table
            return
        }
        var table = tables[name]!
        for column in file.columns where !table.columns.contains(column) {
            table.columns.append(column)  // added at the end; older rows get NULL
        }
        for row in incoming {
            let key = keyOf(row)
            var merged = table.rows[key] ?? [:]
            for (column, value) in row { merged[column] = value }  // columns the file lacks keep their values
            table.rows[key] = merged
        }
        tables[name] = table
    }
}

extension String {
    /// The rest of the string after `prefix`, if it starts with it.
    fileprivate func value(after prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
