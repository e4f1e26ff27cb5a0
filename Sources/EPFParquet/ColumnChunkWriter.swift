/// A column chunk encoded on its own, ready to be placed in a file: its pages
/// (an optional dictionary page, then data pages v1, each after its Thrift
/// page header) and its metadata, whose page offsets count from the chunk's
/// first byte (`ColumnMetaData.shifted(by:)` places them).
package struct EncodedColumnChunk: Sendable {
    package var bytes: [UInt8]
    package var metaData: ColumnMetaData
}

/// Encodes a `ParquetColumnBuffer` into pages.
///
/// Each data page (v1) holds whole rows: the 4-byte length and the
/// RLE/bit-packed definition levels (bit width 1), then the values: PLAIN,
/// or for a dictionary-encoded chunk the index bit width (1 byte) and the
/// RLE/bit-packed entry numbers. A page closes when its values reach
/// `pageSize` bytes or it holds `maxRowsPerPage` rows. Every page's body
/// (not its header) is compressed with the options' codec.
package enum ColumnChunkWriter {
    package static func encode(
        _ column: ParquetColumnBuffer, options: ParquetWriterOptions, compressor: PageCompressor
    ) -> EncodedColumnChunk {
        var output: [UInt8] = []
        var uncompressedSize = 0
        // Room for the pages uncompressed; compressed, a quarter (it grows if need be).
        let estimate = column.values.count + column.indices.count + column.levels.count / 4 + 64
        output.reserveCapacity(compressor.compression == .uncompressed ? estimate : estimate / 4)
        var body: [UInt8] = []
        var dictionaryPageOffset: Int64?
        var indexBitWidth = 0
        // An all-NULL chunk has an empty dictionary: PLAIN (no values) instead.
        let dictionary = column.dictionary.flatMap { $0.count > 0 ? $0 : nil }
        if let dictionary {
            dictionaryPageOffset = 0
            let header = PageHeader(
                type: .dictionaryPage, uncompressedPageSize: 0, compressedPageSize: 0,
                dictionaryPageHeader: DictionaryPageHeader(numValues: Int32(dictionary.count), encoding: .plain))
            uncompressedSize += append(header, dictionary.plain, compressor, to: &output)
            // At least 1: a bit width of 0 is valid but not read by every reader.
            indexBitWidth = max(1, RLEBitPackedHybrid.bitWidth(forMaximum: UInt32(dictionary.count - 1)))
        }
        let dataPageOffset = Int64(output.count)
        let encoding: Encoding = dictionary != nil ? .rleDictionary : .plain

        // Bytes a value takes in a page, to cut pages (byte arrays: read).
        let width = dictionary != nil ? max(1, indexBitWidth / 8) : (column.layout.fixedWidth ?? 1)
        let isByteArray = dictionary == nil && column.layout.physicalType == .byteArray
        var pages: Int32 = 0
        var row = 0
        var valueIndex = 0
        var byteOffset = 0
        column.levels.withUnsafeBufferPointer { levels in
            column.values.withUnsafeBytes { values in
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
                    RLEBitPackedHybrid.encode(
                        UnsafeBufferPointer(rebasing: levels[firstRow..<row]), bitWidth: 1, into: &body)
                    let levelBytes = UInt32(body.count - 4)
                    withUnsafeBytes(of: levelBytes.littleEndian) { body.replaceSubrange(0..<4, with: $0) }
                    // Values.
                    if dictionary != nil {
                        body.append(UInt8(indexBitWidth))
                        column.indices.withUnsafeBufferPointer {
                            RLEBitPackedHybrid.encode(
                                UnsafeBufferPointer(rebasing: $0[firstValue..<valueIndex]), bitWidth: indexBitWidth, into: &body)
                        }
                    } else if column.layout.physicalType == .boolean {
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
                    uncompressedSize += append(header, body, compressor, to: &output)
                    pages += 1
                } while row < levels.count
            }
        }

        var encodingStats = [PageEncodingStats(pageType: .dataPage, encoding: encoding, count: pages)]
        if dictionary != nil {
            encodingStats.insert(PageEncodingStats(pageType: .dictionaryPage, encoding: .plain, count: 1), at: 0)
        }
        let metaData = ColumnMetaData(
            type: column.layout.physicalType,
            encodings: dictionary != nil ? [.plain, .rle, .rleDictionary] : [.plain, .rle],
            pathInSchema: [column.column.name], codec: compressor.compression.codec, numValues: Int64(column.rowCount),
            totalUncompressedSize: Int64(uncompressedSize), totalCompressedSize: Int64(output.count),
            dataPageOffset: dataPageOffset, dictionaryPageOffset: dictionaryPageOffset,
            statistics: statistics(column), encodingStats: encodingStats)
        return EncodedColumnChunk(bytes: output, metaData: metaData)
    }

    /// The chunk's null count and, when it has values, min and max in their
    /// PLAIN form (byte arrays without their length).
    package static func statistics(_ column: ParquetColumnBuffer) -> Statistics {
        var statistics = Statistics(nullCount: Int64(column.nullCount))
        guard column.valueCount > 0 else { return statistics }
        switch column.layout.physicalType {
        case .boolean:
            statistics.minValue = [UInt8(column.minInteger)]
            statistics.maxValue = [UInt8(column.maxInteger)]
        case .int32:
            statistics.minValue = PlainEncoder.bytes(Int32(column.minInteger))
            statistics.maxValue = PlainEncoder.bytes(Int32(column.maxInteger))
        case .int64:
            statistics.minValue = PlainEncoder.bytes(column.minInteger)
            statistics.maxValue = PlainEncoder.bytes(column.maxInteger)
        case .fixedLenByteArray:
            var minimum: [UInt8] = [], maximum: [UInt8] = []
            PlainEncoder.appendBigEndian(column.minInteger, width: column.layout.fixedWidth!, to: &minimum)
            PlainEncoder.appendBigEndian(column.maxInteger, width: column.layout.fixedWidth!, to: &maximum)
            statistics.minValue = minimum
            statistics.maxValue = maximum
        case .byteArray:
            statistics.minValue = column.minBytes
            statistics.maxValue = column.maxBytes
        case .int96, .float, .double:
            preconditionFailure("no column of this writer is \(column.layout.physicalType)")
        }
        return statistics
    }

    /// Appends a page: its header (with the sizes filled in), then its
    /// body, compressed when the compressor compresses. Returns the page's
    /// uncompressed size, header included.
    private static func append(
        _ header: PageHeader, _ body: [UInt8], _ compressor: PageCompressor, to output: inout [UInt8]
    ) -> Int {
        var header = header
        let compressed = compressor.compress(body)
        header.uncompressedPageSize = Int32(body.count)
        header.compressedPageSize = Int32(compressed ? compressor.output.count : body.count)
        var writer = ThriftCompactWriter()
        writer.writeTopLevel(header)
        output.append(contentsOf: writer.bytes)
        output.append(contentsOf: compressed ? compressor.output : body)
        return writer.bytes.count + body.count
    }
}
