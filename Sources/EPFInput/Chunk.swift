import EPFFormat

/// A run of whole rows of one table file, ready to parse.
///
/// Invariant: `bytes` stay valid and unchanged for as long as any copy of the
/// chunk is alive, because the chunk holds their `owner` (the mapped file,
/// or a pooled buffer that goes back to its pool when released). So a chunk
/// may be handed to other threads (`@unchecked Sendable`).
package struct Chunk: @unchecked Sendable {
    /// The bytes, valid while the chunk is alive.
    package var bytes: UnsafeRawBufferPointer
    /// Offset of `bytes[0]` in the (decompressed) file.
    package var fileOffset: Int64
    /// The last chunk of the file: bytes after its last row end are a
    /// truncated row.
    package var isFinal: Bool
    /// Keeps `bytes` alive.
    package var owner: AnyObject?

    package init(bytes: UnsafeRawBufferPointer, fileOffset: Int64, isFinal: Bool, owner: AnyObject?) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.isFinal = isFinal
        self.owner = owner
    }
}

/// Produces a table file as record-aligned chunks: every chunk but the last
/// ends just after a `0x02 0x0A`.
package protocol ChunkSource: AnyObject {
    /// The path or archive entry, for messages.
    var name: String { get }
    /// Bytes of the file when known up front (for progress), else nil.
    var knownSize: Int64? { get }
    /// Bytes of the file read so far (compressed bytes for a compressed
    /// source: what progress against `knownSize` should count).
    var bytesRead: Int64 { get }
    /// The bytes that end rows, where chunks are cut (and what the rows
    /// are to be split with).
    var separators: Separators { get }
    /// The next chunk, or nil after the final one. Chunks may be kept and
    /// used (on any thread) while later ones are read.
    func nextChunk() throws -> Chunk?
}

extension Chunk {
    /// This chunk and the one that follows it in the file, as one chunk
    /// (copied into a buffer of its own). For a header that spans chunks.
    package func joined(with next: Chunk) -> Chunk {
        let storage = OwnedBytes(count: bytes.count + next.bytes.count)
        if let base = bytes.baseAddress, !bytes.isEmpty {
            storage.base.copyMemory(from: base, byteCount: bytes.count)
        }
        if let base = next.bytes.baseAddress, !next.bytes.isEmpty {
            (storage.base + bytes.count).copyMemory(from: base, byteCount: next.bytes.count)
        }
        return Chunk(
            bytes: UnsafeRawBufferPointer(start: storage.base, count: storage.count), fileOffset: fileOffset,
            isFinal: next.isFinal, owner: storage)
    }
}

/// Bytes a chunk owns outright. Invariant: written once, before the chunk
/// that holds them is made, read-only after (`@unchecked Sendable`).
final class OwnedBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(byteCount: max(count, 1), alignment: 16)
    }

    deinit { base.deallocate() }
}
