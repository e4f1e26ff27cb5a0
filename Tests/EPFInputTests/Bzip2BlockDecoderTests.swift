import CBZip2
import Foundation
import Testing

@_spi(Benchmarks) @testable import EPFInput

/// The Swift block decoder (`Bzip2BlockDecoder`, through
/// `ParallelBzip2Stream`) against the system's bzip2 and libbz2
/// (`Bzip2Stream`): byte for byte on round trips, typed errors on damage.
@Suite("bzip2 block decoder")
struct Bzip2BlockDecoderTests {
    // MARK: Helpers

    /// Deterministic pseudo-random numbers.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 29
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Everything libbz2 (the single-threaded `Bzip2Stream`) reads from `compressed`.
    static func libbz2(_ compressed: [UInt8]) throws -> [UInt8] {
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try Bzip2Stream(path: path)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return result }
            result += buffer[0..<count]
        }
    }

    /// What libbz2 writes for `compressed` (one stream) up to where it
    /// fails: the bytes of a block whose CRC is wrong included.
    static func libbz2IgnoringCRC(_ compressed: [UInt8]) -> [UInt8] {
        var stream = bz_stream()
        #expect(BZ2_bzDecompressInit(&stream, 0, 0) == BZ_OK)
        defer { BZ2_bzDecompressEnd(&stream) }
        var input = compressed
        var output = [UInt8](repeating: 0, count: 8 << 20)
        let code = input.withUnsafeMutableBytes { input in
            output.withUnsafeMutableBytes { output in
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: CChar.self)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: CChar.self)
                stream.avail_out = UInt32(output.count)
                return BZ2_bzDecompress(&stream)
            }
        }
        #expect(code == BZ_DATA_ERROR)
        return Array(output.prefix(Int(stream.total_out_lo32)))
    }

    /// Compresses `bytes` with the system's bzip2 at `level`, decodes it
    /// with ours and with libbz2, and expects both to give `bytes`.
    static func expectRoundTrip(_ bytes: [UInt8], level: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let compressed = try Bzip2StreamTests.bzip2(bytes, level: level)
        let ours = try ParallelBzip2StreamTests.decompress(compressed)
        #expect(ours.count == bytes.count, sourceLocation: sourceLocation)
        #expect(ours == bytes, sourceLocation: sourceLocation)
        if !bytes.isEmpty {
            #expect(try libbz2(compressed) == ours, sourceLocation: sourceLocation)
        }
    }

    /// The one block of a one-stream file: its bit range and level.
    static func onlyBlock(_ compressed: [UInt8]) -> (start: Int, end: Int, level: Int) {
        let markers = ParallelBzip2StreamTests.markers(compressed)
        #expect(markers.count == 2 && markers[0].kind == .block && markers[1].kind == .endOfStream)
        return (markers[0].bitOffset, markers[1].bitOffset, Int(compressed[3] - 0x30))
    }

    /// Decodes bits `start..<end` of `compressed` with a fresh decoder.
    static func decodeBlock(_ compressed: [UInt8], start: Int, end: Int, level: Int) throws -> [UInt8] {
        let decoder = Bzip2BlockDecoder()
        var output = Bzip2Output(capacity: 4096)
        defer { output.deallocate() }
        try compressed.withUnsafeBytes { file in
            try decoder.decode(file, startBit: start, endBit: end, level: level, into: &output)
        }
        return Array(UnsafeBufferPointer(start: output.bytes, count: output.count))
    }

    /// `value`'s low `count` bits written at bit `bit` of `bytes`.
    static func write(_ value: UInt64, bits count: Int, at bit: Int, in bytes: inout [UInt8]) {
        for index in 0..<count {
            let at = bit + index
            let mask = UInt8(0x80) >> UInt8(at % 8)
            if (value >> UInt64(count - 1 - index)) & 1 == 1 { bytes[at / 8] |= mask } else { bytes[at / 8] &= ~mask }
        }
    }

    /// `count` bits at bit `bit` of `bytes`.
    static func read(bits count: Int, at bit: Int, in bytes: [UInt8]) -> UInt64 {
        (0..<count).reduce(0) { value, index in
            value << 1 | UInt64(bytes[(bit + index) / 8] >> UInt8(7 - (bit + index) % 8) & 1)
        }
    }

    /// The bit where a one-block stream's table count (3 bits) is: after
    /// magic, CRC, flag, origin pointer and the symbol map.
    static func tableCountBit(_ compressed: [UInt8]) -> Int {
        var bit = 32 + 48 + 32 + 1 + 24
        let ranges = read(bits: 16, at: bit, in: compressed)
        bit += 16 + 16 * ranges.nonzeroBitCount
        return bit
    }

    /// The error `compressed` gives through `ParallelBzip2Stream`.
    static func error(_ compressed: [UInt8]) throws -> InputError? {
        try ParallelBzip2StreamTests.error(compressed)
    }

    static let text: [UInt8] = ParallelBzip2StreamTests.mixedText

    // MARK: Round trips

    @Test(arguments: [1, 9])
    func textOfSeveralBlocksRoundTrips(level: Int) throws {
        try Self.expectRoundTrip(Self.text, level: level)
    }

    @Test func emptyInputAndASingleByteRoundTrip() throws {
        try Self.expectRoundTrip([], level: 9)
        try Self.expectRoundTrip([0x41], level: 9)
        try Self.expectRoundTrip([0x00], level: 1)
        try Self.expectRoundTrip([0xFF, 0xFF], level: 1)
    }

    @Test func longRunsOfOneByteRoundTrip() throws {
        // One byte 2.5 MB long: runs of 255 + 4 again and again, long zero
        // runs after the move-to-front step, a huge expansion per block.
        try Self.expectRoundTrip([UInt8](repeating: 0x61, count: 2_500_000), level: 9)
        try Self.expectRoundTrip([UInt8](repeating: 0x00, count: 300_001), level: 1)
    }

    @Test func runsAroundTheRunLengthStepsEdgesRoundTrip() throws {
        // Runs of 1-300 equal bytes (4 and 5 are the run-length step's
        // edges: four equal bytes then a count, 0 for exactly four), with
        // the same byte or another after them, and at the very end.
        var random = Generator(state: 7)
        var bytes: [UInt8] = []
        for length in 1...300 {
            let byte = UInt8(random.below(4) + 0x41)
            bytes += [UInt8](repeating: byte, count: length)
            bytes.append(random.below(3) == 0 ? byte &+ 1 : UInt8(random.below(256)))
        }
        for length in [4, 5, 8, 9, 259, 260, 263] {
            bytes += [UInt8](repeating: 0x7A, count: length) + [0x01] + [UInt8](repeating: 0x7A, count: length)
        }
        try Self.expectRoundTrip(bytes, level: 1)
        for tail in [3, 4, 5, 259] {
            try Self.expectRoundTrip([0x10, 0x20] + [UInt8](repeating: 0x30, count: tail), level: 9)
            try Self.expectRoundTrip([UInt8](repeating: 0x30, count: tail), level: 9)
        }
    }

    @Test func randomBytesRoundTrip() throws {
        // Incompressible: all 256 values, flat code lengths, two blocks.
        var random = Generator(state: 99)
        try Self.expectRoundTrip((0..<1_200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }, level: 9)
    }

    @Test func skewedBytesNeedLongCodesAndRoundTrip() throws {
        // Geometric byte frequencies over all 256 values give codes far
        // longer than the 10-bit lookup: the long-code path.
        var random = Generator(state: 5)
        let bytes = (0..<400_000).map { _ -> UInt8 in
            var value = 0
            while value < 255 && random.below(5) != 0 { value += 1 }
            return UInt8(value)
        }
        let compressed = try Bzip2StreamTests.bzip2(bytes, level: 9)
        let block = Self.onlyBlock(compressed)
        let decoder = Bzip2BlockDecoder()
        var output = Bzip2Output(capacity: 4096)
        defer { output.deallocate() }
        try compressed.withUnsafeBytes { file in
            try decoder.decode(file, startBit: block.start, endBit: block.end, level: block.level, into: &output)
        }
        #expect(Array(UnsafeBufferPointer(start: output.bytes, count: output.count)) == bytes)
        #expect((0..<6).map { decoder.tables.longest[$0] }.max()! > Bzip2HuffmanTables.primaryBits)
        try Self.expectRoundTrip(bytes, level: 9)
    }

    @Test func concatenatedStreamsOfEveryLevelRoundTrip() throws {
        var compressed: [UInt8] = []
        var expected: [UInt8] = []
        for level in 1...9 {
            let part = Array(Self.text[(level * 100_000)..<(level * 100_000 + level * 37_000)])
            compressed += try Bzip2StreamTests.bzip2(part, level: level)
            expected += part
        }
        #expect(try ParallelBzip2StreamTests.decompress(compressed) == expected)
        #expect(try Self.libbz2(compressed) == expected)
    }

    @Test func aDecoderIsReusedAcrossLevelsAndBlocks() throws {
        // One decoder for blocks of different levels and sizes, small after
        // large: nothing of a block may leak into the next.
        let decoder = Bzip2BlockDecoder()
        var output = Bzip2Output(capacity: 10)
        defer { output.deallocate() }
        for (level, size) in [(9, 800_000), (1, 1000), (3, 250_000), (9, 3), (2, 150_000)] {
            let part = Array(Self.text.suffix(size))
            let compressed = try Bzip2StreamTests.bzip2(part, level: level)
            let block = Self.onlyBlock(compressed)
            try compressed.withUnsafeBytes { file in
                try decoder.decode(file, startBit: block.start, endBit: block.end, level: level, into: &output)
            }
            #expect(Array(UnsafeBufferPointer(start: output.bytes, count: output.count)) == part)
        }
    }

    // MARK: Randomised blocks

    @Test func aRandomisedBlockDecodesAsLibbz2DecodesIt() throws {
        // No bzip2 since 0.9.5 writes randomised blocks, so make one: set
        // the flag on an ordinary block. Its bytes then decode differently
        // (every few hundred bytes flipped before the run-length step);
        // libbz2 writes them before it finds the CRC wrong. With the CRCs
        // set to those bytes', libbz2 accepts the block, and so must we.
        let plain = Array(Self.text.prefix(600_000))  // > 278,212: the table wraps
        var compressed = try Bzip2StreamTests.bzip2(plain, level: 9)
        let block = Self.onlyBlock(compressed)
        #expect(Self.read(bits: 1, at: block.start + 80, in: compressed) == 0)
        Self.write(1, bits: 1, at: block.start + 80, in: &compressed)
        let flipped = Self.libbz2IgnoringCRC(compressed)
        #expect(flipped.count > 500_000 && flipped != plain)
        let crc = flipped.withUnsafeBufferPointer { Bzip2CRC.checksum($0.baseAddress!, count: $0.count) }
        Self.write(UInt64(crc), bits: 32, at: block.start + 48, in: &compressed)
        Self.write(UInt64(crc), bits: 32, at: block.end + 48, in: &compressed)
        #expect(try Self.libbz2(compressed) == flipped)
        #expect(try ParallelBzip2StreamTests.decompress(compressed) == flipped)
    }

    // MARK: The pieces

    @Test func theCRCIsBzip2s() throws {
        #expect(Array("123456789".utf8).withUnsafeBufferPointer { Bzip2CRC.checksum($0.baseAddress!, count: 9) } == 0xFC89_1918)
        for size in [0, 1, 7, 8, 9, 1000, 65_537] {
            let part = Array(Self.text.prefix(size))
            let compressed = try Bzip2StreamTests.bzip2(part, level: 9)
            guard size > 0 else { continue }
            let stored = UInt32(Self.read(bits: 32, at: 80, in: compressed))
            #expect(part.withUnsafeBufferPointer { Bzip2CRC.checksum($0.baseAddress!, count: size) } == stored)
        }
    }

    @Test func moveToFrontMatchesTheObviousList() {
        var random = Generator(state: 3)
        var list = [UInt8](0...255)
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: 264, alignment: 8)
        defer { pointer.deallocate() }
        let fast = pointer.initializeMemory(as: UInt8.self, from: list + [UInt8](repeating: 0, count: 8), count: 264)
        for round in 0..<20_000 {
            let index = round % 7 == 0 ? random.below(256) : random.below(20)
            let byte = list.remove(at: index)
            list.insert(byte, at: 0)
            #expect(Bzip2BlockDecoder.moveToFront(fast, index: index) == byte)
        }
        #expect(Array(UnsafeBufferPointer(start: fast, count: 256)) == list)
    }

    // MARK: Damage

    @Test func aBlockCutShortNeedsMoreBits() throws {
        let compressed = try Bzip2StreamTests.bzip2(Array(Self.text.prefix(300_000)), level: 9)
        let block = Self.onlyBlock(compressed)
        #expect(try Self.decodeBlock(compressed, start: block.start, end: block.end, level: 9) == Array(Self.text.prefix(300_000)))
        for end in [block.start + 60, block.start + 2000, (block.start + block.end) / 2, block.end - 1] {
            #expect(throws: Bzip2BlockFailure.runsPastEnd) { try Self.decodeBlock(compressed, start: block.start, end: end, level: 9) }
        }
        // Given more bits than it has, a block says so.
        let longer = compressed + [UInt8](repeating: 0, count: 100)
        let error = #expect(throws: Bzip2BlockFailure.self) {
            try Self.decodeBlock(longer, start: block.start, end: block.end + 300, level: 9)
        }
        #expect(error?.what.contains("bits before the next marker") == true)
    }

    @Test func aBadOriginPointerIsNamed() throws {
        var compressed = try Bzip2StreamTests.bzip2(Array(Self.text.prefix(100_000)), level: 9)
        Self.write(0xFF_FFFF, bits: 24, at: 32 + 48 + 32 + 1, in: &compressed)
        // The CRCs are unchanged: the pointer must be caught on its own.
        let error = try Self.error(compressed)
        #expect(error?.detail.contains("corrupt bzip2 data near compressed byte 4") == true)
        #expect(error?.detail.contains("origin pointer") == true)
    }

    @Test func aBadTableCountIsNamed() throws {
        var compressed = try Bzip2StreamTests.bzip2(Array(Self.text.prefix(50_000)), level: 9)
        Self.write(7, bits: 3, at: Self.tableCountBit(compressed), in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("7 Huffman tables (2-6 allowed)") == true)
        Self.write(1, bits: 3, at: Self.tableCountBit(compressed), in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("1 Huffman tables (2-6 allowed)") == true)
    }

    @Test func aSelectorBeyondTheTablesIsNamed() throws {
        var compressed = try Bzip2StreamTests.bzip2(Array(Self.text.prefix(50_000)), level: 9)
        let tableCountBit = Self.tableCountBit(compressed)
        let tables = Int(Self.read(bits: 3, at: tableCountBit, in: compressed))
        // The first selector: `tables` ones name no table.
        Self.write((1 << UInt64(tables)) - 1, bits: tables, at: tableCountBit + 3 + 15, in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("a selector names a Huffman table the block does not have") == true)
        // And no selectors at all.
        Self.write(0, bits: 15, at: tableCountBit + 3, in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("no selectors") == true)
    }

    @Test func aCodeLengthOutOfRangeIsNamed() throws {
        var compressed = try Bzip2StreamTests.bzip2(Array(Self.text.prefix(50_000)), level: 9)
        let tableCountBit = Self.tableCountBit(compressed)
        let selectors = Int(Self.read(bits: 15, at: tableCountBit + 3, in: compressed))
        // Skip the selectors (unary) to the first table's starting length.
        var bit = tableCountBit + 3 + 15
        for _ in 0..<selectors {
            while Self.read(bits: 1, at: bit, in: compressed) == 1 { bit += 1 }
            bit += 1
        }
        Self.write(0, bits: 5, at: bit, in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("a Huffman code length is out of range (0)") == true)
        Self.write(21, bits: 5, at: bit, in: &compressed)
        #expect(try Self.error(compressed)?.detail.contains("a Huffman code length is out of range (21)") == true)
    }

    @Test func flippedBitsInAnyPartOfABlockAreErrorsNotCrashes() throws {
        // Every flip must give a typed error (or, should it hit a bit that
        // changes nothing, the right bytes): the header, the tables and
        // the Huffman data alike.
        let plain = Array(Self.text.prefix(200_000))
        let compressed = try Bzip2StreamTests.bzip2(plain, level: 2)
        let block = Self.onlyBlock(compressed)
        var random = Generator(state: 11)
        var errors = 0
        let flips = 300
        for round in 0..<flips {
            var damaged = compressed
            // The first 2000 bits (header, selectors, tables) often, the rest too.
            let span = round % 2 == 0 ? 2000 : block.end - block.start - 48
            let bit = block.start + 48 + random.below(span)
            damaged[bit / 8] ^= 0x80 >> UInt8(bit % 8)
            do {
                #expect(try Self.decodeBlock(damaged, start: block.start, end: block.end, level: 2) == plain)
            } catch {
                errors += 1
            }
        }
        #expect(errors >= flips - 3)
        // And through the stream, as InputError.
        var damaged = compressed
        damaged[compressed.count / 2] ^= 0x04
        let error = try Self.error(damaged)
        #expect(error?.detail.contains("corrupt bzip2 data near compressed byte") == true)
    }

    @Test func randomGarbageInABlockIsAnErrorNotACrash() throws {
        let plain = Array(Self.text.prefix(60_000))
        let compressed = try Bzip2StreamTests.bzip2(plain, level: 1)
        let block = Self.onlyBlock(compressed)
        var random = Generator(state: 12)
        for round in 0..<200 {
            var damaged = compressed
            // Overwrite a stretch with random bytes, past the header's magic.
            let first = (block.start + 48) / 8 + 1 + random.below(block.end / 8 - 10)
            let length = 1 + random.below(round % 3 == 0 ? 2000 : 16)
            for index in first..<min(first + length, block.end / 8) {
                damaged[index] = UInt8(truncatingIfNeeded: random.next())
            }
            guard damaged != compressed else { continue }
            #expect(throws: Bzip2BlockFailure.self) {
                try Self.decodeBlock(damaged, start: block.start, end: block.end, level: 1)
            }
        }
    }
}
