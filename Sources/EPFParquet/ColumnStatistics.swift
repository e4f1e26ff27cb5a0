#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The null count and min/max of a column's values: integers (INT32,
/// INT64, decimals, booleans as 0/1) signed, byte arrays unsigned
/// bytewise. A slice's buffer notes its values; a column chunk merges its
/// slices' (`merge(_:)`).
package struct ColumnStatistics: Sendable {
    package private(set) var nullCount = 0
    package private(set) var valueCount = 0
    package private(set) var minInteger = Int64.max
    package private(set) var maxInteger = Int64.min
    package private(set) var minBytes: [UInt8] = []
    package private(set) var maxBytes: [UInt8] = []
    /// Whether `minBytes`/`maxBytes` hold a value yet.
    private var hasBytes = false

    package init() {}

    @inline(__always)
    package mutating func noteNull() { nullCount += 1 }

    @inline(__always)
    package mutating func noteInteger(_ value: Int64) {
        valueCount += 1
        if value < minInteger { minInteger = value }
        if value > maxInteger { maxInteger = value }
    }

    /// A byte array value, counted (`counted` false: counted already, its
    /// bytes noted only when first seen, as a dictionary entry).
    @inline(__always)
    package mutating func noteBytes(_ bytes: UnsafeRawBufferPointer, counted: Bool = true) {
        if counted { valueCount += 1 }
        noteRange(bytes)
    }

    @inline(__always)
    package mutating func noteValueCount(_ count: Int) { valueCount += count }

    /// Adds the values `other` noted (a later slice of the same column chunk).
    package mutating func merge(_ other: ColumnStatistics) {
        nullCount += other.nullCount
        valueCount += other.valueCount
        minInteger = min(minInteger, other.minInteger)
        maxInteger = max(maxInteger, other.maxInteger)
        if other.hasBytes {
            other.minBytes.withUnsafeBytes { noteRange($0) }
            other.maxBytes.withUnsafeBytes { noteRange($0) }
        }
    }

    /// Forgets every value, keeping the buffers' capacity.
    package mutating func removeAll() {
        self = ColumnStatistics(keeping: self)
    }

    private init(keeping old: ColumnStatistics) {
        minBytes = old.minBytes
        maxBytes = old.maxBytes
        minBytes.removeAll(keepingCapacity: true)
        maxBytes.removeAll(keepingCapacity: true)
    }

    /// The Thrift statistics of a column of `layout`: the null count and,
    /// when there are values, min and max in their PLAIN form (byte arrays
    /// without their length).
    package func thrift(_ layout: ColumnLayout) -> Statistics {
        var statistics = Statistics(nullCount: Int64(nullCount))
        guard valueCount > 0 else { return statistics }
        switch layout.physicalType {
        case .boolean:
            statistics.minValue = [UInt8(minInteger)]
            statistics.maxValue = [UInt8(maxInteger)]
        case .int32:
            statistics.minValue = PlainEncoder.bytes(Int32(minInteger))
            statistics.maxValue = PlainEncoder.bytes(Int32(maxInteger))
        case .int64:
            statistics.minValue = PlainEncoder.bytes(minInteger)
            statistics.maxValue = PlainEncoder.bytes(maxInteger)
        case .fixedLenByteArray:
            var minimum: [UInt8] = []
            var maximum: [UInt8] = []
            PlainEncoder.appendBigEndian(minInteger, width: layout.fixedWidth!, to: &minimum)
            PlainEncoder.appendBigEndian(maxInteger, width: layout.fixedWidth!, to: &maximum)
            statistics.minValue = minimum
            statistics.maxValue = maximum
        case .byteArray:
            statistics.minValue = minBytes
            statistics.maxValue = maxBytes
        case .int96, .float, .double:
            preconditionFailure("no column of this writer is \(layout.physicalType)")
        }
        return statistics
    }

    @inline(__always)
    private mutating func noteRange(_ bytes: UnsafeRawBufferPointer) {
        if !hasBytes {
            hasBytes = true
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
            // Most values differ in their first eight bytes: compared as one
            // big-endian word, without calling memcmp.
            if common >= 8 {
                let x = UInt64(bigEndian: a.loadUnaligned(as: UInt64.self))
                let y = UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))
                if x != y { return x < y ? -1 : 1 }
            }
            if common > 0 {
                let order = memcmp(a.baseAddress!, b.baseAddress!, common)
                if order != 0 { return Int(order) }
            }
            return a.count - b.count
        }
    }
}
