#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The values of one column for one row group, as they arrive, row by row:
/// a definition level per row (1 a value, 0 NULL), the values already in
/// their PLAIN bytes (or dictionary entry numbers), the null count and the
/// min/max seen. Appending allocates nothing per value: the buffers grow
/// geometrically and keep their capacity across `removeAll()`.
///
/// Each `append` is for the column types its comment names (a precondition);
/// `appendNull()` is for every column.
public struct ParquetColumnBuffer: Sendable {
    public let column: ParquetColumn
    package let layout: ColumnLayout

    /// One per row: 1 a value, 0 NULL.
    package private(set) var levels: [UInt8] = []
    /// PLAIN bytes of the values (BOOLEAN: one byte, 0 or 1, a value; packed
    /// when the page is written). Empty while the column is dictionary-encoded.
    package private(set) var values: [UInt8] = []
    package private(set) var valueCount = 0
    package private(set) var nullCount = 0

    /// While dictionary-encoded: the distinct values and each value's entry.
    package private(set) var dictionary: ByteArrayDictionary?
    package private(set) var indices: [UInt32] = []
    private let dictionaryLimit: Int

    // Min and max of the values: integers (INT32, INT64, decimals, booleans
    // as 0/1) signed, byte arrays unsigned bytewise.
    package private(set) var minInteger = Int64.max
    package private(set) var maxInteger = Int64.min
    package private(set) var minBytes: [UInt8] = []
    package private(set) var maxBytes: [UInt8] = []

    /// The largest unscaled decimal the column's precision holds (nil: any Int64).
    private let decimalBound: Int64?

    package init(column: ParquetColumn, dictionaryLimit: Int) {
        self.column = column
        self.layout = ColumnLayout(column.type)
        self.dictionaryLimit = dictionaryLimit
        self.dictionary = column.dictionary ? ByteArrayDictionary() : nil
        if case .decimal(let precision, _) = column.type, precision <= 18 {
            var bound: Int64 = 1
            for _ in 0..<precision { bound *= 10 }
            decimalBound = bound - 1
        } else {
            decimalBound = nil
        }
    }

    /// Rows appended (values and NULLs).
    public var rowCount: Int { levels.count }

    /// The bytes the buffered rows take before encoding (values, entry
    /// numbers, dictionary, levels): what a caller cuts row groups by.
    public var bufferedBytes: Int {
        values.count + indices.count * MemoryLayout<UInt32>.size + (dictionary?.plain.count ?? 0) + levels.count
    }

    /// A NULL (an empty EPF field).
    @inline(__always)
    public mutating func appendNull() {
        levels.append(0)
        nullCount += 1
    }

    /// An `int64` value, or a `timestampMillis` one (milliseconds since 1970 UTC).
    @inline(__always)
    public mutating func append(_ value: Int64) {
        precondition(column.type == .int64 || column.type == .timestampMillis, "Int64 into \(column.type) column \(column.name)")
        PlainEncoder.append(value, to: &values)
        noteInteger(value)
    }

    /// An `int32` value.
    @inline(__always)
    public mutating func append(_ value: Int32) {
        precondition(column.type == .int32, "Int32 into \(column.type) column \(column.name)")
        PlainEncoder.append(value, to: &values)
        noteInteger(Int64(value))
    }

    /// A `boolean` value.
    @inline(__always)
    public mutating func append(_ value: Bool) {
        precondition(column.type == .boolean, "Bool into \(column.type) column \(column.name)")
        values.append(value ? 1 : 0)
        noteInteger(value ? 1 : 0)
    }

    /// A `decimal(p, s)` value, unscaled (2.990 in DECIMAL(9,3) is 2990).
    /// False, and nothing appended, when it has more than p digits.
    @inline(__always)
    public mutating func append(decimalUnscaled value: Int64) -> Bool {
        guard case .decimal = column.type else { preconditionFailure("decimal into \(column.type) column \(column.name)") }
        if let decimalBound {
            guard value <= decimalBound && value >= -decimalBound else { return false }
            PlainEncoder.append(value, to: &values)
        } else {
            PlainEncoder.appendBigEndian(value, width: layout.fixedWidth!, to: &values)
        }
        noteInteger(value)
        return true
    }

    /// A `string` value: its UTF-8 bytes (the caller's to make valid UTF-8;
    /// an empty string is a value, not a NULL).
    @inline(__always)
    public mutating func append(utf8 bytes: UnsafeRawBufferPointer) {
        precondition(column.type == .string, "text into \(column.type) column \(column.name)")
        levels.append(1)
        valueCount += 1
        if dictionary != nil {
            let (index, inserted) = dictionary!.insert(bytes)
            indices.append(index)
            if inserted {
                noteBytes(bytes)
                if dictionary!.plain.count > dictionaryLimit { fallBackToPlain() }
            }
        } else {
            PlainEncoder.appendByteArray(bytes, to: &values)
            noteBytes(bytes)
        }
    }

    /// A `string` value.
    public mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Empties the buffer for the next row group, keeping its capacity.
    public mutating func removeAll() {
        levels.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        valueCount = 0
        nullCount = 0
        minInteger = .max
        maxInteger = .min
        minBytes.removeAll(keepingCapacity: true)
        maxBytes.removeAll(keepingCapacity: true)
        if column.dictionary {
            if dictionary == nil { dictionary = ByteArrayDictionary() } else { dictionary!.removeAll() }
        }
    }

    @inline(__always)
    private mutating func noteInteger(_ value: Int64) {
        levels.append(1)
        valueCount += 1
        if value < minInteger { minInteger = value }
        if value > maxInteger { maxInteger = value }
    }

    @inline(__always)
    private mutating func noteBytes(_ bytes: UnsafeRawBufferPointer) {
        if valueCount == 1 || (dictionary != nil && dictionary!.count == 1) {
            minBytes.replaceSubrange(minBytes.indices, with: bytes)
            maxBytes.replaceSubrange(maxBytes.indices, with: bytes)
            return
        }
        if Self.compare(bytes, minBytes) < 0 {
            minBytes.replaceSubrange(minBytes.indices, with: bytes)
        } else if Self.compare(bytes, maxBytes) > 0 {
            maxBytes.replaceSubrange(maxBytes.indices, with: bytes)
        }
    }

    /// Byte strings ordered as unsigned bytes, a prefix first (memcmp, then
    /// the lengths): negative when `a` comes first, 0 when equal.
    @inline(__always)
    package static func compare(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Int {
        b.withUnsafeBytes { b in
            let common = min(a.count, b.count)
            if common > 0 {
                let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                if order != 0 { return Int(order) }
            }
            return a.count - b.count
        }
    }

    /// The dictionary grew past its limit: the chunk becomes PLAIN, the
    /// values so far written out from their entries.
    private mutating func fallBackToPlain() {
        guard let dictionary else { return }
        values.removeAll(keepingCapacity: true)
        for index in indices {
            dictionary.withEntry(Int(index)) { PlainEncoder.appendByteArray($0, to: &values) }
        }
        indices.removeAll()
        self.dictionary = nil
    }
}
