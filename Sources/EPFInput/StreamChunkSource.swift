import EPFFormat

/// Bytes that arrive as a stream (a decompressor, a pipe), read in order.
public protocol ByteStream: AnyObject {
    /// Fills the front of `buffer`; returns the bytes written, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes consumed from the underlying file (compressed bytes for a
    /// decompressor), for progress against `knownSize`.
    var sourceBytesRead: Int64 { get }
    /// Size of the underlying file, if known.
    var sourceSize: Int64? { get }
}

/// Record-aligned chunks of a stream, through one reused buffer: each chunk
/// ends at a row end, the bytes after it move to the front for the next one.
/// A chunk is valid until the next `nextChunk()` call.
///
/// The buffer grows only to hold a row longer than itself.
public final class StreamChunkSource: ChunkSource {
    public let name: String
    public var knownSize: Int64? { stream.sourceSize }
    public var bytesRead: Int64 { stream.sourceBytesRead }

    let stream: any ByteStream
    var buffer: UnsafeMutableRawBufferPointer
    /// Bytes of `buffer` holding data.
    var filled = 0
    /// Bytes at the front of `buffer` handed out in the last chunk.
    var handedOut = 0
    /// File offset of `buffer[0]`.
    var bufferOffset: Int64 = 0
    var reachedEnd = false
    var finished = false

    public init(stream: any ByteStream, name: String, chunkSize: Int = 8 << 20) {
        self.stream = stream
        self.name = name
        buffer = .allocate(byteCount: max(chunkSize, 4096), alignment: 16)
    }

    deinit { buffer.deallocate() }

    public func nextChunk() throws -> Chunk? {
        guard !finished else { return nil }
        // Keep what the last chunk did not take.
        if handedOut > 0 {
            let rest = filled - handedOut
            if rest > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + handedOut, byteCount: rest)
            }
            bufferOffset += Int64(handedOut)
            filled = rest
            handedOut = 0
        }
        var searchedUpTo = 0
        while true {
            while !reachedEnd && filled < buffer.count {
                let count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                if count == 0 { reachedEnd = true } else { filled += count }
            }
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if reachedEnd {
                finished = true
                handedOut = filled
                return Chunk(bytes: UnsafeRawBufferPointer(start: base, count: filled), fileOffset: bufferOffset, isFinal: true)
            }
            if let cut = lastRecordBoundary(base, from: max(0, searchedUpTo - 1), end: filled) {
                handedOut = cut
                return Chunk(bytes: UnsafeRawBufferPointer(start: base, count: cut), fileOffset: bufferOffset, isFinal: false)
            }
            // One row longer than the buffer: make room and read on.
            searchedUpTo = filled
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
            buffer.deallocate()
            buffer = bigger
        }
    }
}
