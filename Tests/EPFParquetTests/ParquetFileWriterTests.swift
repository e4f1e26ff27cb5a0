@_spi(Benchmarks) import EPFParquet
import EPFTestSupport
import Foundation
import Testing

/// Files written by `ParquetFileWriter`, read back by pyarrow and by DuckDB:
/// every value, the schema (physical and logical types, SQL types) and each
/// chunk's statistics and encodings must be what was written.
@Suite("Parquet files read by pyarrow and DuckDB", .enabled(if: ReaderPython.available, ReaderPython.skipReason))
struct ParquetFileWriterTests {
    /// A column of test values: what to append, and the text pyarrow's
    /// value must print as.
    enum Value {
        case int64(Int64)
        case int32(Int32)
        case bool(Bool)
        case string(String)
        case decimal(Int64)
        case timestamp(Int64)
    }

    static func text(_ value: Value?, _ type: ParquetType) -> String? {
        switch value {
        case nil: return nil
        case .int64(let v)?, .timestamp(let v)?: return String(v)
        case .int32(let v)?: return String(v)
        case .bool(let v)?: return v ? "true" : "false"
        case .string(let v)?: return v
        case .decimal(let unscaled)?:
            guard case .decimal(_, let scale) = type else { return nil }
            return decimalText(unscaled, scale: scale)
        }
    }

    static func decimalText(_ unscaled: Int64, scale: Int) -> String {
        let magnitude = String(unscaled.magnitude)
        let sign = unscaled < 0 ? "-" : ""
        guard scale > 0 else { return sign + magnitude }
        let padded = String(repeating: "0", count: max(0, scale + 1 - magnitude.count)) + magnitude
        return sign + padded.dropLast(scale) + "." + padded.suffix(scale)
    }

    static func append(_ value: Value?, to column: inout ParquetColumnBuffer) {
        switch value {
        case nil: column.appendNull()
        case .int64(let v)?, .timestamp(let v)?: column.append(v)
        case .int32(let v)?: column.append(v)
        case .bool(let v)?: column.append(v)
        case .string(let v)?: column.append(v)
        case .decimal(let v)?:
            let accepted = column.append(decimalUnscaled: v)
            precondition(accepted, "test decimal \(v) out of range")
        }
    }

    static func temporaryPath(_ name: String) -> String {
        try! TemporaryFolder.create("epf-parquet").appendingPathComponent(name).path
    }

    /// Writes `columns` (all the same length) in row groups of `rowsPerGroup`
    /// rows (each encoded in `slicesPerGroup` slices), reads the file with pyarrow and DuckDB, checks every value and
    /// the row groups' statistics against what was written; returns what
    /// they read.
    @discardableResult
    static func roundTrip(
        _ columns: [(ParquetColumn, [Value?])], rowsPerGroup: Int = .max, slicesPerGroup: Int = 1,
        options: ParquetWriterOptions = ParquetWriterOptions(), closingPages: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (PythonReaders.File, PythonReaders.DuckDBFile) {
        let schema = try ParquetSchema(columns.map(\.0))
        let rows = columns[0].1.count
        let path = temporaryPath("test.parquet")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let writer = try ParquetFileWriter(path: path, schema: schema, options: options)
        var group = ParquetRowGroup(schema: schema, options: options)
        let encoder = ParquetRowGroupEncoder(schema: schema, options: options)
        var groups: [Range<Int>] = []
        var start = 0
        while start < rows {
            let end = min(rows, start + rowsPerGroup)
            let sliceRows = (end - start + slicesPerGroup - 1) / slicesPerGroup
            for sliceStart in stride(from: start, to: end, by: sliceRows) {
                for (index, column) in columns.enumerated() {
                    for row in sliceStart..<min(end, sliceStart + sliceRows) { append(column.1[row], to: &group.columns[index]) }
                }
                // As the lake does: text pages compressed where they lie.
                if closingPages { group.closePages() }
                if slicesPerGroup == 1 {
                    try writer.write(group)
                } else {
                    try encoder.append(group)
                }
                group.removeAll()
            }
            if slicesPerGroup > 1 { try writer.write(encoder.finish()) }
            groups.append(start..<end)
            start = end
        }
        try writer.close()
        let file = try PythonReaders.pyarrow(path)
        let duck = try PythonReaders.duckdb(path)

        #expect(file.numRows == rows, sourceLocation: sourceLocation)
        #expect(file.rowGroupRows == groups.map(\.count), sourceLocation: sourceLocation)
        for (column, values) in columns {
            let expected = values.map { text($0, column.type) }
            let read = file.columns[column.name] ?? []
            #expect(read.count == expected.count, "\(column.name)", sourceLocation: sourceLocation)
            if let row = zip(read, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record(
                    "\(column.name) row \(row): pyarrow read \(read[row] ?? "NULL"), written \(expected[row] ?? "NULL")",
                    sourceLocation: sourceLocation)
            }
            let duckRead = duck.columns[column.name] ?? []
            #expect(duckRead.count == expected.count, "\(column.name)", sourceLocation: sourceLocation)
            if let row = zip(duckRead, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record(
                    "\(column.name) row \(row): DuckDB read \(duckRead[row] ?? "NULL"), written \(expected[row] ?? "NULL")",
                    sourceLocation: sourceLocation)
            }
        }
        for (groupIndex, range) in groups.enumerated() {
            for (columnIndex, (column, values)) in columns.enumerated() {
                let chunk = file.rowGroups[groupIndex][columnIndex]
                let slice = values[range]
                let present = slice.compactMap { $0 }
                #expect(chunk.column == column.name, sourceLocation: sourceLocation)
                #expect(chunk.numValues == slice.count, sourceLocation: sourceLocation)
                #expect(chunk.nullCount == slice.count - present.count, "\(column.name)", sourceLocation: sourceLocation)
                #expect(chunk.hasMinMax == !present.isEmpty, "\(column.name)", sourceLocation: sourceLocation)
                let (minimum, maximum) = extremes(present)
                #expect(chunk.min == text(minimum, column.type), "\(column.name) min", sourceLocation: sourceLocation)
                #expect(chunk.max == text(maximum, column.type), "\(column.name) max", sourceLocation: sourceLocation)
                #expect(
                    chunk.compression == (options.compression == .uncompressed ? "UNCOMPRESSED" : "ZSTD"),
                    sourceLocation: sourceLocation)
                let duckChunk = duck.chunks[groupIndex * columns.count + columnIndex]
                #expect(duckChunk.rowGroup == groupIndex && duckChunk.column == column.name, sourceLocation: sourceLocation)
                #expect(duckChunk.nullCount == slice.count - present.count, "\(column.name)", sourceLocation: sourceLocation)
                #expect(duckChunk.compression == chunk.compression, sourceLocation: sourceLocation)
                // DuckDB prints a timestamp's min/max as a date; the others as pyarrow's.
                if column.type != .timestampMillis {
                    #expect(duckChunk.min == chunk.min, "\(column.name) min", sourceLocation: sourceLocation)
                    #expect(duckChunk.max == chunk.max, "\(column.name) max", sourceLocation: sourceLocation)
                }
            }
        }
        return (file, duck)
    }

    /// Min and max as Parquet orders them: integers signed, false < true,
    /// strings by their UTF-8 bytes, unsigned.
    static func extremes(_ values: [Value]) -> (Value?, Value?) {
        func key(_ value: Value) -> (Int64, [UInt8]) {
            switch value {
            case .int64(let v), .timestamp(let v), .decimal(let v): return (v, [])
            case .int32(let v): return (Int64(v), [])
            case .bool(let v): return (v ? 1 : 0, [])
            case .string(let v): return (0, Array(v.utf8))
            }
        }
        func less(_ a: Value, _ b: Value) -> Bool {
            let (x, y) = (key(a), key(b))
            return x.0 != y.0 ? x.0 < y.0 : x.1.lexicographicallyPrecedes(y.1)
        }
        return (values.min(by: less), values.max(by: less))
    }

    // MARK: Tests

    static let allTypes: [ParquetColumn] = [
        ParquetColumn("id", .int64), ParquetColumn("count", .int32), ParquetColumn("flag", .boolean),
        ParquetColumn("title", .string), ParquetColumn("price", .decimal(precision: 9, scale: 3)),
        ParquetColumn("wide", .decimal(precision: 20, scale: 2)), ParquetColumn("whole", .decimal(precision: 4, scale: 0)),
        ParquetColumn("released", .timestampMillis), ParquetColumn("currency", .string, dictionary: true),
    ]

    /// 3,000 texts for pages of 4 KB and 200 rows: no NULLs and lengths
    /// up to 300 bytes (pages cut by bytes); scattered NULLs (pages of 200
    /// rows whose bit-packed levels do not fit a page's gap); texts of 5
    /// to 20 KB (each past a page) with a NULL every third row, so that
    /// pages begin with a NULL; runs of NULLs around every 200th row;
    /// 250 NULLs in a row; empty strings beside NULLs.
    static func pageEdgeTexts(seed: UInt64) -> [String?] {
        var random = SplitMix(seed: seed)
        return (0..<3000).map { row -> String? in
            let r = random.next()
            let text = "row \(row) "
            switch row / 500 {
            case 0: return text + String(repeating: "x", count: Int(r % 300))
            case 1: return r % 10 < 3 ? nil : text
            case 2: return row % 3 == 0 ? nil : text + String(repeating: "é€", count: 1000 + Int(r % 3000))
            case 3: return row % 200 < 2 || row % 200 >= 197 ? nil : text + String(repeating: "y", count: Int(r % 40))
            case 4: return row < 2250 ? nil : text
            default: return row % 2 == 0 ? nil : ""
            }
        }
    }

    /// Values of every type, NULLs first, last, alone and in runs, the
    /// extremes of each type, empty strings beside NULLs, text beyond ASCII.
    static func allTypesValues(rows: Int, seed: UInt64) -> [[Value?]] {
        var random = SplitMix(seed: seed)
        let words = ["", "a", "Z", "zz", "é", "日本語", "chess", "Chess", "a b", "\u{1F600}", "tab\there"]
        let currencies = ["USD", "EUR", "JPY", "GBP", ""]
        var columns: [[Value?]] = Array(repeating: [], count: allTypes.count)
        for row in 0..<rows {
            let r = random.next()
            let values: [Value] = [
                .int64(Int64(bitPattern: r)),
                .int32(Int32(truncatingIfNeeded: r >> 7)),
                .bool(r & 1 == 1),
                .string(words[Int(r >> 11) % words.count]),
                .decimal(Int64(r >> 20) % 999_999_999 * (r & 2 == 0 ? 1 : -1)),
                .decimal(Int64(bitPattern: r >> 3) * (r & 4 == 0 ? 1 : -1)),
                .decimal(Int64(r >> 40) % 10_000 * (r & 8 == 0 ? 1 : -1)),
                .timestamp(Int64(r >> 24) % 253_402_300_799_999 * (r & 16 == 0 ? 1 : -1) / 4),
                .string(currencies[Int(r >> 33) % currencies.count]),
            ]
            for column in values.indices {
                // NULL: the first row of even columns, the last of odd ones,
                // runs where (row / 3 + column) % 4 == 0, and all of row 5.
                let isNull =
                    (row == 0 && column % 2 == 0) || (row == rows - 1 && column % 2 == 1)
                    || (row / 3 + column) % 4 == 0 || row == 5
                columns[column].append(isNull ? nil : values[column])
            }
        }
        // The extremes, in rows 1 and 2.
        let low: [Value] = [
            .int64(.min), .int32(.min), .bool(false), .string(""), .decimal(-999_999_999), .decimal(.min),
            .decimal(-9999), .timestamp(-62_135_596_800_000), .string(""),
        ]
        let high: [Value] = [
            .int64(.max), .int32(.max), .bool(true), .string("\u{10FFFF}"), .decimal(999_999_999), .decimal(.max),
            .decimal(9999), .timestamp(253_402_300_799_999), .string("ZZZ"),
        ]
        for column in columns.indices {
            columns[column][1] = low[column]
            columns[column][2] = high[column]
        }
        return columns
    }

    // Level 1: the lake's, whose context takes a larger hash table (`PageCompressor.fastHashLog`).
    @Test(arguments: [ParquetCompression.uncompressed, .zstd(level: 1), .zstd(level: 3)])
    func everyTypeWithNullsAndExtremes(compression: ParquetCompression) throws {
        let values = Self.allTypesValues(rows: 300, seed: 1)
        let (file, duck) = try Self.roundTrip(
            Array(zip(Self.allTypes, values)), options: ParquetWriterOptions(compression: compression))
        #expect(
            Self.allTypes.map { duck.types[$0.name] } == [
                "BIGINT", "INTEGER", "BOOLEAN", "VARCHAR", "DECIMAL(9,3)", "DECIMAL(20,2)", "DECIMAL(4,0)",
                "TIMESTAMP WITH TIME ZONE", "VARCHAR",
            ])
        #expect(duck.chunks[8].encodings == "PLAIN, RLE, RLE_DICTIONARY")
        #expect(duck.chunks[3].encodings == "PLAIN, RLE")
        #expect(
            file.fields == [
                .init(name: "id", type: "int64", nullable: true),
                .init(name: "count", type: "int32", nullable: true),
                .init(name: "flag", type: "bool", nullable: true),
                .init(name: "title", type: "string", nullable: true),
                .init(name: "price", type: "decimal128(9, 3)", nullable: true),
                .init(name: "wide", type: "decimal128(20, 2)", nullable: true),
                .init(name: "whole", type: "decimal128(4, 0)", nullable: true),
                .init(name: "released", type: "timestamp[ms, tz=UTC]", nullable: true),
                .init(name: "currency", type: "string", nullable: true),
            ])
        #expect(
            file.parquetColumns.map(\.physicalType) == [
                "INT64", "INT32", "BOOLEAN", "BYTE_ARRAY", "INT64", "FIXED_LEN_BYTE_ARRAY", "INT64", "INT64", "BYTE_ARRAY",
            ])
        #expect(
            file.parquetColumns.map(\.convertedType) == [
                "NONE", "NONE", "NONE", "UTF8", "DECIMAL", "DECIMAL", "DECIMAL", "TIMESTAMP_MILLIS", "UTF8",
            ])
        #expect(file.parquetColumns.allSatisfy { $0.maxDefinitionLevel == 1 })
        #expect(
            file.parquetColumns.map(\.logicalType) == [
                "None", "None", "None", "String", "Decimal(precision=9, scale=3)", "Decimal(precision=20, scale=2)",
                "Decimal(precision=4, scale=0)",
                "Timestamp(isAdjustedToUTC=true, timeUnit=milliseconds, is_from_converted_type=false, force_set_converted_type=false)",
                "String",
            ])
        #expect(file.createdBy == "epf-importer version 0.1.0")
        let chunks = file.rowGroups[0]
        #expect(chunks[8].hasDictionaryPage)
        #expect(chunks[8].encodings == ["PLAIN", "RLE", "RLE_DICTIONARY"])
        #expect(chunks[3].hasDictionaryPage == false)
        #expect(chunks[3].encodings == ["PLAIN", "RLE"])
    }

    @Test func emptyStringsAreNotNulls() throws {
        let values: [Value?] = [.string(""), nil, .string(""), nil, nil, .string("x"), .string("")]
        try Self.roundTrip([
            (ParquetColumn("plain", .string), values), (ParquetColumn("dictionary", .string, dictionary: true), values),
        ])
    }

    @Test func allNullAndNoNullColumns() throws {
        let rows = 1000
        try Self.roundTrip([
            (ParquetColumn("nothing", .int64), Array(repeating: nil, count: rows)),
            (ParquetColumn("no text", .string, dictionary: true), Array(repeating: nil, count: rows)),
            (ParquetColumn("no flag", .boolean), Array(repeating: nil, count: rows)),
            (ParquetColumn("everything", .int32), (0..<rows).map { .int32(Int32($0) - 500) }),
            (ParquetColumn("flags", .boolean), (0..<rows).map { .bool($0 % 3 == 0) }),
        ])
    }

    /// Many rows in several row groups, each cut in many small pages.
    @Test(arguments: [ParquetCompression.uncompressed, .zstd(level: 1), .zstd(level: 19)])
    func manyRowsInRowGroupsAndPages(compression: ParquetCompression) throws {
        let values = Self.allTypesValues(rows: 25_000, seed: 2)
        let (file, _) = try Self.roundTrip(
            Array(zip(Self.allTypes, values)), rowsPerGroup: 10_000,
            options: ParquetWriterOptions(pageSize: 4096, maxRowsPerPage: 1000, compression: compression))
        #expect(file.rowGroupRows == [10_000, 10_000, 5_000])
    }

    /// A dictionary past its limit: the chunk is written PLAIN; the next
    /// row group, with few values, is dictionary-encoded again.
    @Test func dictionaryFallsBackToPlain() throws {
        let many: [Value?] = (0..<3000).map { $0 % 7 == 0 ? nil : .string("value \($0)") }
        let few: [Value?] = (0..<3000).map { $0 % 7 == 0 ? nil : .string(["a", "b", "c"][$0 % 3]) }
        let (file, duck) = try Self.roundTrip(
            [(ParquetColumn("text", .string, dictionary: true), many + few)], rowsPerGroup: 3000,
            options: ParquetWriterOptions(dictionaryPageSizeLimit: 1000))
        #expect(file.rowGroups[0][0].hasDictionaryPage == false)
        #expect(file.rowGroups[0][0].encodings == ["PLAIN", "RLE"])
        #expect(file.rowGroups[1][0].hasDictionaryPage)
        #expect(file.rowGroups[1][0].encodings == ["PLAIN", "RLE", "RLE_DICTIONARY"])
        #expect(duck.chunks.map(\.encodings) == ["PLAIN, RLE", "PLAIN, RLE, RLE_DICTIONARY"])
    }

    /// Text pages written as the lake writes them (`closePages()` before
    /// each slice is encoded) and without: NULLs at pages' edges, texts
    /// longer than a page, levels that fit the gap before a page's values
    /// and levels that do not, a dictionary column that falls back to
    /// PLAIN, each value read back by pyarrow and DuckDB.
    @Test(arguments: [ParquetCompression.uncompressed, .zstd(level: 1)], [false, true])
    func textPagesWhereTheyLie(compression: ParquetCompression, closingPages: Bool) throws {
        let texts: [Value?] = Self.pageEdgeTexts(seed: 5).map { $0.map { .string($0) } }
        let (file, _) = try Self.roundTrip(
            [(ParquetColumn("plain", .string), texts), (ParquetColumn("fallen", .string, dictionary: true), texts)],
            rowsPerGroup: 2000, slicesPerGroup: 3,
            options: ParquetWriterOptions(pageSize: 4096, maxRowsPerPage: 200, compression: compression),
            closingPages: closingPages)
        #expect(file.rowGroupRows == [2000, 1000])
        #expect(file.rowGroups.allSatisfy { $0.map(\.encodings) == [["PLAIN", "RLE"], ["PLAIN", "RLE"]] })
    }

    /// A dictionary of more than 256 entries: indices wider than a byte.
    @Test func wideDictionaryIndices() throws {
        let values: [Value?] = (0..<5000).map { $0 % 11 == 0 ? nil : .string("v\($0 % 700)") }
        let (file, _) = try Self.roundTrip([(ParquetColumn("text", .string, dictionary: true), values)])
        #expect(file.rowGroups[0][0].hasDictionaryPage)
    }

    /// Row groups encoded slice by slice (`ParquetRowGroupEncoder`): every
    /// value read back, each chunk's statistics over all its slices, one
    /// dictionary page for the chunk's slices.
    @Test(arguments: [ParquetCompression.uncompressed, .zstd(level: 1), .zstd(level: 3)])
    func rowGroupsInSlices(compression: ParquetCompression) throws {
        let values = Self.allTypesValues(rows: 25_000, seed: 3)
        let (file, duck) = try Self.roundTrip(
            Array(zip(Self.allTypes, values)), rowsPerGroup: 10_000, slicesPerGroup: 4,
            options: ParquetWriterOptions(pageSize: 4096, maxRowsPerPage: 1000, compression: compression))
        #expect(file.rowGroupRows == [10_000, 10_000, 5_000])
        #expect(file.rowGroups.allSatisfy { $0[8].hasDictionaryPage && $0[8].encodings == ["PLAIN", "RLE", "RLE_DICTIONARY"] })
        #expect(duck.chunks.filter { $0.column == "currency" }.map(\.encodings) == Array(repeating: "PLAIN, RLE, RLE_DICTIONARY", count: 3))
    }

    /// A dictionary that does not pay (mostly distinct values) is dropped,
    /// whether the chunk holds more values than the buffer's sample or
    /// fewer; a column of few values keeps its dictionary.
    @Test func dictionaryOnlyWhereItPays() throws {
        let distinct: [Value?] = (0..<3000).map { .string("value \($0)") }
        let fewDistinct: [Value?] = (0..<3000).map { $0 < 500 ? .string("value \($0)") : nil }
        let repeated: [Value?] = (0..<3000).map { .string(["USD", "EUR", "JPY"][$0 % 3]) }
        let (file, duck) = try Self.roundTrip([
            (ParquetColumn("distinct", .string, dictionary: true), distinct),
            (ParquetColumn("few distinct", .string, dictionary: true), fewDistinct),
            (ParquetColumn("repeated", .string, dictionary: true), repeated),
        ])
        #expect(file.rowGroups[0].map(\.hasDictionaryPage) == [false, false, true])
        #expect(duck.chunks.map(\.encodings) == ["PLAIN, RLE", "PLAIN, RLE", "PLAIN, RLE, RLE_DICTIONARY"])
    }

    /// A chunk whose dictionary passes its limit in a later slice: once
    /// the chunk's dictionary would (the second slice's ten entries of 100
    /// bytes fit a slice's limit, not the chunk's), once the slice's own
    /// (the third); the pages before are dictionary-encoded, the rest PLAIN
    /// (the fourth too), and readers read both.
    @Test func dictionaryFallsBackWithinAChunk() throws {
        let few: [Value?] = (0..<3000).map { $0 % 7 == 0 ? nil : .string(["a", "b", "c"][$0 % 3]) }
        let wide: [Value?] = (0..<3000).map { .string(String(repeating: String($0 % 10), count: 96)) }
        let many: [Value?] = (0..<3000).map { $0 % 7 == 0 ? nil : .string("value \($0)") }
        let (file, duck) = try Self.roundTrip(
            [(ParquetColumn("text", .string, dictionary: true), few + wide + many + few)], slicesPerGroup: 4,
            options: ParquetWriterOptions(dictionaryPageSizeLimit: 1000))
        #expect(file.rowGroupRows == [12_000])
        #expect(file.rowGroups[0][0].hasDictionaryPage)
        #expect(duck.chunks.map(\.encodings) == ["PLAIN, RLE, RLE_DICTIONARY"])
    }
}
