import Testing

@_spi(Benchmarks) @testable import EPFParquet

/// Bytes checked by hand against the compact protocol: a field header is
/// `delta << 4 | type` (types: 1 true, 2 false, 3 i8, 4 i16, 5 i32, 6 i64,
/// 8 binary, 9 list, 12 struct), a list header `size << 4 | element type`,
/// integers are zigzag varints, a struct ends with 0x00.
@Suite("Thrift compact protocol")
struct ThriftCompactWriterTests {
    private func varint(_ value: UInt64) -> [UInt8] {
        var writer = ThriftCompactWriter()
        writer.writeVarint(value)
        return writer.bytes
    }

    @Test func varints() {
        #expect(varint(0) == [0x00])
        #expect(varint(1) == [0x01])
        #expect(varint(127) == [0x7F])
        #expect(varint(128) == [0x80, 0x01])
        #expect(varint(300) == [0xAC, 0x02])
        #expect(varint(16_384) == [0x80, 0x80, 0x01])
        #expect(varint(UInt64.max) == Array(repeating: 0xFF, count: 9) + [0x01])
    }

    @Test func zigzag() {
        let writer = ThriftCompactWriter()
        #expect(writer.zigzag(0) == 0)
        #expect(writer.zigzag(-1) == 1)
        #expect(writer.zigzag(1) == 2)
        #expect(writer.zigzag(-2) == 3)
        #expect(writer.zigzag(2) == 4)
        #expect(writer.zigzag(Int64.max) == UInt64.max - 1)
        #expect(writer.zigzag(Int64.min) == UInt64.max)
    }

    private struct Fields: ThriftStruct {
        var write: (inout ThriftCompactWriter) -> Void
        func write(to writer: inout ThriftCompactWriter) { write(&writer) }
    }

    private func encode(_ write: @escaping (inout ThriftCompactWriter) -> Void) -> [UInt8] {
        ThriftCompactWriter.encode(Fields(write: write))
    }

    @Test func scalarFieldsWithShortDeltas() {
        let bytes = encode { w in
            w.field(1, i32: -1)
            w.field(2, i64: 150)
            w.field(3, bool: true)
            w.field(4, bool: false)
            w.field(5, i8: -2)
            w.field(6, i16: 7)
            w.field(7, string: "é")
        }
        #expect(
            bytes == [
                0x15, 0x01,  // 1: i32 -1
                0x16, 0xAC, 0x02,  // 2: i64 150 (zigzag 300)
                0x11,  // 3: true
                0x12,  // 4: false
                0x13, 0xFE,  // 5: i8 -2, one raw byte
                0x14, 0x0E,  // 6: i16 7
                0x18, 0x02, 0xC3, 0xA9,  // 7: binary, length 2, UTF-8 of é
                0x00,
            ])
    }

    @Test func longDeltasAndExtremes() {
        let bytes = encode { w in
            w.field(1, i64: Int64.min)
            w.field(20, i32: 5)  // delta 19: type byte, then the id as zigzag varint
            w.field(21, i64: Int64.max)
        }
        let ff: [UInt8] = Array(repeating: 0xFF, count: 8)
        var expected: [UInt8] = [0x16, 0xFF] + ff + [0x01]  // 1: zigzag(Int64.min) = UInt64.max
        expected += [0x05, 0x28, 0x0A]  // 20: type byte, id 20 as zigzag 40, value zigzag 10
        expected += [0x16, 0xFE] + ff + [0x01]  // 21: zigzag(Int64.max) = UInt64.max - 1
        expected += [0x00]
        #expect(bytes == expected)
    }

    @Test func lists() {
        let bytes = encode { w in
            w.field(2, i32List: [0, 3])
            w.field(3, stringList: ["a", "bc"])
            w.field(4, i32List: Array(repeating: 1, count: 15))
        }
        let ones: [UInt8] = Array(repeating: 0x02, count: 15)
        let expected: [UInt8] = [0x29, 0x25, 0x00, 0x06, 0x19, 0x28, 0x01, 0x61, 0x02, 0x62, 0x63, 0x19, 0xF5, 0x0F]
        #expect(bytes == expected + ones + [0x00])
    }

    @Test func statistics() {
        let bytes = ThriftCompactWriter.encode(Statistics(nullCount: 3, maxValue: [0x62], minValue: [0x61]))
        #expect(bytes == [0x36, 0x06, 0x28, 0x01, 0x62, 0x18, 0x01, 0x61, 0x00])
        #expect(ThriftCompactWriter.encode(Statistics()) == [0x00])
    }

    @Test func logicalTypes() {
        #expect(ThriftCompactWriter.encode(LogicalType.string) == [0x1C, 0x00, 0x00])
        #expect(
            ThriftCompactWriter.encode(LogicalType.decimal(precision: 9, scale: 3))
                == [0x5C, 0x15, 0x06, 0x15, 0x12, 0x00, 0x00])
        #expect(
            ThriftCompactWriter.encode(LogicalType.timestampMillis(adjustedToUTC: true))
                == [0x8C, 0x11, 0x1C, 0x1C, 0x00, 0x00, 0x00, 0x00])
        #expect(
            ThriftCompactWriter.encode(LogicalType.integer(bitWidth: 32, signed: true))
                == [0xAC, 0x13, 0x20, 0x11, 0x00, 0x00])
    }

    /// After a nested struct the outer struct's last field id is restored:
    /// field 7 after field 5 is delta 2 (0x2C), not a delta from the inner 4.
    @Test func nestedStructsRestoreTheOuterFieldID() {
        let header = PageHeader(
            type: .dataPage, uncompressedPageSize: 100, compressedPageSize: 100,
            dataPageHeader: DataPageHeader(numValues: 10, encoding: .plain, definitionLevelEncoding: .rle, repetitionLevelEncoding: .rle),
            dictionaryPageHeader: DictionaryPageHeader(numValues: 2, encoding: .plain))
        #expect(
            ThriftCompactWriter.encode(header) == [
                0x15, 0x00, 0x15, 0xC8, 0x01, 0x15, 0xC8, 0x01,
                0x2C, 0x15, 0x14, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00,
                0x2C, 0x15, 0x04, 0x15, 0x00, 0x00,
                0x00,
            ])
    }

    @Test func schemaElement() {
        let element = SchemaElement(
            type: .int64, repetitionType: .optional, name: "price", convertedType: .decimal,
            scale: 3, precision: 9, logicalType: .decimal(precision: 9, scale: 3))
        #expect(
            ThriftCompactWriter.encode(element) == [
                0x15, 0x04,  // 1: type INT64 (2)
                0x25, 0x02,  // 3: repetition OPTIONAL (1)
                0x18, 0x05, 0x70, 0x72, 0x69, 0x63, 0x65,  // 4: name
                0x25, 0x0A,  // 6: converted type DECIMAL (5)
                0x15, 0x06,  // 7: scale 3
                0x15, 0x12,  // 8: precision 9
                0x2C, 0x5C, 0x15, 0x06, 0x15, 0x12, 0x00, 0x00,  // 10: logical type DECIMAL
                0x00,
            ])
    }

    @Test func smallFileMetaData() {
        let metadata = FileMetaData(
            version: 1, schema: [SchemaElement(name: "s", numChildren: 0)], numRows: 0, rowGroups: [],
            keyValueMetadata: nil, createdBy: "x", columnOrders: [.typeDefinedOrder])
        #expect(
            ThriftCompactWriter.encode(metadata) == [
                0x15, 0x02,  // 1: version 1
                0x19, 0x1C, 0x48, 0x01, 0x73, 0x15, 0x00, 0x00,  // 2: [ {4: "s", 5: 0} ]
                0x16, 0x00,  // 3: num_rows 0
                0x19, 0x0C,  // 4: [] of structs
                0x28, 0x01, 0x78,  // 6: created_by "x"
                0x19, 0x1C, 0x1C, 0x00, 0x00,  // 7: [ {1: {}} ]
                0x00,
            ])
    }
}
