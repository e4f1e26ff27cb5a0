/// A run of whole rows of one table file, ready to parse.
public struct Chunk: @unchecked Sendable {
    /// The bytes; valid while the source that produced them is alive and,
    /// for streamed sources, until the source's next `nextChunk()` call.
    public var bytes: UnsafeRawBufferPointer
    /// Offset of `bytes[0]` in the (decompressed) file.
    public var fileOffset: Int64
    /// The last chunk of the file: bytes after its last row end are a
    /// truncated row.
    public var isFinal: Bool

    public init(bytes: UnsafeRawBufferPointer, fileOffset: Int64, isFinal: Bool) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.isFinal = isFinal
    }
}

/// Produces a table file as record-aligned chunks: every chunk but the last
/// ends just after a `0x02 0x0A`.
public protocol ChunkSource: AnyObject {
    /// The path or archive entry, for messages.
    var name: String { get }
    /// Bytes of the file when known up front (for progress), else nil.
    var knownSize: Int64? { get }
    /// Bytes of the file read so far (compressed bytes for a compressed
    /// source: what progress against `knownSize` should count).
    var bytesRead: Int64 { get }
    /// The next chunk, or nil after the final one.
    func nextChunk() throws -> Chunk?
}
