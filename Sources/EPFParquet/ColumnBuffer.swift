/// The values of one column for one slice of a row group (a whole row
/// group, or part of one that `ParquetRowGroupEncoder` encodes before the
/// next part fills), as they arrive, row by row: a definition level per row
/// (1 a value, 0 NULL), the values already in their PLAIN bytes (or
/// dictionary entry numbers), the null count and the min/max seen.
/// Appending allocates nothing per value: the buffers grow geometrically
/// and keep their capacity across `removeAll()`.
///
/// A text column marked `dictionary` keeps its distinct values in a
/// dictionary while that pays: it falls back to PLAIN once the dictionary
/// passes the options' limit, or when, after `dictionarySample` values,
/// the dictionary and its entry numbers take as much room as the PLAIN
/// values would (mostly distinct values: titles, URLs, descriptions).
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
    /// PLAIN BYTE_ARRAY values: each one's length, so that pages are cut
    /// without reading `values` again (a cache miss a value, in long text).
    package private(set) var lengths: [UInt32] = []
    package private(set) var statistics = ColumnStatistics()

    /// While dictionary-encoded: the distinct values, each value's entry,
    /// and the bytes the values would take PLAIN.
    package private(set) var dictionary: ByteArrayDictionary?
    package private(set) var indices: [UInt32] = []
    package private(set) var plainBytes = 0
    private let dictionaryLimit: Int

    /// Values after which a dictionary that does not pay is dropped.
    package static let dictionarySample = 1024

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
    package var valueCount: Int { statistics.valueCount }
    package var nullCount: Int { statistics.nullCount }

    /// The bytes the buffered rows take before encoding (values, entry
    /// numbers, dictionary, levels): what a caller cuts row groups by.
    public var bufferedBytes: Int {
        values.count + indices.count * MemoryLayout<UInt32>.size + (dictionary?.plain.count ?? 0) + levels.count
    }

    /// A NULL (an empty EPF field).
    @inline(__always)
    public mutating func appendNull() {
        levels.append(0)
        statistics.noteNull()
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
        if dictionary != nil {
            statistics.noteValueCount(1)
            plainBytes += 4 + bytes.count
            let (index, inserted) = dictionary!.insert(bytes)
            indices.append(index)
            if inserted {
                statistics.noteBytes(bytes, counted: false)
                if dictionary!.plain.count > dictionaryLimit { fallBackToPlain() }
            }
            if indices.count == Self.dictionarySample && !dictionary!.pays(values: indices.count, plainBytes: plainBytes) {
                fallBackToPlain()
            }
        } else {
            PlainEncoder.appendByteArray(bytes, to: &values)
            lengths.append(UInt32(truncatingIfNeeded: bytes.count))
            statistics.noteBytes(bytes)
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
        lengths.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        plainBytes = 0
        statistics.removeAll()
        if column.dictionary {
            if dictionary == nil { dictionary = ByteArrayDictionary() } else { dictionary!.removeAll() }
        }
    }

    @inline(__always)
    private mutating func noteInteger(_ value: Int64) {
        levels.append(1)
        statistics.noteInteger(value)
    }

    /// The dictionary grew past its limit, or does not pay: the values so
    /// far are written out PLAIN from their entries, and the rest follow.
    private mutating func fallBackToPlain() {
        guard let dictionary else { return }
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(plainBytes)
        lengths.reserveCapacity(indices.count)
        for index in indices {
            dictionary.withEntry(Int(index)) {
                PlainEncoder.appendByteArray($0, to: &values)
                lengths.append(UInt32(truncatingIfNeeded: $0.count))
            }
        }
        indices.removeAll()
        plainBytes = 0
        self.dictionary = nil
    }
}
