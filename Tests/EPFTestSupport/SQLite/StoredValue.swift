/// A value in its stored form, as SQLite holds it (the case is the storage
/// class). Text is kept as bytes, so two texts are equal only when they are
/// equal byte for byte.
///
/// SQLite-specific: with `RawSQLiteReader`, this folder is what would move
/// to a SQLite test-support target of its own.
public enum StoredValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    /// Text of `text`'s UTF-8 bytes.
    public static func string(_ text: String) -> StoredValue { .text(Array(text.utf8)) }

    /// The text, if the value is valid UTF-8 text.
    public var string: String? {
        guard case .text(let bytes) = self else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The number, if the value is an integer.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// SQLite's name of the storage class: NULL, INTEGER, REAL, TEXT, BLOB.
    public var storageClass: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// The storage class and the value (long text cut at 80 bytes), for failure messages.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return "INTEGER \(value)"
        case .real(let value): return "REAL \(value)"
        case .text(let bytes):
            let shown = String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
            return "TEXT \(shown)\(bytes.count > 80 ? "… (\(bytes.count) bytes)" : "")"
        case .blob(let bytes): return "BLOB (\(bytes.count) bytes)"
        }
    }

    /// SQLite's order (BINARY collation): NULL, then numbers by value, then
    /// text by bytes, then blobs by bytes.
    public static func precedes(_ lhs: StoredValue, _ rhs: StoredValue) -> Bool {
        func rank(_ value: StoredValue) -> Int {
            switch value {
            case .null: return 0
            case .integer, .real: return 1
            case .text: return 2
            case .blob: return 3
            }
        }
        func number(_ value: StoredValue) -> Double {
            switch value {
            case .integer(let number): return Double(number)
            case .real(let number): return number
            default: return 0
            }
        }
        if rank(lhs) != rank(rhs) { return rank(lhs) < rank(rhs) }
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.text(let a), .text(let b)), (.blob(let a), .blob(let b)): return a.lexicographicallyPrecedes(b)
        case (.null, .null): return false
        default: return number(lhs) < number(rhs)
        }
    }

    /// Rows compared value by value, in `precedes` order.
    public static func rowOrder(_ lhs: [StoredValue], _ rhs: [StoredValue]) -> Bool {
        for (a, b) in zip(lhs, rhs) {
            if precedes(a, b) { return true }
            if precedes(b, a) { return false }
        }
        return lhs.count < rhs.count
    }
}
