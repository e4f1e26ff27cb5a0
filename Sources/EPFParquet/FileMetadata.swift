// The footer's structs (parquet.thrift's FileMetaData and what it holds),
// only the fields this writer sets, with the spec's field ids and types.

/// `FileMetaData`: the footer.
package struct FileMetaData: ThriftStruct, Sendable {
    package var version: Int32
    package var schema: [SchemaElement]
    package var numRows: Int64
    package var rowGroups: [RowGroup]
    package var keyValueMetadata: [KeyValue]?
    package var createdBy: String?
    /// One per leaf column, in schema order.
    package var columnOrders: [ColumnOrder]?

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: version)
        w.field(2, structList: schema)
        w.field(3, i64: numRows)
        w.field(4, structList: rowGroups)
        if let keyValueMetadata { w.field(5, structList: keyValueMetadata) }
        if let createdBy { w.field(6, string: createdBy) }
        if let columnOrders { w.field(7, structList: columnOrders) }
    }
}

/// `KeyValue`: application metadata.
package struct KeyValue: ThriftStruct, Sendable, Equatable {
    package var key: String
    package var value: String?

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, string: key)
        if let value { w.field(2, string: value) }
    }
}

/// `ColumnOrder`, a union; this writer only uses TYPE_ORDER (min/max in
/// each type's defined order: signed integers, unsigned bytes for strings).
package enum ColumnOrder: ThriftStruct, Sendable {
    case typeDefinedOrder

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, struct: ThriftEmptyStruct())
    }
}

/// `SchemaElement`: one node of the schema tree (the root, then the leaves).
package struct SchemaElement: ThriftStruct, Sendable, Equatable {
    package var type: PhysicalType?
    package var typeLength: Int32?
    package var repetitionType: FieldRepetitionType?
    package var name: String
    package var numChildren: Int32?
    package var convertedType: ConvertedType?
    package var scale: Int32?
    package var precision: Int32?
    package var logicalType: LogicalType?

    package init(
        type: PhysicalType? = nil, typeLength: Int32? = nil, repetitionType: FieldRepetitionType? = nil,
        name: String, numChildren: Int32? = nil, convertedType: ConvertedType? = nil,
        scale: Int32? = nil, precision: Int32? = nil, logicalType: LogicalType? = nil
    ) {
        self.type = type
        self.typeLength = typeLength
        self.repetitionType = repetitionType
        self.name = name
        self.numChildren = numChildren
        self.convertedType = convertedType
        self.scale = scale
        self.precision = precision
        self.logicalType = logicalType
    }

    package func write(to w: inout ThriftCompactWriter) {
        if let type { w.field(1, i32: type.rawValue) }
        if let typeLength { w.field(2, i32: typeLength) }
        if let repetitionType { w.field(3, i32: repetitionType.rawValue) }
        w.field(4, string: name)
        if let numChildren { w.field(5, i32: numChildren) }
        if let convertedType { w.field(6, i32: convertedType.rawValue) }
        if let scale { w.field(7, i32: scale) }
        if let precision { w.field(8, i32: precision) }
        if let logicalType { w.field(10, struct: logicalType) }
    }
}

/// `LogicalType`, a union: the cases this writer uses.
package enum LogicalType: ThriftStruct, Sendable, Equatable {
    /// STRING (1): UTF-8 text in a BYTE_ARRAY.
    case string
    /// DECIMAL (5): `DecimalType { 1: scale, 2: precision }`.
    case decimal(precision: Int32, scale: Int32)
    /// TIMESTAMP (8): `TimestampType { 1: isAdjustedToUTC, 2: unit }`, unit MILLIS.
    case timestampMillis(adjustedToUTC: Bool)
    /// INTEGER (10): `IntType { 1: bitWidth (i8), 2: isSigned }`.
    case integer(bitWidth: Int8, signed: Bool)

    package func write(to w: inout ThriftCompactWriter) {
        switch self {
        case .string:
            w.field(1, struct: ThriftEmptyStruct())
        case .decimal(let precision, let scale):
            w.field(5, struct: DecimalType(scale: scale, precision: precision))
        case .timestampMillis(let adjustedToUTC):
            w.field(8, struct: TimestampType(isAdjustedToUTC: adjustedToUTC))
        case .integer(let bitWidth, let signed):
            w.field(10, struct: IntType(bitWidth: bitWidth, isSigned: signed))
        }
    }

    private struct DecimalType: ThriftStruct {
        var scale: Int32
        var precision: Int32
        func write(to w: inout ThriftCompactWriter) {
            w.field(1, i32: scale)
            w.field(2, i32: precision)
        }
    }

    private struct TimestampType: ThriftStruct {
        var isAdjustedToUTC: Bool
        func write(to w: inout ThriftCompactWriter) {
            w.field(1, bool: isAdjustedToUTC)
            w.field(2, struct: MillisecondsUnit())
        }
    }

    /// `TimeUnit`, a union, as MILLIS (1: MilliSeconds, an empty struct).
    private struct MillisecondsUnit: ThriftStruct {
        func write(to w: inout ThriftCompactWriter) {
            w.field(1, struct: ThriftEmptyStruct())
        }
    }

    private struct IntType: ThriftStruct {
        var bitWidth: Int8
        var isSigned: Bool
        func write(to w: inout ThriftCompactWriter) {
            w.field(1, i8: bitWidth)
            w.field(2, bool: isSigned)
        }
    }
}

/// `RowGroup`.
package struct RowGroup: ThriftStruct, Sendable {
    package var columns: [ColumnChunk]
    /// The uncompressed size of all the column chunks' pages (headers included).
    package var totalByteSize: Int64
    package var numRows: Int64
    /// The offset of the row group's first page.
    package var fileOffset: Int64?
    package var totalCompressedSize: Int64?
    package var ordinal: Int16?

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, structList: columns)
        w.field(2, i64: totalByteSize)
        w.field(3, i64: numRows)
        if let fileOffset { w.field(5, i64: fileOffset) }
        if let totalCompressedSize { w.field(6, i64: totalCompressedSize) }
        if let ordinal { w.field(7, i16: ordinal) }
    }
}

/// `ColumnChunk`: where a column's chunk is; its metadata inline.
package struct ColumnChunk: ThriftStruct, Sendable {
    /// Deprecated by the spec: 0 when no ColumnMetaData is written outside
    /// the footer (never, here).
    package var fileOffset: Int64 = 0
    package var metaData: ColumnMetaData

    package func write(to w: inout ThriftCompactWriter) {
        w.field(2, i64: fileOffset)
        w.field(3, struct: metaData)
    }
}

/// `ColumnMetaData`.
package struct ColumnMetaData: ThriftStruct, Sendable {
    package var type: PhysicalType
    package var encodings: [Encoding]
    package var pathInSchema: [String]
    package var codec: CompressionCodec
    /// Values including nulls.
    package var numValues: Int64
    package var totalUncompressedSize: Int64
    package var totalCompressedSize: Int64
    package var dataPageOffset: Int64
    package var dictionaryPageOffset: Int64?
    package var statistics: Statistics?
    package var encodingStats: [PageEncodingStats]?

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: type.rawValue)
        w.field(2, i32List: encodings.map(\.rawValue))
        w.field(3, stringList: pathInSchema)
        w.field(4, i32: codec.rawValue)
        w.field(5, i64: numValues)
        w.field(6, i64: totalUncompressedSize)
        w.field(7, i64: totalCompressedSize)
        w.field(9, i64: dataPageOffset)
        if let dictionaryPageOffset { w.field(11, i64: dictionaryPageOffset) }
        if let statistics { w.field(12, struct: statistics) }
        if let encodingStats { w.field(13, structList: encodingStats) }
    }

    /// The same metadata with its page offsets moved by `delta` bytes (a
    /// chunk encoded on its own, then placed in the file).
    package func shifted(by delta: Int64) -> ColumnMetaData {
        var copy = self
        copy.dataPageOffset += delta
        copy.dictionaryPageOffset = dictionaryPageOffset.map { $0 + delta }
        return copy
    }
}

/// `PageEncodingStats`: how many pages of a kind use an encoding.
package struct PageEncodingStats: ThriftStruct, Sendable, Equatable {
    package var pageType: PageType
    package var encoding: Encoding
    package var count: Int32

    package func write(to w: inout ThriftCompactWriter) {
        w.field(1, i32: pageType.rawValue)
        w.field(2, i32: encoding.rawValue)
        w.field(3, i32: count)
    }
}

/// `Statistics`: null count and min/max in the current fields (min_value,
/// max_value: PLAIN encoding of the value, without a length for byte arrays,
/// ordered as the column order says); the deprecated min/max are not written.
package struct Statistics: ThriftStruct, Sendable, Equatable {
    package var nullCount: Int64?
    package var maxValue: [UInt8]?
    package var minValue: [UInt8]?

    package init(nullCount: Int64? = nil, maxValue: [UInt8]? = nil, minValue: [UInt8]? = nil) {
        self.nullCount = nullCount
        self.maxValue = maxValue
        self.minValue = minValue
    }

    package func write(to w: inout ThriftCompactWriter) {
        if let nullCount { w.field(3, i64: nullCount) }
        if let maxValue { w.field(5, binary: maxValue) }
        if let minValue { w.field(6, binary: minValue) }
    }
}
