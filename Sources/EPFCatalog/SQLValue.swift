/// A value as SQLite stores it.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as text, for tables and CSV (nil for NULL).
    public var textValue: String? {
        switch self {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return formatReal(number)
        case .text(let text): return text
        }
    }

    public var description: String { textValue ?? "NULL" }

    /// Shortest text that reads back as the same Double (`2.99`, not
    /// `2.9900000000000002`); integral values without a fraction.
    func formatReal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension SQLValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}
