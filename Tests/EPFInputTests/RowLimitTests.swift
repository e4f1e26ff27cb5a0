import EPFFormat
import EPFInput
import Foundation
import Testing

/// Was: a stream with no 0x02 0x0A (binary data in a .gz, a file whose row
/// ends were converted to 0x02 0x0D 0x0A) grew one buffer, doubling, to the
/// whole decompressed size: unbounded memory. Now a row has a limit.
@Suite("Streams: the longest row")
struct RowLimitTests {
    @Test func aStreamWithNoRowEndStopsAtTheLimit() throws {
        let header = Array("#a\u{1}b\u{2}\n".utf8)
        let endless = header + Array(repeating: UInt8(ascii: "x"), count: 300_000)
        let source = StreamChunkSource(stream: PieceStream(endless, piece: 4096), name: "t.gz", chunkSize: 4096, maximumRowBytes: 64 << 10)
        var thrown: FormatError?
        do {
            while try source.nextChunk() != nil {}
        } catch let error as FormatError {
            thrown = error
        }
        let error = try #require(thrown)
        #expect(error.kind == .recordTooLarge)
        #expect(error.file == "t.gz")
        #expect(error.description.hasPrefix("t.gz: byte 6: no row end (0x02 0x0A) in the "), "\(error)")
    }

    @Test func aLongRowUnderTheLimitIsOneChunk() throws {
        let row = Array(repeating: UInt8(ascii: "y"), count: 50_000) + [0x02, 0x0A]
        let source = StreamChunkSource(
            stream: PieceStream(row + row, piece: 4096), name: "t.gz", chunkSize: 4096, maximumRowBytes: 64 << 10)
        var total = 0
        while let chunk = try source.nextChunk() { total += chunk.bytes.count }
        #expect(total == 2 * row.count)
    }
}
