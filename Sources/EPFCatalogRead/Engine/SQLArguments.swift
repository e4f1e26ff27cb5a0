import EPFCatalogCore

/// The values bound to a read query's parameters (`?1`/`$1` first), at
/// most four, held inline: a lookup runs several queries per application,
/// and an array for each would be a heap allocation each time.
@usableFromInline
package struct SQLArguments: Sendable {
    /// How many values there are.
    @inlinable package var count: Int { stored }
    @usableFromInline var stored: Int
    @usableFromInline var values: (SQLValue, SQLValue, SQLValue, SQLValue)

    /// The most values a query takes.
    @usableFromInline
    package static let capacity = 4

    /// No values.
    @inlinable
    package init() {
        stored = 0
        values = (.null, .null, .null, .null)
    }

    /// One value.
    @inlinable
    package init(_ first: SQLValue) {
        self.init()
        append(first)
    }

    /// Two values.
    @inlinable
    package init(_ first: SQLValue, _ second: SQLValue) {
        self.init(first)
        append(second)
    }

    /// Adds the value of the next parameter.
    @inlinable
    package mutating func append(_ value: SQLValue) {
        switch count {
        case 0: values.0 = value
        case 1: values.1 = value
        case 2: values.2 = value
        case 3: values.3 = value
        default: preconditionFailure("a read query takes at most \(Self.capacity) values")
        }
        stored += 1
    }

    /// The value of parameter `index + 1`.
    @inlinable
    package subscript(index: Int) -> SQLValue {
        precondition(index >= 0 && index < count, "no argument \(index)")
        switch index {
        case 0: return values.0
        case 1: return values.1
        case 2: return values.2
        default: return values.3
        }
    }
}

extension SQLArguments {
    /// `ids` written between `open` and `close`, comma-separated: a JSON
    /// array (`[1,2]`) for SQLite's `json_each`, an array literal (`{1,2}`)
    /// for PostgreSQL (`CatalogReadSource.idListValue`).
    package static func idList(_ ids: [Int64], open: String, close: String) -> String {
        var text = open
        text.reserveCapacity(ids.count * 11 + 2)
        for (index, id) in ids.enumerated() {
            if index > 0 { text += "," }
            text += String(id)
        }
        return text + close
    }
}
