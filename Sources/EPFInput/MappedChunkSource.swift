import EPFFormat

/// Chunks of a memory-mapped file: slices of the mapping, cut at row ends,
/// so nothing is copied. An input observer sees each chunk's bytes, in file
/// order, as the chunk is handed out (the file's md5 in the same pass).
package final class MappedChunkSource: ChunkSource, InputObservable, @unchecked Sendable {
    package let file: MappedFile
    package let chunkSize: Int
    /// The bytes that end rows, where chunks are cut.
    package let separators: Separators
    package var name: String { file.path }
    package var knownSize: Int64? { Int64(file.size) }
    package private(set) var bytesRead: Int64 = 0
    private var position = 0
    private var finished = false
    private var observer: ((UnsafeRawBufferPointer) -> Void)?

    /// - Parameter chunkSize: target bytes per chunk; a chunk grows past it
    ///   only to finish a row longer than that.
    package init(file: MappedFile, chunkSize: Int = 8 << 20, separators: Separators = .relational) {
        self.file = file
        self.separators = separators
        self.chunkSize = max(chunkSize, 1024)
    }

    package convenience init(path: String, chunkSize: Int = 8 << 20, separators: Separators = .relational) throws(InputError) {
        self.init(file: try MappedFile(path: path), chunkSize: chunkSize, separators: separators)
    }

    package func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.observer = observer
    }

    package func nextChunk() throws -> Chunk? {
        guard !finished else { return nil }
        let all = file.bytes
        guard let base = all.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            finished = true
            return Chunk(bytes: UnsafeRawBufferPointer(start: nil, count: 0), fileOffset: 0, isFinal: true, owner: file)
        }
        let start = position
        var end = all.count
        var isFinal = true
        if all.count - start > chunkSize {
            let target = start + chunkSize
            if let cut = separators.lastRecordEnd(base, from: start, end: target) {
                end = cut
                isFinal = false
            } else if let terminator = separators.findRecordEnd(base, from: target - separators.record.count + 1, end: all.count) {
                end = terminator + separators.record.count
                isFinal = end == all.count
            }
        }
        if isFinal {
            // The tail after the last row end belongs to the final chunk.
            end = all.count
            finished = true
        }
        position = end
        bytesRead = Int64(end)
        let bytes = UnsafeRawBufferPointer(rebasing: all[start..<end])
        observer?(bytes)
        return Chunk(bytes: bytes, fileOffset: Int64(start), isFinal: isFinal, owner: file)
    }
}
