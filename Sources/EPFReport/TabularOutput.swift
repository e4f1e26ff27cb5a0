import EPFCatalogRead
import Foundation

/// How a command prints its data: an aligned table, JSON or CSV.
package enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, csv
}

/// How a column is written for people (`--format table` and `csv`); JSON
/// keeps the values as they are, numbers as numbers.
package enum ColumnForm: Sendable {
    /// Seconds with two decimals (`0.04`).
    case seconds
    /// Epoch milliseconds (EPF's `export_date`) as a date:
    /// `2026-11-01T00:00:00Z`.
    case epochMilliseconds
    /// A stored ISO 8601 timestamp to the second.
    case timestampToTheSecond

    package func text(_ value: SQLValue) -> String? {
        switch (self, value) {
        case (.seconds, .real(let number)) where number.isFinite: return String(format: "%.2f", number)
        case (.seconds, .integer(let number)): return String(format: "%.2f", Double(number))
        case (.epochMilliseconds, .integer(let milliseconds)): return Timestamp.string(fromEpochMilliseconds: milliseconds)
        case (.timestampToTheSecond, .text(let text)): return Timestamp.toTheSecond(text)
        default: return value.textValue
        }
    }

    /// Whether the column lines up on the right, as numbers do.
    package var isNumeric: Bool { self == .seconds }
}

/// Rows with named columns, printed as an aligned table, CSV or JSON.
package struct TabularOutput: Sendable {
    package var columns: [String]
    package var rows: [[SQLValue]]
    /// How some columns are written in a table and in CSV, by name.
    package var forms: [String: ColumnForm]

    package init(columns: [String], rows: [[SQLValue]], forms: [String: ColumnForm] = [:]) {
        self.columns = columns
        self.rows = rows
        self.forms = forms
    }

    /// The cells of a row as a table or CSV writes them.
    private func texts(_ row: [SQLValue]) -> [String] {
        zip(columns, row).map { column, value in (forms[column].map { $0.text(value) } ?? value.textValue) ?? "" }
    }

    package func render(_ format: OutputFormat) -> String {
        switch format {
        case .table: return table()
        case .csv: return csv()
        case .json: return JSONText.array(rows.map { row in JSONText.object(zip(columns, row).map { ($0, JSONText.value($1)) }) }) + "\n"
        }
    }

    /// Columns padded to their widest cell in terminal columns
    /// (`DisplayWidth`: CJK and emoji take two), numbers right-aligned, two
    /// spaces between columns; only the line's trailing spaces are cut (a
    /// number column first keeps its padding).
    private func table() -> String {
        let cells = rows.map { texts($0).map { $0.replacingOccurrences(of: "\n", with: "⏎") } }
        var widths = columns.map(DisplayWidth.of)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        func line(_ values: [String], numeric: [Bool]) -> String {
            var text = zip(values.indices, values).map { index, value in
                let padding = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(value)))
                return numeric[index] ? padding + value : value + padding
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        let numeric = columns.indices.map { index in
            if let form = forms[columns[index]] { return form.isNumeric }
            return !rows.isEmpty
                && rows.allSatisfy { row in
                    switch row[index] {
                    case .integer, .real, .null: return true
                    case .text: return false
                    }
                }
        }
        var text = line(columns, numeric: numeric) + "\n"
        for row in cells { text += line(row, numeric: numeric) + "\n" }
        return text
    }

    private func csv() -> String {
        func field(_ value: String) -> String {
            guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        var text = columns.map(field).joined(separator: ",") + "\n"
        for row in rows {
            text += texts(row).map(field).joined(separator: ",") + "\n"
        }
        return text
    }
}

/// JSON text built in a fixed key order (JSONEncoder's dictionaries have
/// none), for output people and scripts read.
package enum JSONText {
    package static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? (value.textValue ?? "null") : "null"
        case .text(let text): return string(text)
        }
    }

    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    package static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }

    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
