// The enums of parquet.thrift (apache/parquet-format) this writer uses,
// with the spec's numbers.

/// `Type`: how values are stored.
package enum PhysicalType: Int32, Sendable {
    case boolean = 0, int32 = 1, int64 = 2, int96 = 3, float = 4, double = 5
    case byteArray = 6, fixedLenByteArray = 7
}

/// `ConvertedType`: the annotations older readers know, written beside the
/// logical type.
package enum ConvertedType: Int32, Sendable {
    case utf8 = 0, decimal = 5, timestampMillis = 9, int32 = 17, int64 = 18
}

/// `FieldRepetitionType`.
package enum FieldRepetitionType: Int32, Sendable {
    case required = 0, optional = 1, repeated = 2
}

/// `Encoding`.
package enum Encoding: Int32, Sendable {
    case plain = 0, plainDictionary = 2, rle = 3, bitPacked = 4, rleDictionary = 8
}

/// `CompressionCodec`.
package enum CompressionCodec: Int32, Sendable {
    case uncompressed = 0, snappy = 1, gzip = 2, zstd = 6
}

/// `PageType`.
package enum PageType: Int32, Sendable {
    case dataPage = 0, indexPage = 1, dictionaryPage = 2, dataPageV2 = 3
}
