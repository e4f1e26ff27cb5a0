// The enums of parquet.thrift (apache/parquet-format) this writer uses,
// with the spec's numbers.

/// `Type`: how values are stored.
package enum PhysicalType: Int32, Sendable {
    case boolean = 0
    case int32 = 1
    case int64 = 2
    case int96 = 3
    case float = 4
    case double = 5
    case byteArray = 6
    case fixedLenByteArray = 7
}

/// `ConvertedType`: the annotations older readers know, written beside the
/// logical type.
package enum ConvertedType: Int32, Sendable {
    case utf8 = 0
    case decimal = 5
    case timestampMillis = 9
    case int32 = 17
    case int64 = 18
}

/// `FieldRepetitionType`.
package enum FieldRepetitionType: Int32, Sendable {
    case required = 0
    case optional = 1
    case repeated = 2
}

/// `Encoding`.
package enum Encoding: Int32, Sendable {
    case plain = 0
    case plainDictionary = 2
    case rle = 3
    case bitPacked = 4
    case rleDictionary = 8
}

/// `CompressionCodec`.
package enum CompressionCodec: Int32, Sendable {
    case uncompressed = 0
    case snappy = 1
    case gzip = 2
    case zstd = 6
}

/// `PageType`.
package enum PageType: Int32, Sendable {
    case dataPage = 0
    case indexPage = 1
    case dictionaryPage = 2
    case dataPageV2 = 3
}
