import EPFFormat
import Foundation

/// Bytes that arrive as a stream (a decompressor, a pipe), read in order.
package protocol ByteStream: AnyObject {
    /// Fills the front of `buffer`; returns the bytes written, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes consumed from the underlying file (compressed bytes for a
    /// decompressor), for progress against `knownSize`.
    var sourceBytesRead: Int64 { get }
    /// Size of the underlying file, if known.
    var sourceSize: Int64? { get }
}

/// Record-aligned chunks of a stream. Each chunk owns its buffer, so chunks
/// can be parsed and loaded while later ones are read; released buffers go
/// back to a pool, so a long file reuses the same few buffers.
package final class StreamChunkSource: ChunkSource {
    package let name: String
    package var knownSize: Int64? { stream.sourceSize }
    package var bytesRead: Int64 { stream.sourceBytesRead }

    let stream: any ByteStream
    let pool: BufferPool
    /// The buffer being filled; its front holds the rows the last chunk did
    /// not take.
    var current: ChunkBuffer
    var filled = 0
    /// File offset of `current`'s first byte.
    var bufferOffset: Int64 = 0
    var reachedEnd = false
    var finished = false

    /// The longest row a chunk may hold: a stream with no row end for this
    /// long is not EPF data (or its row ends were converted), and reading
    /// on would buffer all of it.
    package let maximumRowBytes: Int
    /// The bytes that end rows, where chunks are cut.
    package let separators: Separators

    /// Default `maximumRowBytes`: 256 MB (real rows are a few KB; a field
    /// of tens of MB still fits).
    package static let defaultMaximumRowBytes = 256 << 20

    package init(
        stream: any ByteStream, name: String, chunkSize: Int = 8 << 20, maximumRowBytes: Int = defaultMaximumRowBytes,
        separators: Separators = .relational
    ) {
        self.stream = stream
        self.separators = separators
        self.name = name
        self.maximumRowBytes = maximumRowBytes
        pool = BufferPool(size: max(chunkSize, 4096))
        current = pool.take()
    }

    package func nextChunk() throws -> Chunk? {
        guard !finished else { return nil }
        var searchedUpTo = 0
        while true {
            while !reachedEnd && filled < current.capacity {
                let room = UnsafeMutableRawBufferPointer(start: current.base + filled, count: current.capacity - filled)
                let count = try stream.read(into: room)
                if count == 0 { reachedEnd = true } else { filled += count }
            }
            let base = current.base.assumingMemoryBound(to: UInt8.self)
            if reachedEnd {
                finished = true
                return Chunk(
                    bytes: UnsafeRawBufferPointer(start: current.base, count: filled), fileOffset: bufferOffset,
                    isFinal: true, owner: current)
            }
            if let cut = separators.lastRecordEnd(base, from: max(0, searchedUpTo - separators.record.count + 1), end: filled) {
                let chunk = Chunk(
                    bytes: UnsafeRawBufferPointer(start: current.base, count: cut), fileOffset: bufferOffset,
                    isFinal: false, owner: current)
                // The rows after the cut start the next buffer.
                let rest = filled - cut
                let next = rest < pool.size / 2 ? pool.take() : ChunkBuffer(capacity: max(pool.size, rest * 2), pool: nil)
                next.base.copyMemory(from: current.base + cut, byteCount: rest)
                current = next
                filled = rest
                bufferOffset += Int64(cut)
                return chunk
            }
            // One row longer than the buffer: a bigger buffer, and read on.
            if filled >= maximumRowBytes {
                throw FormatError(
                    .recordTooLarge, file: name, byteOffset: bufferOffset,
                    detail: "no row end (\(separators.recordBytes)) in the \(filled) bytes from here: a row this long is not EPF data",
                    hint: "The file is damaged or not an EPF table (or its row ends were converted to 0x02 0x0D 0x0A); download it again")
            }
            searchedUpTo = filled
            let bigger = ChunkBuffer(capacity: current.capacity * 2, pool: nil)
            bigger.base.copyMemory(from: current.base, byteCount: filled)
            current = bigger
        }
    }
}

/// A buffer that a chunk owns; a pooled one goes back to its pool when the
/// last chunk holding it is released.
///
/// Invariant: written only by the source before its chunk is handed out,
/// read-only afterwards (`@unchecked Sendable`).
final class ChunkBuffer: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    let pool: BufferPool?

    init(capacity: Int, pool: BufferPool?) {
        self.capacity = capacity
        self.pool = pool
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    init(reusing base: UnsafeMutableRawPointer, capacity: Int, pool: BufferPool) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
    }

    deinit {
        if let pool { pool.give(base) } else { base.deallocate() }
    }
}

/// Free buffers of one size, shared by the source and the threads that
/// release chunks. Guarded by a lock.
final class BufferPool: @unchecked Sendable {
    let size: Int
    private var free: [UnsafeMutableRawPointer] = []
    private let lock = NSLock()

    init(size: Int) { self.size = size }

    deinit { for buffer in free { buffer.deallocate() } }

    func take() -> ChunkBuffer {
        lock.lock()
        let reused = free.popLast()
        lock.unlock()
        if let reused { return ChunkBuffer(reusing: reused, capacity: size, pool: self) }
        return ChunkBuffer(reusing: .allocate(byteCount: size, alignment: 16), capacity: size, pool: self)
    }

    func give(_ buffer: UnsafeMutableRawPointer) {
        lock.lock()
        free.append(buffer)
        lock.unlock()
    }
}
