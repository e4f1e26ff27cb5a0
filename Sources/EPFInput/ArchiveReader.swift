/// A file inside an archive.
package struct ArchiveEntry: Sendable, Equatable {
    /// The name as stored (`itunes20261101/application`).
    package var name: String
    /// Uncompressed size in bytes.
    package var size: Int64

    package init(name: String, size: Int64) {
        self.name = name
        self.size = size
    }

    /// The last part of the name: the table file's name.
    package var fileName: String { name.split(separator: "/").last.map(String.init) ?? name }
}

/// The files of an archive (tar under bzip2 or gzip, or zip), read in order
/// in one pass over the archive, never extracted to disk. Every byte of the
/// archive file passes `observeInput`'s observer once, in order, by the time
/// `nextFile()` has returned nil (so its md5 is checked in the same pass).
package protocol ArchiveReader: InputObservable {
    /// Moves to the next file, passing over the rest of the current one;
    /// nil once the whole archive has been read.
    func nextFile() throws -> ArchiveEntry?
    /// The current file's bytes.
    func entryStream() -> any ByteStream
}

/// A tar archive over a decompressor.
final class CompressedTarArchive: ArchiveReader {
    let compressed: any ByteStream & InputObservable
    let tar: TarReader

    init(compressed: any ByteStream & InputObservable, path: String) {
        self.compressed = compressed
        tar = TarReader(stream: compressed, archiveName: path)
    }

    func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) { compressed.observeInput(observer) }

    func nextFile() throws -> ArchiveEntry? {
        // TarReader returns nil only once the compressed stream has ended
        // (it reads the padding after the end blocks), so the md5 saw it all.
        try tar.nextEntry().map { ArchiveEntry(name: $0.name, size: $0.size) }
    }

    func entryStream() -> any ByteStream { tar.entryStream() }
}

extension ZipReader: ArchiveReader {
    package func nextFile() throws -> ArchiveEntry? {
        try nextEntry().map { ArchiveEntry(name: $0.name, size: $0.size) }
    }
}

/// An archive reader positioned on one entry at a time; `generation` counts
/// the entries it has moved to.
protocol EntryCursor: ByteStream {
    var generation: Int { get }
}

extension TarReader: EntryCursor {}
extension ZipReader: EntryCursor {}

/// The current entry of a tar or zip reader, as a stream: it reads nothing
/// once the reader has moved to another entry. Progress is the archive's.
final class ArchiveEntryStream: ByteStream {
    let reader: any EntryCursor
    let generation: Int

    init(reader: any EntryCursor, generation: Int) {
        self.reader = reader
        self.generation = generation
    }

    var sourceBytesRead: Int64 { reader.sourceBytesRead }
    var sourceSize: Int64? { reader.sourceSize }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard reader.generation == generation else { return 0 }
        return try reader.read(into: buffer)
    }
}
