/// A column chunk encoded on its own, ready to be placed in a file: its
/// dictionary page (empty when it has none) and its data pages, each after
/// its Thrift page header, and its metadata, whose page offsets count from
/// the chunk's first byte (`ColumnMetaData.shifted(by:)` places them).
package struct EncodedColumnChunk: Sendable {
    package var dictionaryPage: [UInt8]
    package var dataPages: [UInt8]
    package var metaData: ColumnMetaData

    /// The bytes it takes in the file.
    package var byteCount: Int { dictionaryPage.count + dataPages.count }
}

/// Encodes one column of a row group into pages, slice after slice
/// (`ParquetColumnBuffer`s of the same column, in row order), compressing
/// each page as it is made: what a row group keeps in memory is its pages,
/// compressed, not its values.
///
/// Each data page (v1) holds whole rows of one slice: the 4-byte length and
/// the RLE/bit-packed definition levels (bit width 1), then the values:
/// PLAIN, or for a dictionary-encoded slice the index bit width (1 byte)
/// and the RLE/bit-packed entry numbers. A page closes when its values
/// reach `pageSize` bytes, it holds `maxRowsPerPage` rows, or its slice
/// ends. Every page's body (not its header) is compressed with the
/// options' codec.
///
/// Dictionary: the chunk's dictionary gathers the entries of its slices'
/// dictionaries. The chunk stays dictionary-encoded while its first slice
/// shows that it pays (`ByteArrayDictionary.pays`), its dictionary page
/// stays within `dictionaryPageSizeLimit`, and every slice still has its
/// dictionary; from the first slice that fails, the rest of the chunk is
/// PLAIN (as parquet-mr falls back): dictionary-encoded pages, then PLAIN
/// ones, the dictionary page first. Each row group tries again.
///
/// Not thread-safe; `@unchecked Sendable` so that a row group's encoders
/// can each run on a thread of their own (`ParquetRowGroupEncoder`), one
/// thread at a time each.
package final class ColumnChunkEncoder: @unchecked Sendable {
    package let column: ParquetColumn
    private let layout: ColumnLayout
    private let options: ParquetWriterOptions
    private let compressor: PageCompressor

    private var pages: [UInt8] = []
    private var dictionary: ByteArrayDictionary?
    /// Whether later slices may still be dictionary-encoded.
    private var dictionaryOpen: Bool
    private var dictionaryPages: Int32 = 0
    private var plainPages: Int32 = 0
    private var uncompressedSize = 0
    private var rows = 0
    private var statistics = ColumnStatistics()
    // Reused between pages and slices.
    private var body: [UInt8] = []
    private var entries: [UInt32] = []
    private var plain: [UInt8] = []

    package init(column: ParquetColumn, options: ParquetWriterOptions) {
        self.column = column
        self.layout = ColumnLayout(column.type)
        self.options = options
        self.compressor = PageCompressor(options.compression)
        self.dictionaryOpen = column.dictionary
    }

    /// The compressed bytes of the pages so far.
    package var encodedBytes: Int { pages.count }

    /// Encodes the rows of `slice` (this encoder's column) into pages.
    package func append(_ slice: ParquetColumnBuffer) {
        rows += slice.rowCount
        statistics.merge(slice.statistics)
        if dictionaryOpen, let sliceDictionary = slice.dictionary, sliceDictionary.count > 0 || dictionary != nil {
            // Taken out, so that inserting does not copy it.
            var merged = dictionary ?? ByteArrayDictionary()
            dictionary = nil
            var map: [UInt32] = []
            map.reserveCapacity(sliceDictionary.count)
            for entry in 0..<sliceDictionary.count {
                map.append(sliceDictionary.withEntry(entry) { merged.insert($0).index })
            }
            let first = dictionaryPages == 0 && plainPages == 0
            let fits = merged.plain.count <= options.dictionaryPageSizeLimit
            if fits && (!first || merged.pays(values: slice.indices.count, plainBytes: slice.plainBytes)) {
                entries.removeAll(keepingCapacity: true)
                entries.reserveCapacity(slice.indices.count)
                for index in slice.indices { entries.append(map[Int(index)]) }
                dictionary = merged
                let width = max(1, RLEBitPackedHybrid.bitWidth(forMaximum: UInt32(merged.count - 1)))
                entries.withUnsafeBufferPointer { appendPages(slice, values: UnsafeRawBufferPointer(start: nil, count: 0), entries: $0, indexBitWidth: width) }
                return
            }
            // Unused entries of this slice may stay in a dictionary that
            // earlier pages refer to; one no page refers to is dropped.
            dictionary = dictionaryPages > 0 ? merged : nil
        }
        dictionaryOpen = false
        if let sliceDictionary = slice.dictionary {
            // The slice kept its dictionary, the chunk did not: its values PLAIN.
            plain.removeAll(keepingCapacity: true)
            plain.reserveCapacity(slice.plainBytes)
            for index in slice.indices {
                sliceDictionary.withEntry(Int(index)) { PlainEncoder.appendByteArray($0, to: &plain) }
            }
            plain.withUnsafeBytes { appendPages(slice, values: $0, entries: nil, indexBitWidth: 0) }
        } else {
            slice.values.withUnsafeBytes { appendPages(slice, values: $0, entries: nil, indexBitWidth: 0) }
        }
    }

    /// The chunk of the slices appended since the last `finish()`; the
    /// encoder is empty after, for the same column of the next row group.
    package func finish() -> EncodedColumnChunk {
        var dictionaryPage: [UInt8] = []
        var uncompressed = uncompressedSize
        var encodings: [Encoding] = [.plain, .rle]
        var encodingStats: [PageEncodingStats] = []
        if let dictionary, dictionaryPages > 0 {
            let header = PageHeader(
                type: .dictionaryPage, uncompressedPageSize: 0, compressedPageSize: 0,
                dictionaryPageHeader: DictionaryPageHeader(numValues: Int32(dictionary.count), encoding: .plain))
            uncompressed += append(header, dictionary.plain, to: &dictionaryPage)
            encodings.append(.rleDictionary)
            encodingStats.append(PageEncodingStats(pageType: .dictionaryPage, encoding: .plain, count: 1))
            encodingStats.append(PageEncodingStats(pageType: .dataPage, encoding: .rleDictionary, count: dictionaryPages))
        }
        if plainPages > 0 {
            encodingStats.append(PageEncodingStats(pageType: .dataPage, encoding: .plain, count: plainPages))
        }
        let metaData = ColumnMetaData(
            type: layout.physicalType, encodings: encodings, pathInSchema: [column.name],
            codec: compressor.compression.codec, numValues: Int64(rows),
            totalUncompressedSize: Int64(uncompressed), totalCompressedSize: Int64(dictionaryPage.count + pages.count),
            dataPageOffset: Int64(dictionaryPage.count), dictionaryPageOffset: dictionaryPages > 0 ? 0 : nil,
            statistics: statistics.thrift(layout), encodingStats: encodingStats)
        let chunk = EncodedColumnChunk(dictionaryPage: dictionaryPage, dataPages: pages, metaData: metaData)
        pages = []
        dictionary = nil
        dictionaryOpen = column.dictionary
        dictionaryPages = 0
        plainPages = 0
        uncompressedSize = 0
        rows = 0
        statistics.removeAll()
        return chunk
    }

    /// The pages of one slice: `values` PLAIN, or `entries` (dictionary
    /// entry numbers, one a value) of `indexBitWidth` bits.
    private func appendPages(
        _ slice: ParquetColumnBuffer, values: UnsafeRawBufferPointer, entries: UnsafeBufferPointer<UInt32>?,
        indexBitWidth: Int
    ) {
        // Bytes a value takes in a page, to cut pages (byte arrays: read).
        let width = entries != nil ? max(1, indexBitWidth / 8) : (layout.fixedWidth ?? 1)
        let isByteArray = entries == nil && layout.physicalType == .byteArray
        let encoding: Encoding = entries != nil ? .rleDictionary : .plain
        var row = 0
        var valueIndex = 0
        var byteOffset = 0
        slice.levels.withUnsafeBufferPointer { levels in
            repeat {
                let firstRow = row, firstValue = valueIndex, firstByte = byteOffset
                let lastRow = min(levels.count, row + options.maxRowsPerPage)
                var pageBytes = 0
                while row < lastRow && pageBytes < options.pageSize {
                    if levels[row] != 0 {
                        let size = isByteArray
                            ? 4 + Int(values.loadUnaligned(fromByteOffset: byteOffset, as: UInt32.self).littleEndian)
                            : width
                        pageBytes += size
                        byteOffset += isByteArray ? size : 0
                        valueIndex += 1
                    }
                    row += 1
                }
                body.removeAll(keepingCapacity: true)
                // Definition levels, after their length.
                body.append(contentsOf: [0, 0, 0, 0])
                RLEBitPackedHybrid.encode(UnsafeBufferPointer(rebasing: levels[firstRow..<row]), bitWidth: 1, into: &body)
                let levelBytes = UInt32(body.count - 4)
                withUnsafeBytes(of: levelBytes.littleEndian) { body.replaceSubrange(0..<4, with: $0) }
                // Values.
                if let entries {
                    body.append(UInt8(indexBitWidth))
                    RLEBitPackedHybrid.encode(
                        UnsafeBufferPointer(rebasing: entries[firstValue..<valueIndex]), bitWidth: indexBitWidth, into: &body)
                } else if layout.physicalType == .boolean {
                    let bits = values.assumingMemoryBound(to: UInt8.self)
                    RLEBitPackedHybrid.packBits(
                        bits, firstValue..<valueIndex, paddedTo: valueIndex - firstValue, bitWidth: 1, into: &body)
                } else if isByteArray {
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: values[firstByte..<byteOffset]))
                } else {
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: values[firstValue * width..<valueIndex * width]))
                }
                let header = PageHeader(
                    type: .dataPage, uncompressedPageSize: 0, compressedPageSize: 0,
                    dataPageHeader: DataPageHeader(
                        numValues: Int32(row - firstRow), encoding: encoding,
                        definitionLevelEncoding: .rle, repetitionLevelEncoding: .rle))
                uncompressedSize += append(header, body, to: &pages)
                if entries != nil { dictionaryPages += 1 } else { plainPages += 1 }
            } while row < levels.count
        }
    }

    /// Appends a page: its header (with the sizes filled in), then its
    /// body, compressed when the compressor compresses. Returns the page's
    /// uncompressed size, header included.
    private func append(_ header: PageHeader, _ body: [UInt8], to output: inout [UInt8]) -> Int {
        var header = header
        let compressed = compressor.compress(body)
        header.uncompressedPageSize = Int32(body.count)
        header.compressedPageSize = Int32(compressed ? compressor.outputCount : body.count)
        var writer = ThriftCompactWriter()
        writer.writeTopLevel(header)
        output.append(contentsOf: writer.bytes)
        if compressed {
            compressor.withOutput { output.append(contentsOf: $0) }
        } else {
            output.append(contentsOf: body)
        }
        return writer.bytes.count + body.count
    }
}
