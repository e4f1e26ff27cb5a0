import Foundation
import Testing

@_spi(Benchmarks) @testable import EPFInput

@Suite("Parallel bzip2 streams")
struct ParallelBzip2StreamTests {
    /// ~3 MB of varied text rows (deterministic): at `-1` about 30 blocks.
    static let mixedText: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let words = ["apple", "music", "store", "game", "photo", "editor", "weather", "puzzle", "news", "daily", "pro", "lite"]
            .map { Array($0.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(3_100_000)
        var row = 0
        while bytes.count < 3_000_000 {
            bytes.append(contentsOf: String(row).utf8)
            bytes.append(0x01)
            for _ in 0..<(4 + next() % 12) {
                bytes.append(contentsOf: words[next() % words.count])
                bytes.append(next() % 5 == 0 ? 0x01 : 0x20)
            }
            // Some noise, and now and then a long run (bzip2's RLE step).
            for _ in 0..<(next() % 40) { bytes.append(UInt8(33 + next() % 90)) }
            if next() % 50 == 0 { bytes.append(contentsOf: repeatElement(0x30, count: next() % 3000)) }
            bytes.append(0x02)
            bytes.append(0x0A)
            row += 1
        }
        return bytes
    }()

    static let mixedLevel1: [UInt8] = try! Bzip2StreamTests.bzip2(mixedText, level: 1)

    static func decompress(_ compressed: [UInt8], chunk: Int = 1 << 20, inFlight: Int = 4) throws -> [UInt8] {
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try readAll(ParallelBzip2Stream(path: path, maxBlocksInFlight: inFlight), size: chunk)
    }

    static func error(_ compressed: [UInt8]) throws -> InputError? {
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try readAll(ParallelBzip2Stream(path: path), size: 1 << 20) }
        #expect(error?.path == path)
        return error
    }

    // MARK: Output

    @Test func oneBlockMatchesTheInput() throws {
        let compressed = try Bzip2StreamTests.bzip2(ChunkSourceTests.rows)
        #expect(try Self.decompress(compressed) == ChunkSourceTests.rows)
        #expect(try Self.decompress(compressed, chunk: 7) == ChunkSourceTests.rows)
    }

    @Test(arguments: [(1 << 20, 4), (8 << 20, 8), (4093, 2)])
    func manyBlocksMatchTheInput(chunk: Int, inFlight: Int) throws {
        #expect(try Self.decompress(Self.mixedLevel1, chunk: chunk, inFlight: inFlight) == Self.mixedText)
    }

    @Test func concatenatedStreamsOfDifferentBlockSizesReadAsOne() throws {
        let tail = epfRows(["second", "stream"])
        let compressed =
            Self.mixedLevel1 + (try Bzip2StreamTests.bzip2(tail, level: 9)) + (try Bzip2StreamTests.bzip2([], level: 5))
            + (try Bzip2StreamTests.bzip2(Array(Self.mixedText.prefix(250_000)), level: 2))
        #expect(try Self.decompress(compressed) == Self.mixedText + tail + Self.mixedText.prefix(250_000))
    }

    @Test func anEmptyStreamGivesNoBytes() throws {
        let compressed = try Bzip2StreamTests.bzip2([])
        #expect(compressed.count == 14)
        #expect(try Self.decompress(compressed).isEmpty)
    }

    @Test func aFalseMagicInsideABlockDoesNotChangeTheOutput() throws {
        let path = try temporaryFile(Self.mixedLevel1, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try ParallelBzip2Stream(path: path, maxBlocksInFlight: 3)
        let starts = Self.markers(Self.mixedLevel1).map(\.bitOffset)
        // Cut the first block twice, the fourth once, and the last just
        // before the end of the stream, where no magic is.
        stream.falseMagicsForTesting = [starts[0] + 8_001, starts[0] + 100_003, starts[3] + 77_777, starts.last! - 999]
        #expect(try readAll(stream, size: 1 << 20) == Self.mixedText)
        #expect(stream.mergedPieces == 4)
    }

    @Test func theStreamWorksThroughAChunkSource() throws {
        let path = try temporaryFile(Self.mixedLevel1, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = StreamChunkSource(stream: try ParallelBzip2Stream(path: path), name: path, chunkSize: 1 << 20)
        expectWellFormed(try drain(source), file: Self.mixedText)
        #expect(source.bytesRead == source.knownSize)
    }

    @Test func aStreamDroppedMidFileLeavesNothingBehind() throws {
        let path = try temporaryFile(Self.mixedLevel1, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for _ in 0..<3 {
            // Blocks still decompressing keep what they use until they end.
            var stream: ParallelBzip2Stream? = try ParallelBzip2Stream(path: path)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = try buffer.withUnsafeMutableBytes { try stream!.read(into: $0) }
            #expect(buffer[0..<count] == Self.mixedText.prefix(count))
            stream = nil
        }
        #expect(try Self.decompress(Self.mixedLevel1) == Self.mixedText)
    }

    // MARK: The observer

    @Test func everyCompressedByteIsObservedOnceInOrder() throws {
        let compressed = Self.mixedLevel1 + (try Bzip2StreamTests.bzip2(ChunkSourceTests.rows))
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try ParallelBzip2Stream(path: path)
        var md5 = MD5()
        let seen = ObservedBytes()
        stream.observeInput { bytes in
            seen.bytes += bytes
            md5.update(bytes)
        }
        _ = try readAll(stream, size: 100_000)
        #expect(seen.bytes == compressed)
        #expect(MD5.hex(md5.finalize()) == MD5Tests.md5(compressed))
        #expect(stream.sourceBytesRead == stream.sourceSize)
    }

    // MARK: Errors

    @Test func aTruncatedFileIsAnError() throws {
        for cut in [40, Self.mixedLevel1.count / 2] {
            let error = try Self.error(Array(Self.mixedLevel1.prefix(Self.mixedLevel1.count - cut)))
            #expect(error?.detail.contains("the bzip2 data ends early") == true)
            #expect(error?.hint.contains("download it again") == true)
        }
        let error = try Self.error(Array("BZh".utf8))
        #expect(error?.detail.contains("the bzip2 data ends early") == true)
    }

    @Test func theBytesBeforeAProblemComeOutFirst() throws {
        let path = try temporaryFile(Array(Self.mixedLevel1.prefix(Self.mixedLevel1.count / 2)), suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try ParallelBzip2Stream(path: path)
        var good: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 300_000)
        #expect(throws: InputError.self) {
            while true {
                let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
                if count == 0 { break }
                good += buffer[0..<count]
            }
        }
        #expect(good.count > Self.mixedText.count / 3)
        #expect(good[...] == Self.mixedText.prefix(good.count))
        // And the error stays.
        #expect(throws: InputError.self) { _ = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) } }
    }

    @Test func aCorruptBlockIsAnError() throws {
        var compressed = Self.mixedLevel1
        compressed[compressed.count / 2] ^= 0x10
        let error = try Self.error(compressed)
        #expect(error?.detail.contains("corrupt bzip2 data near compressed byte") == true)
        #expect(error?.hint.contains("download it again") == true)
    }

    @Test func aWrongStreamCRCIsAnError() throws {
        var compressed = try Bzip2StreamTests.bzip2(ChunkSourceTests.rows)
        // The stream CRC is the 32 bits after the end magic.
        let end = Self.markers(compressed).last!
        #expect(end.kind == .endOfStream)
        let byte = (end.bitOffset + 48) / 8 + 1
        compressed[byte] ^= 0x01
        let error = try Self.error(compressed)
        #expect(error?.detail.contains("the stream's CRC does not match its blocks") == true)
    }

    @Test func dataThatIsNotBzip2IsAnError() throws {
        let error = try Self.error(ChunkSourceTests.rows)
        #expect(error?.detail.contains("not bzip2 data at compressed byte 0") == true)
        let trailing = try Self.error(try Bzip2StreamTests.bzip2(ChunkSourceTests.rows) + Array("garbage after".utf8))
        #expect(trailing?.detail.contains("not bzip2 data at compressed byte") == true)
    }

    @Test func anEmptyFileIsAnError() throws {
        let error = try Self.error([])
        #expect(error?.detail == "the file is empty, not bzip2 data")
    }

    // MARK: The scanner

    static func markers(_ bytes: [UInt8]) -> [Bzip2BlockScanner.Marker] {
        bytes.withUnsafeBytes { buffer in
            let scanner = Bzip2BlockScanner(bytes: buffer)
            var found: [Bzip2BlockScanner.Marker] = []
            var from = 0
            while let marker = scanner.nextMarker(from: from) {
                found.append(marker)
                from = marker.bitOffset + 1
            }
            return found
        }
    }

    /// Every marker, bit by bit: the slow, obvious answer.
    static func naiveMarkers(_ bytes: [UInt8]) -> [Bzip2BlockScanner.Marker] {
        var found: [Bzip2BlockScanner.Marker] = []
        var window: UInt64 = 0
        for bit in 0..<(bytes.count * 8) {
            window = (window << 1 | UInt64(bytes[bit / 8] >> (7 - bit % 8) & 1)) & 0xFFFF_FFFF_FFFF
            guard bit >= 47 else { continue }
            if window == Bzip2BlockScanner.blockMagic { found.append(.init(bitOffset: bit - 47, kind: .block)) }
            if window == Bzip2BlockScanner.endOfStreamMagic { found.append(.init(bitOffset: bit - 47, kind: .endOfStream)) }
        }
        return found
    }

    static func plant(_ magic: UInt64, at bit: Int, in bytes: inout [UInt8]) {
        for index in 0..<48 {
            let at = bit + index
            let mask = UInt8(0x80) >> UInt8(at % 8)
            if (magic >> UInt64(47 - index)) & 1 == 1 { bytes[at / 8] |= mask } else { bytes[at / 8] &= ~mask }
        }
    }

    @Test func theScannerFindsMagicsAtAnyBit() {
        var bytes = [UInt8](repeating: 0xA5, count: 400)
        let planted: [Bzip2BlockScanner.Marker] = [
            .init(bitOffset: 0, kind: .block), .init(bitOffset: 32 + 7 * 8 + 3, kind: .block),
            .init(bitOffset: 800 + 5, kind: .block), .init(bitOffset: 1600, kind: .endOfStream),
            .init(bitOffset: 2001, kind: .block), .init(bitOffset: 400 * 8 - 48, kind: .endOfStream),
        ]
        for marker in planted {
            let magic = marker.kind == .block ? Bzip2BlockScanner.blockMagic : Bzip2BlockScanner.endOfStreamMagic
            Self.plant(magic, at: marker.bitOffset, in: &bytes)
        }
        #expect(Self.markers(bytes) == planted)
        #expect(Self.naiveMarkers(bytes) == planted)
        bytes.withUnsafeBytes { buffer in
            let scanner = Bzip2BlockScanner(bytes: buffer)
            #expect(scanner.nextMarker(from: 1) == planted[1])
            #expect(scanner.nextMarker(from: 2001) == planted[4])
            #expect(scanner.nextMarker(from: 2002) == planted[5])
            #expect(scanner.bits(at: 2001, count: 48) == Bzip2BlockScanner.blockMagic)
            // One byte short: the last magic no longer fits.
            let shorter = Bzip2BlockScanner(bytes: UnsafeRawBufferPointer(rebasing: buffer.dropLast()))
            #expect(shorter.nextMarker(from: 2002) == nil)
        }
    }

    @Test func theScannerAgreesWithABitByBitSearch() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 29
        }
        for round in 0..<40 {
            var bytes = (0..<(64 + round * 37)).map { _ in UInt8(truncatingIfNeeded: next()) }
            for _ in 0..<(1 + round % 7) {
                let bit = Int(next() % UInt64(bytes.count * 8 - 47))
                Self.plant(next() % 2 == 0 ? Bzip2BlockScanner.blockMagic : Bzip2BlockScanner.endOfStreamMagic, at: bit, in: &bytes)
            }
            #expect(Self.markers(bytes) == Self.naiveMarkers(bytes))
        }
    }

    @Test func theScannerFindsARealFilesBlocks() {
        let markers = Self.markers(Self.mixedLevel1)
        #expect(markers.first == .init(bitOffset: 32, kind: .block))
        #expect(markers.last?.kind == .endOfStream)
        // 3 MB in blocks of 100 kB after bzip2's run-length step (more
        // before it, where there are long runs).
        #expect(markers.filter { $0.kind == .block }.count >= 20)
        #expect(markers.filter { $0.kind == .endOfStream }.count == 1)
    }
}
