import EPFInput
import Foundation
import Testing

@Suite("Bzip2 streams")
struct Bzip2StreamTests {
    /// Compresses with the system's bzip2, as Apple's archives are.
    static func bzip2(_ bytes: [UInt8], level: Int = 9) throws -> [UInt8] {
        try output(of: "bzip2 -\(level) -c", on: bytes)
    }

    static func source(_ path: String, chunkSize: Int = 4096) throws -> StreamChunkSource {
        StreamChunkSource(stream: try Bzip2Stream(path: path), name: path, chunkSize: chunkSize)
    }

    @Test(arguments: [4096, 1 << 20])
    func decompressedChunksMatchTheFile(chunkSize: Int) throws {
        let path = try temporaryFile(try Self.bzip2(ChunkSourceTests.rows), suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path, chunkSize: chunkSize)
        expectWellFormed(try drain(source), file: ChunkSourceTests.rows)
        #expect(source.bytesRead == source.knownSize)
    }

    @Test func severalBlocksAndConcatenatedStreamsReadAsOne() throws {
        // Level 1 = 100 kB blocks: 300 kB of varied rows make several blocks.
        var random = SystemRandomNumberGenerator()
        let big = epfRows(
            (0..<3000).map { index in
                "\(index)\u{1}" + String((0..<100).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &random))) })
            })
        let tail = epfRows(["second", "stream"])
        let path = try temporaryFile(try Self.bzip2(big, level: 1) + Self.bzip2(tail), suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try drain(Self.source(path)).flatMap(\.bytes) == big + tail)
    }

    @Test func everyCompressedByteIsObservedInOrder() throws {
        let compressed = try Self.bzip2(ChunkSourceTests.rows)
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try Bzip2Stream(path: path)
        let seen = ObservedBytes()
        stream.observeInput { seen.bytes += $0 }
        _ = try drain(StreamChunkSource(stream: stream, name: path))
        #expect(seen.bytes == compressed)
    }

    @Test func truncatedBzip2IsAnError() throws {
        let compressed = try Self.bzip2(ChunkSourceTests.rows)
        let path = try temporaryFile(Array(compressed.prefix(compressed.count - 40)), suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try drain(Self.source(path)) }
        #expect(error?.detail.contains("the bzip2 data ends early") == true)
    }

    @Test func corruptBzip2IsAnError() throws {
        var compressed = try Self.bzip2(ChunkSourceTests.rows)
        for index in 40..<80 { compressed[index] ^= 0x5A }
        let path = try temporaryFile(compressed, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try drain(Self.source(path)) }
        #expect(error?.detail.contains("corrupt bzip2 data") == true)
        #expect(error?.hint.contains("download it again") == true)
    }

    @Test func dataThatIsNotBzip2IsAnError() throws {
        let path = try temporaryFile(ChunkSourceTests.rows, suffix: ".bz2")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { _ = try drain(Self.source(path)) }
        #expect(error?.detail.contains("not bzip2 data") == true)
    }
}

/// Collects observed bytes (the observer runs on the reading thread, which
/// in these tests is the test's own).
final class ObservedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []
}
