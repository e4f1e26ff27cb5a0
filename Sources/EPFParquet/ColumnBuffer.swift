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
/// A PLAIN text column is cut into data pages as its values arrive, by
/// the rules `ColumnChunkEncoder` cuts other columns by (`pageSize` bytes
/// of values, `maxRowsPerPage` rows, NULLs counted), with `pageGap` bytes
/// left free before each page's first value: when the page closes, its
/// body's prefix (the levels' 4-byte length and RLE/bit-packed levels) is
/// written there if it fits, so that the page's body lies whole in
/// `values` and is compressed from there, not copied (`pages`).
///
/// Each `append` is for the column types its comment names (a precondition);
/// `appendNull()` is for every column.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public struct ParquetColumnBuffer: Sendable {
    /// The column whose values it holds.
    public let column: ParquetColumn
    package let layout: ColumnLayout

    /// One per row: 1 a value, 0 NULL.
    package private(set) var levels: [UInt8] = []
    /// PLAIN bytes of the values (BOOLEAN: one byte, 0 or 1, a value; packed
    /// when the page is written); in a text column, each page's values
    /// after a gap of `pageGap` bytes. Empty while the column is
    /// dictionary-encoded.
    package private(set) var values: [UInt8] = []
    /// A PLAIN text column's closed pages, in row order; the rows after
    /// the last one (from `openPageRow`) are the open page.
    package private(set) var pages: [PlacedPage] = []
    /// The open page's first row (`rowCount` when no page is open), its
    /// first value's offset in `values` and its values' bytes so far.
    package private(set) var openPageRow = 0
    package private(set) var openPageValues = 0
    private var openPageBytes = 0
    /// Whether values arrive PLAIN into a text column, to be cut into pages.
    private var cutsPages: Bool
    private let pageSize: Int
    private let maxRowsPerPage: Int
    /// A closed page's levels, encoded, reused.
    private var prefix: [UInt8] = []
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

    /// Bytes left free before each page's first value in a PLAIN text
    /// column, for the page's body prefix: 4 bytes of length, then the
    /// levels. A page without NULLs is one RLE run, 10 bytes at most (a
    /// varint of up to 5 bytes for 2^30 rows, the level's byte): it always
    /// fits; a few runs of NULLs do too.
    package static let pageGap = 16

    package init(column: ParquetColumn, options: ParquetWriterOptions) {
        self.column = column
        self.layout = ColumnLayout(column.type)
        self.dictionaryLimit = options.dictionaryPageSizeLimit
        self.pageSize = options.pageSize
        self.maxRowsPerPage = options.maxRowsPerPage
        self.dictionary = column.dictionary ? ByteArrayDictionary() : nil
        self.cutsPages = column.type == .string && !column.dictionary
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

    /// The bytes the buffered rows take before encoding (values with
    /// their pages' gaps, entry numbers, dictionary, levels): what a caller
    /// cuts row groups by.
    public var bufferedBytes: Int {
        values.count + indices.count * MemoryLayout<UInt32>.size + (dictionary?.plain.count ?? 0) + levels.count
    }

    /// A NULL (an empty EPF field).
    @inline(__always)
    public mutating func appendNull() {
        levels.append(0)
        statistics.noteNull()
        if cutsPages {
            openPage(at: levels.count - 1)
            closePageIfFull(after: levels.count - 1)
        }
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
            openPage(at: levels.count - 1)
            PlainEncoder.appendByteArray(bytes, to: &values)
            openPageBytes += 4 + bytes.count
            statistics.noteBytes(bytes)
            closePageIfFull(after: levels.count - 1)
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
        pages.removeAll(keepingCapacity: true)
        openPageRow = 0
        cutsPages = column.type == .string && !column.dictionary
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

    /// Closes the open page of a PLAIN text column (nothing otherwise),
    /// so that it too is compressed where it lies; rows appended after it
    /// start a new page. Optional: the encoder copies the body of a page
    /// left open, cut at the same rows.
    public mutating func closePages() {
        if cutsPages && openPageRow < levels.count { closePage(through: levels.count) }
    }

    /// The dictionary grew past its limit, or does not pay: the values so
    /// far are written out PLAIN from their entries, in pages as if they
    /// had come PLAIN (their levels walked again), and the rest follow.
    private mutating func fallBackToPlain() {
        guard let dictionary else { return }
        self.dictionary = nil
        cutsPages = true
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(plainBytes + (plainBytes / pageSize + 1) * Self.pageGap)
        pages.removeAll(keepingCapacity: true)
        openPageRow = 0
        var value = 0
        for row in levels.indices {
            openPage(at: row)
            if levels[row] != 0 {
                dictionary.withEntry(Int(indices[value])) {
                    PlainEncoder.appendByteArray($0, to: &values)
                    openPageBytes += 4 + $0.count
                }
                value += 1
            }
            closePageIfFull(after: row)
        }
        indices.removeAll()
        plainBytes = 0
    }

    /// Before row `row` of a PLAIN text column: opens a page when it is
    /// the first of one, its values after a gap for its body's prefix.
    @inline(__always)
    private mutating func openPage(at row: Int) {
        guard row == openPageRow else { return }
        values.append(contentsOf: repeatElement(0, count: Self.pageGap))
        openPageValues = values.count
        openPageBytes = 0
    }

    /// After row `row` of a PLAIN text column: closes the open page once
    /// its values take `pageSize` bytes or it holds `maxRowsPerPage` rows.
    @inline(__always)
    private mutating func closePageIfFull(after row: Int) {
        if openPageBytes >= pageSize || row + 1 - openPageRow >= maxRowsPerPage { closePage(through: row + 1) }
    }

    /// Closes the open page at row `end`: its body's prefix goes in the
    /// gap before its values, right-aligned, when it fits.
    private mutating func closePage(through end: Int) {
        prefix.removeAll(keepingCapacity: true)
        levels.withUnsafeBufferPointer {
            RLEBitPackedHybrid.appendDefinitionLevels(UnsafeBufferPointer(rebasing: $0[openPageRow..<end]), to: &prefix)
        }
        var bodyStart: Int?
        if prefix.count <= Self.pageGap {
            bodyStart = openPageValues - prefix.count
            values.replaceSubrange(bodyStart!..<openPageValues, with: prefix)
        }
        pages.append(PlacedPage(rows: openPageRow..<end, values: openPageValues..<values.count, bodyStart: bodyStart))
        openPageRow = end
    }
}

/// A closed page of a PLAIN text column (`ParquetColumnBuffer.pages`):
/// its rows, its values' bytes in `values`, and where its body starts when
/// its prefix (levels' length and levels) fits the gap before its values:
/// `values[bodyStart..<values.upperBound]` is then the page's body.
package struct PlacedPage: Sendable, Equatable {
    package var rows: Range<Int>
    package var values: Range<Int>
    package var bodyStart: Int?
}
