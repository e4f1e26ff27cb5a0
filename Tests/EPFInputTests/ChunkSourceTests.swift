import EPFInput
import Foundation
import Testing

/// Rows of `fields`, each ended by 0x02 0x0A.
func epfRows(_ rows: [String]) -> [UInt8] {
    rows.flatMap { Array($0.utf8) + [0x02, 0x0A] }
}

/// A temporary file holding `bytes`; removed by the caller.
func temporaryFile(_ bytes: [UInt8], suffix: String = "") throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("epf-input-\(UUID().uuidString)\(suffix)").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// Every chunk of `source`, copied out, with its offset and finality.
func drain(_ source: any ChunkSource) throws -> [(bytes: [UInt8], offset: Int64, isFinal: Bool)] {
    var chunks: [(bytes: [UInt8], offset: Int64, isFinal: Bool)] = []
    while let chunk = try source.nextChunk() {
        chunks.append((Array(chunk.bytes), chunk.fileOffset, chunk.isFinal))
    }
    return chunks
}

/// Chunks must tile the file exactly, end on row ends except the last, and
/// only the last may be final.
func expectWellFormed(_ chunks: [(bytes: [UInt8], offset: Int64, isFinal: Bool)], file: [UInt8]) {
    #expect(chunks.flatMap(\.bytes) == file)
    var offset: Int64 = 0
    for (index, chunk) in chunks.enumerated() {
        #expect(chunk.offset == offset)
        offset += Int64(chunk.bytes.count)
        let last = index == chunks.count - 1
        #expect(chunk.isFinal == last)
        if !last {
            #expect(chunk.bytes.suffix(2) == [0x02, 0x0A])
        }
    }
}

@Suite("Chunk sources")
struct ChunkSourceTests {
    static let rows: [UInt8] = epfRows((0..<500).map { "row \($0)\u{1}" + String(repeating: "x", count: $0 % 97) + "\n\u{2}inner" })

    @Test(arguments: [1024, 1500, 4096, 1 << 20])
    func mappedChunksTileTheFileOnRowEnds(chunkSize: Int) throws {
        let path = try temporaryFile(Self.rows)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(try MappedChunkSource(path: path, chunkSize: chunkSize))
        expectWellFormed(chunks, file: Self.rows)
        if chunkSize < Self.rows.count { #expect(chunks.count > 1) }
    }

    @Test func mappedRowLongerThanAChunkStaysWhole() throws {
        let long = epfRows(["a", String(repeating: "y", count: 5000), "b"])
        let path = try temporaryFile(long)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(try MappedChunkSource(path: path, chunkSize: 1024))
        expectWellFormed(chunks, file: long)
        #expect(chunks.contains { $0.bytes.count > 5000 })
    }

    @Test func mappedTailWithoutRowEndIsInTheFinalChunk() throws {
        let cut = epfRows(["one", "two"]) + Array("thr".utf8)
        let path = try temporaryFile(cut)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(try MappedChunkSource(path: path, chunkSize: 1024))
        #expect(chunks.count == 1)
        #expect(chunks[0].bytes == cut)
        #expect(chunks[0].isFinal)
    }

    @Test func emptyFileGivesOneEmptyFinalChunk() throws {
        let path = try temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(try MappedChunkSource(path: path))
        #expect(chunks.count == 1)
        #expect(chunks[0].bytes.isEmpty)
        #expect(chunks[0].isFinal)
    }

    @Test func missingFileNamesThePath() throws {
        let error = #expect(throws: InputError.self) { try MappedChunkSource(path: "/nonexistent/application") }
        #expect(error?.description.contains("/nonexistent/application: cannot open the file") == true)
    }
}

@Suite("Gzip streams")
struct GzipStreamTests {
    /// Compresses with the system's gzip, as a user's download would be.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        try output(of: "gzip -c", on: bytes)
    }

    @Test(arguments: [4096, 10_000, 1 << 20])
    func streamedChunksMatchTheUncompressedFile(chunkSize: Int) throws {
        let path = try temporaryFile(try Self.gzip(ChunkSourceTests.rows), suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = StreamChunkSource(stream: try GzipStream(path: path), name: path, chunkSize: chunkSize)
        let chunks = try drain(source)
        expectWellFormed(chunks, file: ChunkSourceTests.rows)
        #expect(source.bytesRead == source.knownSize)
    }

    @Test func rowLongerThanTheBufferGrowsIt() throws {
        let long = epfRows(["a", String(repeating: "z", count: 20_000), "b"])
        let path = try temporaryFile(try Self.gzip(long), suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(StreamChunkSource(stream: try GzipStream(path: path), name: path, chunkSize: 4096))
        expectWellFormed(chunks, file: long)
    }

    @Test func concatenatedMembersReadAsOneFile() throws {
        let first = epfRows(["first", "member"])
        let second = epfRows(["second", "member"])
        let path = try temporaryFile(try Self.gzip(first) + Self.gzip(second), suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let chunks = try drain(StreamChunkSource(stream: try GzipStream(path: path), name: path))
        #expect(chunks.flatMap(\.bytes) == first + second)
    }

    @Test func truncatedGzipIsAnError() throws {
        let compressed = try Self.gzip(ChunkSourceTests.rows)
        let path = try temporaryFile(Array(compressed.prefix(compressed.count / 2)), suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = StreamChunkSource(stream: try GzipStream(path: path), name: path, chunkSize: 4096)
        let error = #expect(throws: InputError.self) { _ = try drain(source) }
        #expect(error?.detail.contains("the gzip data ends early") == true)
        #expect(error?.hint.contains("download it again") == true)
    }

    @Test func corruptGzipIsAnError() throws {
        var compressed = try Self.gzip(ChunkSourceTests.rows)
        for index in 20..<60 { compressed[index] ^= 0xA5 }
        let path = try temporaryFile(compressed, suffix: ".gz")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = StreamChunkSource(stream: try GzipStream(path: path), name: path, chunkSize: 4096)
        let error = #expect(throws: InputError.self) { _ = try drain(source) }
        #expect(error?.detail.contains("corrupt gzip data") == true)
    }
}
