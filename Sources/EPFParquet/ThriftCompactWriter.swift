/// The encoding half of Apache Thrift's compact protocol, as far as Parquet's
/// footer and page headers need it: structs (fields with delta-coded ids),
/// booleans, i8, i16, i32, i64 (zigzag varints), binary/string, lists.
///
/// A struct is written by `ThriftStruct.write(to:)`, which calls the `field`
/// methods in increasing field-id order; the writer remembers the last field
/// id of each open struct (the compact protocol codes ids as deltas from it)
/// and writes the stop byte that ends a struct.
package struct ThriftCompactWriter {
    /// The compact protocol's type codes (field headers and list headers).
    package enum TypeCode: UInt8 {
        case booleanTrue = 1
        case booleanFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12
    }

    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []
    private var lastFieldID: Int16 = 0
    private var enclosingFieldIDs: [Int16] = []

    package init() {}

    /// The bytes of `value` as a top-level struct (ending with its stop byte).
    package static func encode(_ value: some ThriftStruct) -> [UInt8] {
        var writer = ThriftCompactWriter()
        writer.writeTopLevel(value)
        return writer.bytes
    }

    /// Appends `value` as a top-level struct, its fields then the stop byte.
    package mutating func writeTopLevel(_ value: some ThriftStruct) {
        beginStruct()
        value.write(to: &self)
        endStruct()
    }

    // MARK: Fields

    package mutating func field(_ id: Int16, bool value: Bool) {
        fieldHeader(id, value ? .booleanTrue : .booleanFalse)
    }

    package mutating func field(_ id: Int16, i8 value: Int8) {
        fieldHeader(id, .byte)
        bytes.append(UInt8(bitPattern: value))
    }

    package mutating func field(_ id: Int16, i16 value: Int16) {
        fieldHeader(id, .i16)
        writeVarint(zigzag(Int64(value)))
    }

    package mutating func field(_ id: Int16, i32 value: Int32) {
        fieldHeader(id, .i32)
        writeVarint(zigzag(Int64(value)))
    }

    package mutating func field(_ id: Int16, i64 value: Int64) {
        fieldHeader(id, .i64)
        writeVarint(zigzag(value))
    }

    package mutating func field(_ id: Int16, binary value: [UInt8]) {
        fieldHeader(id, .binary)
        writeBinary(value)
    }

    package mutating func field(_ id: Int16, string value: String) {
        field(id, binary: Array(value.utf8))
    }

    package mutating func field(_ id: Int16, struct value: some ThriftStruct) {
        fieldHeader(id, .structure)
        beginStruct()
        value.write(to: &self)
        endStruct()
    }

    package mutating func field(_ id: Int16, i32List values: [Int32]) {
        fieldHeader(id, .list)
        listHeader(.i32, count: values.count)
        for value in values { writeVarint(zigzag(Int64(value))) }
    }

    package mutating func field(_ id: Int16, stringList values: [String]) {
        fieldHeader(id, .list)
        listHeader(.binary, count: values.count)
        for value in values { writeBinary(Array(value.utf8)) }
    }

    package mutating func field<S: ThriftStruct>(_ id: Int16, structList values: [S]) {
        fieldHeader(id, .list)
        listHeader(.structure, count: values.count)
        for value in values {
            beginStruct()
            value.write(to: &self)
            endStruct()
        }
    }

    // MARK: Encoding pieces

    /// A field header: the id as a delta from the previous field's in the
    /// high nibble when it is 1...15, else the type byte then the id as a
    /// zigzag varint.
    private mutating func fieldHeader(_ id: Int16, _ type: TypeCode) {
        let delta = Int(id) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            writeVarint(zigzag(Int64(id)))
        }
        lastFieldID = id
    }

    /// A list header: the size in the high nibble when below 15, else 0xF
    /// there and the size as a varint after.
    private mutating func listHeader(_ element: TypeCode, count: Int) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | element.rawValue)
        } else {
            bytes.append(0xF0 | element.rawValue)
            writeVarint(UInt64(count))
        }
    }

    private mutating func beginStruct() {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
    }

    private mutating func endStruct() {
        bytes.append(0)  // stop
        lastFieldID = enclosingFieldIDs.removeLast()
    }

    private mutating func writeBinary(_ value: [UInt8]) {
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// ULEB128: seven bits a byte, least significant first, high bit set on
    /// every byte but the last.
    package mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Zigzag: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
    package func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}

/// A Thrift struct that writes its set fields, in field-id order.
package protocol ThriftStruct {
    func write(to writer: inout ThriftCompactWriter)
}

/// A Thrift struct with no fields (StringType, MilliSeconds, TypeDefinedOrder ...).
package struct ThriftEmptyStruct: ThriftStruct, Sendable, Equatable {
    package init() {}
    package func write(to writer: inout ThriftCompactWriter) {}
}
