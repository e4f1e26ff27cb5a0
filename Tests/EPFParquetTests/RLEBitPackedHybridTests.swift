@_spi(Benchmarks) import EPFParquet
import Testing

@Suite("RLE / bit-packing hybrid")
struct RLEBitPackedHybridTests {
    private func encode(_ values: [UInt32], bitWidth: Int) -> [UInt8] {
        var output: [UInt8] = []
        RLEBitPackedHybrid.encode(values, bitWidth: bitWidth, into: &output)
        return output
    }

    /// The example of Encodings.md: 0...7, bit width 3, one bit-packed group.
    @Test func specExample() {
        #expect(encode(Array(0...7), bitWidth: 3) == [0x03, 0x88, 0xC6, 0xFA])
    }

    @Test func runsAndLiterals() {
        // 10 ones: one RLE run, header 10 << 1, value in one byte.
        #expect(encode(Array(repeating: 1, count: 10), bitWidth: 1) == [0x14, 0x01])
        // 3 values: one bit-packed group, padded with zeros.
        #expect(encode([1, 0, 1], bitWidth: 1) == [0x03, 0x05])
        // 3 literals, then 20 zeros: the group of 8 is completed from the
        // run (1,1,1,0,0,0,0,0 = 0x07), the 15 zeros left are a run.
        #expect(encode([1, 1, 1] + Array(repeating: 0, count: 20), bitWidth: 1) == [0x03, 0x07, 0x1E, 0x00])
        // A run's value takes ceil(bit width / 8) bytes, little-endian.
        #expect(encode(Array(repeating: 300, count: 8), bitWidth: 9) == [0x10, 0x2C, 0x01])
        // 125 groups of 0,1,...: the header is a two-byte varint (251).
        let alternating = (0..<1000).map { UInt32($0 % 2) }
        let expected: [UInt8] = [0xFB, 0x01] + Array(repeating: 0xAA, count: 125)
        #expect(encode(alternating, bitWidth: 1) == expected)
        #expect(encode([], bitWidth: 1) == [])
    }

    @Test func bitWidths() {
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: 0) == 0)
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: 1) == 1)
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: 2) == 2)
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: 255) == 8)
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: 256) == 9)
        #expect(RLEBitPackedHybrid.bitWidth(forMaximum: UInt32.max) == 32)
    }

    /// Random mixes of runs and noise decode (with the reference decoder
    /// below, written from the grammar) to what was encoded.
    @Test(arguments: [1, 2, 3, 7, 8, 9, 17, 32])
    func roundTrips(bitWidth: Int) {
        var random = SplitMix(seed: UInt64(bitWidth))
        let limit = bitWidth == 32 ? UInt64(UInt32.max) : (UInt64(1) << UInt64(bitWidth)) - 1
        for _ in 0..<200 {
            var values: [UInt32] = []
            let pieces = Int(random.next() % 12)
            for _ in 0..<pieces {
                let value = UInt32(random.next() % (limit + 1))
                if random.next() % 2 == 0 {
                    values += Array(repeating: value, count: Int(random.next() % 40) + 1)
                } else {
                    for _ in 0..<Int(random.next() % 20) { values.append(UInt32(random.next() % (limit + 1))) }
                }
            }
            let bytes = encode(values, bitWidth: bitWidth)
            #expect(decodeHybrid(bytes, bitWidth: bitWidth, count: values.count) == values)
        }
    }
}

/// Reads `count` values of the hybrid encoding (test reference).
func decodeHybrid(_ bytes: [UInt8], bitWidth: Int, count: Int) -> [UInt32]? {
    var values: [UInt32] = []
    var position = 0
    func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }
    while values.count < count {
        guard let header = varint() else { return nil }
        if header & 1 == 0 {
            var value: UInt32 = 0
            for index in 0..<((bitWidth + 7) / 8) {
                guard position < bytes.count else { return nil }
                value |= UInt32(bytes[position]) << (8 * UInt32(index))
                position += 1
            }
            values += Array(repeating: value, count: Int(header >> 1))
        } else {
            let total = Int(header >> 1) * 8
            var bit = 0
            for _ in 0..<total {
                var value: UInt32 = 0
                for b in 0..<bitWidth {
                    let at = bit + b
                    guard position + at / 8 < bytes.count else { return nil }
                    if bytes[position + at / 8] >> (at % 8) & 1 == 1 { value |= 1 << UInt32(b) }
                }
                bit += bitWidth
                values.append(value)
            }
            position += total * bitWidth / 8
        }
    }
    guard position == bytes.count else { return nil }
    return Array(values.prefix(count))
}

/// SplitMix64, a seeded generator for the tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
