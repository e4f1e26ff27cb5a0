/// A value as SQLite stores it.
@usableFromInline
package enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as text, for tables and CSV (nil for NULL).
    package var textValue: String? {
        switch self {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return formatReal(number)
        case .text(let text): return text
        }
    }

    @usableFromInline
    package var description: String { textValue ?? "NULL" }

    /// Shortest text that reads back as the same Double (`2.99`, not
    /// `2.9900000000000002`); integral values without a fraction.
    func formatReal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension SQLValue: Encodable {
    @usableFromInline
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}

extension SQLValue {
    /// The value as an integer, if it is one.
    package var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The value as an integer: an integer, or text that spells one (a
    /// server that answers in text, such as PostgreSQL's).
    package var asInteger: Int64? {
        switch self {
        case .integer(let number): return number
        case .text(let text): return Int64(text)
        case .null, .real: return nil
        }
    }
}

extension SQLValue {
    /// Text, or NULL for nil.
    package static func optional(_ text: String?) -> SQLValue { text.map { .text($0) } ?? .null }
    /// An integer, or NULL for nil.
    package static func optional(_ number: Int64?) -> SQLValue { number.map { .integer($0) } ?? .null }
}
