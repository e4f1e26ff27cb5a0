/// A column's type as the lake stores it, and how each maps to Parquet.
///
/// | type | physical | logical (converted) |
/// | --- | --- | --- |
/// | `int64` | INT64 | none |
/// | `int32` | INT32 | none |
/// | `boolean` | BOOLEAN | none |
/// | `string` | BYTE_ARRAY | STRING (UTF8) |
/// | `decimal(p, s)`, p <= 18 | INT64 | DECIMAL(p, s) (DECIMAL) |
/// | `decimal(p, s)`, 19 <= p <= 38 | FIXED_LEN_BYTE_ARRAY, the fewest bytes for p digits | DECIMAL(p, s) (DECIMAL) |
/// | `timestampMillis` | INT64, milliseconds since 1970 UTC | TIMESTAMP(isAdjustedToUTC, MILLIS) (TIMESTAMP_MILLIS) |
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public enum ParquetType: Sendable, Hashable {
    /// A 64-bit signed integer.
    case int64
    /// A 32-bit signed integer.
    case int32
    /// True or false.
    case boolean
    /// UTF-8 text.
    case string
    /// An exact decimal: `precision` digits in all (1...38), `scale` of them
    /// after the point (0...precision); values are given unscaled.
    case decimal(precision: Int, scale: Int)
    /// An instant, in milliseconds since 1970-01-01T00:00:00Z.
    case timestampMillis
}

/// One column of a Parquet file: every column is OPTIONAL (a NULL where EPF
/// has an empty field), flat (no nesting).
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public struct ParquetColumn: Sendable, Hashable {
    /// The column's name in the file.
    public let name: String
    /// What its values are.
    public let type: ParquetType
    /// Dictionary-encode this column (strings only): for low-cardinality
    /// text (currencies, languages, storefronts). The writer falls back to
    /// PLAIN for a chunk whose dictionary grows past
    /// `ParquetWriterOptions.dictionaryPageSizeLimit`.
    public let dictionary: Bool

    /// A column `name` of `type`; `dictionary` for low-cardinality text.
    public init(_ name: String, _ type: ParquetType, dictionary: Bool = false) {
        self.name = name
        self.type = type
        self.dictionary = dictionary
    }
}

/// The columns of a Parquet file, in order; checked when made.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public struct ParquetSchema: Sendable, Hashable {
    /// The columns, in file order.
    public let columns: [ParquetColumn]

    /// Refuses no columns, an empty or repeated name, a decimal precision
    /// outside 1...38 or scale outside 0...precision, a dictionary on a
    /// non-string column.
    public init(_ columns: [ParquetColumn]) throws {
        guard !columns.isEmpty else { throw ParquetError.invalidSchema("no columns") }
        var names = Set<String>()
        for column in columns {
            guard !column.name.isEmpty else { throw ParquetError.invalidSchema("a column without a name") }
            guard names.insert(column.name).inserted else {
                throw ParquetError.invalidSchema("column \(column.name) twice")
            }
            if case .decimal(let precision, let scale) = column.type {
                guard (1...38).contains(precision), (0...precision).contains(scale) else {
                    throw ParquetError.invalidSchema("column \(column.name): DECIMAL(\(precision),\(scale))")
                }
            }
            if column.dictionary && column.type != .string {
                throw ParquetError.invalidSchema("column \(column.name): dictionary encoding is for strings only")
            }
        }
        self.columns = columns
    }

    /// The schema as the footer lists it: the root, then one leaf per column.
    package var elements: [SchemaElement] {
        [SchemaElement(name: "schema", numChildren: Int32(columns.count))]
            + columns.map { ColumnLayout($0.type).element(named: $0.name) }
    }
}

/// How a `ParquetType` is stored: physical type, width, annotations.
package struct ColumnLayout: Sendable, Equatable {
    package let physicalType: PhysicalType
    /// Bytes per value of FIXED_LEN_BYTE_ARRAY, INT32, INT64 (nil otherwise).
    package let fixedWidth: Int?
    package let logicalType: LogicalType?
    package let convertedType: ConvertedType?
    package let precision: Int?
    package let scale: Int?

    package init(_ type: ParquetType) {
        switch type {
        case .int64:
            self.init(.int64, width: 8)
        case .int32:
            self.init(.int32, width: 4)
        case .boolean:
            self.init(.boolean, width: nil)
        case .string:
            self.init(.byteArray, width: nil, logical: .string, converted: .utf8)
        case .decimal(let precision, let scale):
            let logical = LogicalType.decimal(precision: Int32(precision), scale: Int32(scale))
            if precision <= 18 {
                self.init(.int64, width: 8, logical: logical, converted: .decimal, precision: precision, scale: scale)
            } else {
                self.init(
                    .fixedLenByteArray, width: Self.decimalBytes(precision: precision), logical: logical,
                    converted: .decimal, precision: precision, scale: scale)
            }
        case .timestampMillis:
            self.init(.int64, width: 8, logical: .timestampMillis(adjustedToUTC: true), converted: .timestampMillis)
        }
    }

    private init(
        _ physical: PhysicalType, width: Int?, logical: LogicalType? = nil, converted: ConvertedType? = nil,
        precision: Int? = nil, scale: Int? = nil
    ) {
        physicalType = physical
        fixedWidth = width
        logicalType = logical
        convertedType = converted
        self.precision = precision
        self.scale = scale
    }

    package func element(named name: String) -> SchemaElement {
        SchemaElement(
            type: physicalType,
            typeLength: physicalType == .fixedLenByteArray ? fixedWidth.map(Int32.init) : nil,
            repetitionType: .optional, name: name, convertedType: convertedType,
            scale: scale.map(Int32.init), precision: precision.map(Int32.init), logicalType: logicalType)
    }

    /// The fewest bytes whose two's complement holds every `precision`-digit
    /// integer: n bytes hold floor(log10(2^(8n-1) - 1)) digits.
    package static func decimalBytes(precision: Int) -> Int {
        let digits = [2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38]
        return digits.firstIndex { precision <= $0 }! + 1
    }
}
