@_spi(Benchmarks) import EPFParquet
import EPFTestSupport
import Foundation
import Testing

/// What the writer refuses, and the file's frame, without a reader.
@Suite("Parquet writer rules")
struct WriterRulesTests {
    @Test func schemasRefused() {
        #expect(throws: ParquetError.invalidSchema("no columns")) { try ParquetSchema([]) }
        #expect(throws: ParquetError.invalidSchema("column a twice")) {
            try ParquetSchema([ParquetColumn("a", .int64), ParquetColumn("a", .string)])
        }
        #expect(throws: ParquetError.invalidSchema("a column without a name")) { try ParquetSchema([ParquetColumn("", .int64)]) }
        #expect(throws: ParquetError.invalidSchema("column p: DECIMAL(39,2)")) {
            try ParquetSchema([ParquetColumn("p", .decimal(precision: 39, scale: 2))])
        }
        #expect(throws: ParquetError.invalidSchema("column p: DECIMAL(3,4)")) {
            try ParquetSchema([ParquetColumn("p", .decimal(precision: 3, scale: 4))])
        }
        #expect(throws: ParquetError.invalidSchema("column n: dictionary encoding is for strings only")) {
            try ParquetSchema([ParquetColumn("n", .int64, dictionary: true)])
        }
    }

    /// A decimal with more digits than its precision is refused, not stored.
    @Test func decimalsBeyondTheirPrecision() throws {
        let schema = try ParquetSchema([ParquetColumn("price", .decimal(precision: 9, scale: 3))])
        var group = ParquetRowGroup(schema: schema)
        let accepted1 = group.columns[0].append(decimalUnscaled: 999_999_999)
        #expect(accepted1)
        let accepted2 = group.columns[0].append(decimalUnscaled: -999_999_999)
        #expect(accepted2)
        let accepted3 = group.columns[0].append(decimalUnscaled: 1_000_000_000)
        #expect(!accepted3)
        let accepted4 = group.columns[0].append(decimalUnscaled: -1_000_000_000)
        #expect(!accepted4)
        let accepted5 = group.columns[0].append(decimalUnscaled: .min)
        #expect(!accepted5)
        #expect(group.rowCount == 2)
        // 19 digits and more hold every Int64.
        let wide = try ParquetSchema([ParquetColumn("wide", .decimal(precision: 19, scale: 0))])
        var wideGroup = ParquetRowGroup(schema: wide)
        let accepted6 = wideGroup.columns[0].append(decimalUnscaled: .min)
        #expect(accepted6)
        let accepted7 = wideGroup.columns[0].append(decimalUnscaled: .max)
        #expect(accepted7)
    }

    @Test func rowGroupsMustBeWholeAndNotEmpty() throws {
        let schema = try ParquetSchema([ParquetColumn("a", .int64), ParquetColumn("b", .string)])
        var group = ParquetRowGroup(schema: schema)
        #expect(throws: ParquetError.emptyRowGroup) { try group.encode() }
        group.columns[0].append(Int64(1))
        group.columns[0].appendNull()
        group.columns[1].append("x")
        #expect(throws: ParquetError.rowCountMismatch(column: "b", rows: 1, expected: 2)) { try group.encode() }
        group.columns[1].appendNull()
        #expect(try group.encode().rowCount == 2)
        group.removeAll()
        #expect(group.rowCount == 0 && group.columns[1].rowCount == 0)
    }

    /// Buffered bytes: 8 a BIGINT, 4 + length a PLAIN string (and the gap
    /// before its page's values), 4 a dictionary entry number plus the
    /// dictionary, 1 a row's level.
    @Test func bufferedBytes() throws {
        let schema = try ParquetSchema([
            ParquetColumn("a", .int64), ParquetColumn("b", .string), ParquetColumn("c", .string, dictionary: true),
        ])
        var group = ParquetRowGroup(schema: schema)
        for _ in 0..<10 {
            group.columns[0].append(Int64(1))
            group.columns[1].append("abc")
            group.columns[2].append("xy")
        }
        group.columns[0].appendNull()
        group.columns[1].appendNull()
        group.columns[2].appendNull()
        #expect(group.columns[0].bufferedBytes == 80 + 11)
        #expect(group.columns[1].bufferedBytes == 70 + ParquetColumnBuffer.pageGap + 11)
        #expect(group.columns[2].bufferedBytes == 40 + 6 + 11)
        #expect(group.bufferedBytes == 91 + 97 + 57)
        group.removeAll()
        #expect(group.bufferedBytes == 0)
    }

    /// At `dictionarySample` values, a dictionary that takes as much room
    /// as the PLAIN values (with its entry numbers) is dropped, the values
    /// so far rewritten PLAIN; one of few entries is kept.
    @Test func dictionarySample() throws {
        let schema = try ParquetSchema([
            ParquetColumn("distinct", .string, dictionary: true), ParquetColumn("few", .string, dictionary: true),
        ])
        var group = ParquetRowGroup(schema: schema)
        var plainBytes = 0
        for row in 0..<ParquetColumnBuffer.dictionarySample {
            if row == ParquetColumnBuffer.dictionarySample - 1 {
                #expect(group.columns[0].dictionary?.count == row)
            }
            group.columns[0].append("v\(row)")
            plainBytes += 4 + "v\(row)".utf8.count
            group.columns[1].append(row % 2 == 0 ? "yes" : "no")
        }
        // Rewritten PLAIN in one open page (4 KB of values), after its gap.
        let gap = ParquetColumnBuffer.pageGap
        #expect(group.columns[0].dictionary == nil)
        #expect(group.columns[0].pages.isEmpty && group.columns[0].openPageValues == gap)
        #expect(group.columns[0].values.count == gap + plainBytes)
        #expect(Array(group.columns[0].values[gap..<gap + 6]) == [2, 0, 0, 0, UInt8(ascii: "v"), UInt8(ascii: "0")])
        #expect(group.columns[1].dictionary?.count == 2)
        #expect(group.columns[1].indices.count == ParquetColumnBuffer.dictionarySample)
    }

    /// A PLAIN text column is cut into pages as its values arrive (by
    /// bytes, by rows, NULLs counted); each closed page's body lies whole
    /// in `values` (its levels in the gap before its values) when its
    /// levels fit, and not when they do not; a dictionary column that fell
    /// back to PLAIN is cut the same; closing the last page or not makes
    /// the same bytes.
    @Test func textPagesCutAsValuesArrive() throws {
        let options = ParquetWriterOptions(pageSize: 4096, maxRowsPerPage: 200, compression: .zstd(level: 1))
        let schema = try ParquetSchema([ParquetColumn("plain", .string), ParquetColumn("fallen", .string, dictionary: true)])
        var group = ParquetRowGroup(schema: schema, options: options)
        let texts = ParquetFileWriterTests.pageEdgeTexts(seed: 4)
        for text in texts {
            for column in 0..<2 {
                if let text { group.columns[column].append(text) } else { group.columns[column].appendNull() }
            }
        }
        let column = group.columns[0]
        #expect(group.columns[1].dictionary == nil)
        #expect(group.columns[1].pages == column.pages && group.columns[1].values == column.values)

        // The cuts, from the rule: a page closes at 4096 bytes of values or 200 rows.
        var cuts: [Range<Int>] = []
        var first = 0
        var bytes = 0
        for (row, text) in texts.enumerated() {
            bytes += text.map { 4 + $0.utf8.count } ?? 0
            if bytes >= 4096 || row + 1 - first == 200 {
                cuts.append(first..<row + 1)
                (first, bytes) = (row + 1, 0)
            }
        }
        #expect(column.pages.map(\.rows) == cuts)
        #expect(column.openPageRow == first && first < texts.count)
        var placed = 0
        for page in column.pages {
            let present = texts[page.rows].compactMap { $0 }
            #expect(page.values.count == present.reduce(0) { $0 + 4 + $1.utf8.count })
            if let start = page.bodyStart {
                placed += 1
                // The body: levels' length, levels, then the values.
                let length = column.values[start..<start + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
                #expect(start + 4 + length == page.values.lowerBound)
                var levels: [UInt8] = []
                RLEBitPackedHybrid.encode(texts[page.rows].map { $0 == nil ? UInt8(0) : 1 }, bitWidth: 1, into: &levels)
                #expect(Array(column.values[start + 4..<page.values.lowerBound]) == levels)
            }
            if let text = present.first {
                #expect(column.values[page.values.lowerBound] == UInt8(truncatingIfNeeded: text.utf8.count))
            }
        }
        #expect(placed > 0 && placed < column.pages.count, "some pages' levels fit the gap, some do not")
        #expect(column.pages.contains { texts[$0.rows.first!] == nil } && column.pages.contains { texts[$0.rows.last!] == nil })

        let open = try group.encode()
        var closed = group
        closed.closePages()
        #expect(closed.columns[0].pages.count == column.pages.count + 1)
        let encoded = try closed.encode()
        #expect(encoded.chunks.map(\.dataPages) == open.chunks.map(\.dataPages))
        #expect(encoded.chunks[0].dataPages == encoded.chunks[1].dataPages)
        group.removeAll()
        #expect(group.columns[0].pages.isEmpty && group.columns[0].values.isEmpty && group.columns[1].dictionary != nil)
    }

    /// A durable writer's background flush that fails fails `close()`,
    /// naming the call: a named pipe takes the writes but no sync (EINVAL).
    @Test func aFailedFlushFailsTheClose() throws {
        let schema = try ParquetSchema([ParquetColumn("a", .int32)])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("pipe.parquet").path
            #expect(mkfifo(path, 0o600) == 0)
            // A reader, so that opening the pipe to write does not wait; the
            // writes (a few hundred bytes) fit the pipe's buffer.
            let reader = open(path, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            defer { close(reader) }
            let writer = try ParquetFileWriter(path: path, schema: schema, durable: true)
            var group = ParquetRowGroup(schema: schema)
            group.columns[0].append(Int32(7))
            try writer.write(try group.encode())
            #expect(throws: ParquetError.io(operation: "fdatasync", path: path, errno: EINVAL)) { try writer.close() }
            #expect(throws: ParquetError.closed) { try writer.close() }
        }
    }

    /// `PAR1`, the row groups, the footer, its length, `PAR1`; nothing
    /// written after `close()`.
    @Test func fileFrame() throws {
        let schema = try ParquetSchema([ParquetColumn("a", .int32)])
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("frame.parquet").path
            let writer = try ParquetFileWriter(path: path, schema: schema, durable: true)
            var group = ParquetRowGroup(schema: schema)
            group.columns[0].append(Int32(7))
            let encoded = try group.encode()
            try writer.write(encoded)
            let size = try writer.close()
            #expect(throws: ParquetError.closed) { try writer.write(encoded) }
            #expect(throws: ParquetError.closed) { try writer.close() }
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count == Int(size))
            #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
            #expect(Array(bytes.suffix(4)) == Array("PAR1".utf8))
            let footerLength = bytes[bytes.count - 8..<bytes.count - 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(4 + encoded.byteCount + footerLength + 8 == bytes.count)
            #expect(writer.rowCount == 1)
            #expect(throws: ParquetError.io(operation: "open", path: folder.path + "/missing/x.parquet", errno: ENOENT)) {
                try ParquetFileWriter(path: folder.path + "/missing/x.parquet", schema: schema)
            }
        }
    }
}

@Suite("zstd pages")
struct CompressionTests {
    /// A compressible column takes less room compressed; the metadata
    /// keeps both sizes.
    @Test func zstdShrinksPages() throws {
        let schema = try ParquetSchema([ParquetColumn("text", .string)])
        func encoded(_ compression: ParquetCompression) throws -> EncodedRowGroup {
            var group = ParquetRowGroup(schema: schema, options: ParquetWriterOptions(compression: compression))
            for row in 0..<10_000 { group.columns[0].append("the same words again, row \(row % 10)") }
            return try group.encode()
        }
        let plain = try encoded(.uncompressed)
        let zstd = try encoded(.zstd(level: 3))
        #expect(zstd.byteCount * 10 < plain.byteCount)
        // The same pages uncompressed, headers as written (their compressed
        // size a varint of other length: a byte or two a page).
        let difference = zstd.chunks[0].metaData.totalUncompressedSize - Int64(plain.byteCount)
        #expect((-4...4).contains(difference))
        #expect(zstd.chunks[0].metaData.totalCompressedSize == Int64(zstd.byteCount))
        #expect(zstd.chunks[0].metaData.codec == .zstd)
        #expect(plain.chunks[0].metaData.codec == .uncompressed)
    }
}
