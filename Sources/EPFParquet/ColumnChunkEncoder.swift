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
/// (`ParquetColumnBuffer`s of the same column, in row order): what a row
/// group keeps in memory is its pages, compressed, not its values.
///
/// A slice goes in three steps, so that the pages of all columns can be
/// compressed together on every core (`ParquetRowGroupEncoder`), however
/// unequal the columns: `stage(_:)` cuts the slice into pages, uncompressed
/// (`stagedPages`); each `PendingPage` is then compressed, on any thread;
/// `commit()` appends them, after their headers, to the chunk.
///
/// Each data page (v1) holds whole rows of one slice: the 4-byte length and
/// the RLE/bit-packed definition levels (bit width 1), then the values:
/// PLAIN, or for a dictionary-encoded slice the index bit width (1 byte)
/// and the RLE/bit-packed entry numbers. A page closes when its values
/// reach `pageSize` bytes, it holds `maxRowsPerPage` rows, or its slice
/// ends. Every page's body (not its header) is compressed with the
/// options' codec. A PLAIN text slice comes cut already, by the same rules,
/// most pages' bodies whole in its values (`ParquetColumnBuffer.pages`).
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
/// thread at a time each, and their staged pages on others in between.
package final class ColumnChunkEncoder: @unchecked Sendable {
    package let column: ParquetColumn
    private let layout: ColumnLayout
    private let options: ParquetWriterOptions

    private var pages: [UInt8] = []
    private var dictionary: ByteArrayDictionary?
    /// Whether later slices may still be dictionary-encoded.
    private var dictionaryOpen: Bool
    private var dictionaryPages: Int32 = 0
    private var plainPages: Int32 = 0
    private var uncompressedSize = 0
    private var rows = 0
    private var statistics = ColumnStatistics()
    /// A written chunk's data pages, emptied, to hold the next chunk's
    /// (`recycle`): a row group's pages are tens of megabytes, which the
    /// next one would otherwise allocate and fault in again.
    private var spare: [UInt8] = []
    /// Pages made by `stage`, reused slice after slice: the first
    /// `staged` are the staged ones.
    private var pending: [PendingPage] = []
    private var staged = 0
    // Reused between slices.
    private var entries: [UInt32] = []
    private var plain: [UInt8] = []
    private var plainLengths: [UInt32] = []

    package init(column: ParquetColumn, options: ParquetWriterOptions) {
        self.column = column
        self.layout = ColumnLayout(column.type)
        self.options = options
        self.dictionaryOpen = column.dictionary
    }

    /// The compressed bytes of the pages so far.
    package var encodedBytes: Int { pages.count }

    /// Takes back the data pages of a chunk this encoder made and that
    /// was written, to reuse their memory (when `pages` is their only
    /// reference).
    package func recycle(pages: consuming [UInt8]) {
        pages.removeAll(keepingCapacity: true)
        if self.pages.isEmpty && self.pages.capacity < pages.capacity { swap(&self.pages, &pages) } else { spare = pages }
    }

    /// The pages of the last `stage(_:)`, to be compressed before `commit()`.
    package var stagedPages: ArraySlice<PendingPage> { pending[..<staged] }

    /// Cuts the rows of `slice` (this encoder's column) into pages, not yet
    /// compressed; `commit()` appends them to the chunk.
    package func stage(_ slice: ParquetColumnBuffer) {
        precondition(staged == 0, "stage(_:) before the last staged pages were committed")
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
                appendPages(slice, values: [], lengths: [], entries: entries, indexBitWidth: width)
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
            plainLengths.removeAll(keepingCapacity: true)
            for index in slice.indices {
                sliceDictionary.withEntry(Int(index)) {
                    PlainEncoder.appendByteArray($0, to: &plain)
                    plainLengths.append(UInt32(truncatingIfNeeded: $0.count))
                }
            }
            appendPages(slice, values: plain, lengths: plainLengths, entries: nil, indexBitWidth: 0)
        } else if layout.physicalType == .byteArray {
            appendPlacedPages(slice)
        } else {
            appendPages(slice, values: slice.values, lengths: [], entries: nil, indexBitWidth: 0)
        }
    }

    /// Appends the staged pages, each after its header, to the chunk;
    /// each compressed (`PendingPage.compress(with:)`) or not, as the
    /// options say.
    package func commit() {
        for page in pending[..<staged] {
            let header = PageHeader(
                type: .dataPage, uncompressedPageSize: 0, compressedPageSize: 0,
                dataPageHeader: DataPageHeader(
                    numValues: page.numValues, encoding: page.dictionaryEncoded ? .rleDictionary : .plain,
                    definitionLevelEncoding: .rle, repetitionLevelEncoding: .rle))
            uncompressedSize += append(
                header, bodyCount: page.bodyCount, stored: page.compressedCount == nil ? page.body : page.output,
                count: page.compressedCount ?? page.bodyCount, to: &pages)
            if page.dictionaryEncoded { dictionaryPages += 1 } else { plainPages += 1 }
        }
        staged = 0
    }

    /// The chunk of the slices committed since the last `finish()`, its
    /// dictionary page compressed with `compressor`; the encoder is empty
    /// after, for the same column of the next row group.
    package func finish(compressingWith compressor: PageCompressor) -> EncodedColumnChunk {
        precondition(staged == 0, "finish() before the last staged pages were committed")
        var dictionaryPage: [UInt8] = []
        var uncompressed = uncompressedSize
        var encodings: [Encoding] = [.plain, .rle]
        var encodingStats: [PageEncodingStats] = []
        if let dictionary, dictionaryPages > 0 {
            let header = PageHeader(
                type: .dictionaryPage, uncompressedPageSize: 0, compressedPageSize: 0,
                dictionaryPageHeader: DictionaryPageHeader(numValues: Int32(dictionary.count), encoding: .plain))
            var output: [UInt8] = []
            let count = compressor.compress(dictionary.plain, into: &output)
            uncompressed += append(
                header, bodyCount: dictionary.plain.count, stored: count == nil ? dictionary.plain : output,
                count: count ?? dictionary.plain.count, to: &dictionaryPage)
            encodings.append(.rleDictionary)
            encodingStats.append(PageEncodingStats(pageType: .dictionaryPage, encoding: .plain, count: 1))
            encodingStats.append(PageEncodingStats(pageType: .dataPage, encoding: .rleDictionary, count: dictionaryPages))
        }
        if plainPages > 0 {
            encodingStats.append(PageEncodingStats(pageType: .dataPage, encoding: .plain, count: plainPages))
        }
        let metaData = ColumnMetaData(
            type: layout.physicalType, encodings: encodings, pathInSchema: [column.name],
            codec: options.compression.codec, numValues: Int64(rows),
            totalUncompressedSize: Int64(uncompressed), totalCompressedSize: Int64(dictionaryPage.count + pages.count),
            dataPageOffset: Int64(dictionaryPage.count), dictionaryPageOffset: dictionaryPages > 0 ? 0 : nil,
            statistics: statistics.thrift(layout), encodingStats: encodingStats)
        let chunk = EncodedColumnChunk(dictionaryPage: dictionaryPage, dataPages: pages, metaData: metaData)
        pages = spare
        spare = []
        dictionary = nil
        dictionaryOpen = column.dictionary
        dictionaryPages = 0
        plainPages = 0
        uncompressedSize = 0
        rows = 0
        statistics.removeAll()
        return chunk
    }

    /// Cuts one slice into pages: `values` PLAIN (byte arrays, those of a
    /// slice's dictionary that the chunk dropped: with each one's length
    /// in `lengths`), or `entries` (dictionary entry numbers,
    /// one a value) of `indexBitWidth` bits. Each page keeps its ranges of
    /// the slice's arrays (references, not copies); its body is made when
    /// it is compressed (`PendingPage.build`), on whichever thread.
    private func appendPages(
        _ slice: ParquetColumnBuffer, values: [UInt8], lengths: [UInt32], entries: [UInt32]?, indexBitWidth: Int
    ) {
        // Bytes a value takes in a page, to cut pages.
        let width = entries != nil ? max(1, indexBitWidth / 8) : (layout.fixedWidth ?? 1)
        let isByteArray = entries == nil && layout.physicalType == .byteArray
        var row = 0
        var valueIndex = 0
        var byteOffset = 0
        let rowCount = slice.levels.count
        slice.levels.withUnsafeBufferPointer { levels in
            repeat {
                let firstRow = row
                let firstValue = valueIndex
                let firstByte = byteOffset
                let lastRow = min(rowCount, row + options.maxRowsPerPage)
                var pageBytes = 0
                while row < lastRow && pageBytes < options.pageSize {
                    if levels[row] != 0 {
                        let size = isByteArray ? 4 + Int(lengths[valueIndex]) : width
                        pageBytes += size
                        byteOffset += isByteArray ? size : 0
                        valueIndex += 1
                    }
                    row += 1
                }
                let page = nextPage(rows: firstRow..<row, dictionaryEncoded: entries != nil)
                page.levels = slice.levels
                if let entries {
                    page.source = .entries(entries, firstValue..<valueIndex, bitWidth: indexBitWidth)
                } else if layout.physicalType == .boolean {
                    page.source = .booleans(values, firstValue..<valueIndex)
                } else if isByteArray {
                    page.source = .bytes(values, firstByte..<byteOffset)
                } else {
                    page.source = .bytes(values, firstValue * width..<valueIndex * width)
                }
            } while row < rowCount
        }
    }

    /// Cuts a PLAIN text slice into the pages it was cut into as its
    /// values arrived (`ParquetColumnBuffer.pages`, then its open page):
    /// a page whose body lies whole in the slice's values is compressed
    /// from there; the others' bodies are made as other columns' are.
    private func appendPlacedPages(_ slice: ParquetColumnBuffer) {
        for placed in slice.pages {
            let page = nextPage(rows: placed.rows, dictionaryEncoded: false)
            if let bodyStart = placed.bodyStart {
                page.source = .body(slice.values, bodyStart..<placed.values.upperBound)
            } else {
                page.levels = slice.levels
                page.source = .bytes(slice.values, placed.values)
            }
        }
        if slice.openPageRow < slice.rowCount {
            let page = nextPage(rows: slice.openPageRow..<slice.rowCount, dictionaryEncoded: false)
            page.levels = slice.levels
            page.source = .bytes(slice.values, slice.openPageValues..<slice.values.count)
        }
    }

    /// The next staged page, reused, for `rows` of the slice; its source
    /// (and levels) are the caller's to set.
    private func nextPage(rows: Range<Int>, dictionaryEncoded: Bool) -> PendingPage {
        if staged == pending.count { pending.append(PendingPage()) }
        let page = pending[staged]
        staged += 1
        page.numValues = Int32(rows.count)
        page.dictionaryEncoded = dictionaryEncoded
        page.compressedCount = nil
        page.rows = rows
        return page
    }

    /// Appends a page: its header (with the sizes filled in: `bodyCount`
    /// uncompressed, `count` stored), then the first `count` bytes of
    /// `stored` (its body compressed, or the body itself). Returns the
    /// page's uncompressed size, header included.
    private func append(_ header: PageHeader, bodyCount: Int, stored: [UInt8], count: Int, to output: inout [UInt8]) -> Int {
        var header = header
        header.uncompressedPageSize = Int32(bodyCount)
        header.compressedPageSize = Int32(count)
        var writer = ThriftCompactWriter()
        writer.writeTopLevel(header)
        output.append(contentsOf: writer.bytes)
        stored.withUnsafeBytes { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return writer.bytes.count + bodyCount
    }
}

/// One data page between `ColumnChunkEncoder.stage(_:)`, which cuts it
/// (its rows, its values), and `commit()`, which places it; `compress(with:)`,
/// in between, makes its body (definition levels and values) and
/// compresses it, or compresses the body where it lies (`Source.body`).
/// A class, so that the pages of a row group's columns can be made and
/// compressed on several threads at once, each page by one thread
/// (`ParquetRowGroupEncoder`); reused slice after slice, so that its
/// buffers keep their capacity.
///
/// Invariant: from `stage` to `compress`, `levels` and `source` share the
/// slice's (or the encoder's) arrays, which nobody changes meanwhile;
/// `compress` lets go of them, so that they stay uniquely referenced and
/// are emptied in place afterwards.
package final class PendingPage: @unchecked Sendable {
    /// Where a page's values come from.
    enum Source {
        case none
        /// PLAIN bytes (fixed-width values or byte arrays with their lengths).
        case bytes([UInt8], Range<Int>)
        /// BOOLEANs, a byte each, bit-packed into the page.
        case booleans([UInt8], Range<Int>)
        /// Dictionary entry numbers, RLE/bit-packed at `bitWidth`.
        case entries([UInt32], Range<Int>, bitWidth: Int)
        /// The whole body, levels included, in a PLAIN text slice's values
        /// (`ParquetColumnBuffer.pages`): compressed from there, not copied.
        case body([UInt8], Range<Int>)
    }

    var levels: [UInt8] = []
    var rows: Range<Int> = 0..<0
    var source = Source.none
    /// The body when made here (`build()`), reused.
    var body: [UInt8] = []
    /// The body's size, wherever it lies.
    var bodyCount = 0
    /// Room for the compressed body, reused.
    var output: [UInt8] = []
    /// Bytes of `output` that hold the compressed body; nil: the page is
    /// stored uncompressed.
    var compressedCount: Int?
    var numValues: Int32 = 0
    var dictionaryEncoded = false

    /// About the bytes its body will take: to compress the largest first.
    package var estimatedBytes: Int {
        switch source {
        case .none: return 0
        case .bytes(_, let range), .booleans(_, let range), .body(_, let range): return range.count
        case .entries(_, let range, _): return range.count
        }
    }

    /// Makes the body, then compresses it (nothing when the compressor
    /// does not compress); a body that lies whole in the slice's values is
    /// compressed from there. Lets go of the arrays it read.
    package func compress(with compressor: PageCompressor) {
        if case .body(let values, let range) = source, compressor.compression != .uncompressed {
            bodyCount = range.count
            compressedCount = values.withUnsafeBytes {
                compressor.compress(UnsafeRawBufferPointer(rebasing: $0[range]), into: &output)
            }
        } else {
            build()
            bodyCount = body.count
            compressedCount = compressor.compress(body, into: &output)
        }
        levels = []
        source = .none
    }

    /// The body: the definition levels' length and RLE/bit-packed levels
    /// (bit width 1), then the values (or a copy of a body that lies in
    /// the slice's values, to be stored uncompressed).
    func build() {
        body.removeAll(keepingCapacity: true)
        if case .body(let values, let range) = source {
            values.withUnsafeBytes { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[range])) }
            return
        }
        levels.withUnsafeBufferPointer {
            RLEBitPackedHybrid.appendDefinitionLevels(UnsafeBufferPointer(rebasing: $0[rows]), to: &body)
        }
        switch source {
        case .none, .body:
            break
        case .bytes(let values, let range):
            values.withUnsafeBytes { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[range])) }
        case .booleans(let values, let range):
            values.withUnsafeBufferPointer {
                RLEBitPackedHybrid.packBits($0, range, paddedTo: range.count, bitWidth: 1, into: &body)
            }
        case .entries(let entries, let range, let bitWidth):
            body.append(UInt8(bitWidth))
            entries.withUnsafeBufferPointer {
                RLEBitPackedHybrid.encode(UnsafeBufferPointer(rebasing: $0[range]), bitWidth: bitWidth, into: &body)
            }
        }
    }
}
