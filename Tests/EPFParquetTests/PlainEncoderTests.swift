@_spi(Benchmarks) import EPFParquet
import Testing

@Suite("PLAIN encoding and decimal widths")
struct PlainEncoderTests {
    @Test func integersAreLittleEndian() {
        #expect(PlainEncoder.bytes(Int64(1)) == [1, 0, 0, 0, 0, 0, 0, 0])
        #expect(PlainEncoder.bytes(Int64(-2)) == [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(PlainEncoder.bytes(Int64.min) == [0, 0, 0, 0, 0, 0, 0, 0x80])
        #expect(PlainEncoder.bytes(Int32(0x0102_0304)) == [4, 3, 2, 1])
    }

    @Test func byteArraysHaveALength() {
        var output: [UInt8] = []
        [UInt8]("hé".utf8).withUnsafeBytes { PlainEncoder.appendByteArray($0, to: &output) }
        [UInt8]().withUnsafeBytes { PlainEncoder.appendByteArray($0, to: &output) }
        #expect(output == [3, 0, 0, 0, 0x68, 0xC3, 0xA9, 0, 0, 0, 0])
    }

    @Test func fixedDecimalsAreBigEndianTwosComplement() {
        func bytes(_ value: Int64, _ width: Int) -> [UInt8] {
            var output: [UInt8] = []
            PlainEncoder.appendBigEndian(value, width: width, to: &output)
            return output
        }
        #expect(bytes(256, 3) == [0x00, 0x01, 0x00])
        #expect(bytes(-1, 9) == Array(repeating: 0xFF, count: 9))
        #expect(bytes(1, 9) == [0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(bytes(Int64.min, 10) == [0xFF, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0])
    }

    /// n bytes hold floor((8n - 1) log10 2) digits.
    @Test func decimalWidths() {
        #expect(ColumnLayout.decimalBytes(precision: 1) == 1)
        #expect(ColumnLayout.decimalBytes(precision: 2) == 1)
        #expect(ColumnLayout.decimalBytes(precision: 3) == 2)
        #expect(ColumnLayout.decimalBytes(precision: 18) == 8)
        #expect(ColumnLayout.decimalBytes(precision: 19) == 9)
        #expect(ColumnLayout.decimalBytes(precision: 20) == 9)
        #expect(ColumnLayout.decimalBytes(precision: 38) == 16)
        #expect(ColumnLayout(.decimal(precision: 18, scale: 2)).physicalType == .int64)
        #expect(ColumnLayout(.decimal(precision: 19, scale: 2)).physicalType == .fixedLenByteArray)
    }
}

@Suite("Byte order of string statistics")
struct ByteOrderTests {
    /// Unsigned bytes, a prefix before the longer string: "é" (0xC3 0xA9)
    /// after "z" (0x7A), "" first.
    @Test(arguments: [
        ("", "a", -1), ("a", "", 1), ("a", "a", 0), ("a", "ab", -1), ("ab", "a", 1), ("z", "é", -1), ("é", "z", 1),
        ("\u{7F}", "\u{80}", -1), ("B", "a", -1), ("abc", "abd", -1),
    ])
    func order(a: String, b: String, sign: Int) {
        let result = [UInt8](a.utf8).withUnsafeBytes { ColumnStatistics.compare($0, [UInt8](b.utf8)) }
        #expect(result.signum() == sign)
    }
}
