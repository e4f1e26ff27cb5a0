import EPFFormat
import EPFInput

/// What the first table file of a unit says before the unit is imported:
/// its export mode (a feed folder's name does not tell FULL from
/// INCREMENTAL) and its first row's `export_date` (the date of a bare table
/// file). Reads only the start of one file: a header, a few KB.
package struct UnitProbe: Sendable, Equatable {
    package var mode: ExportMode
    /// The first data row's `export_date` (epoch milliseconds), if the file
    /// has one.
    package var firstExportDate: Int64?

    /// Bytes read to find a header and the first row; headers are a few KB.
    static let probeChunkSize = 256 << 10

    /// Probes `unit`'s first table file, read with `separators`; nil when
    /// it has none.
    package static func probe(_ unit: ImportUnit, separators: Separators = .relational) throws -> UnitProbe? {
        if let archive = unit.archive {
            guard let reader = try InputFormat.openArchive(archive.path, format: archive.format) else { return nil }
            let extensions = !separators.isRelational
            while let entry = try reader.nextFile() {
                guard let (format, _) = InputFormat.of(fileName: entry.fileName, extensions: extensions), format == .plain, entry.size > 0
                else { continue }
                let source = StreamChunkSource(
                    stream: reader.entryStream(), name: "\(archive.path):\(entry.name)", chunkSize: probeChunkSize, separators: separators)
                return try probe(source)
            }
            return nil
        }
        guard let file = unit.files.first else { return nil }
        return try probe(file, separators: separators)
    }

    /// Probes one planned file (plain, compressed, or a one-table archive).
    package static func probe(_ file: PlannedFile, separators: Separators = .relational) throws -> UnitProbe? {
        if let archive = try InputFormat.openArchive(file.path, format: file.format) {
            guard let entry = try archive.nextFile() else { return nil }
            return try probe(
                StreamChunkSource(
                    stream: archive.entryStream(), name: "\(file.path):\(entry.name)", chunkSize: probeChunkSize, separators: separators))
        }
        guard let stream = try InputFormat.openStream(file.path, format: file.format) else {
            return try probe(MappedChunkSource(path: file.path, chunkSize: probeChunkSize, separators: separators))
        }
        return try probe(StreamChunkSource(stream: stream, name: file.path, chunkSize: probeChunkSize, separators: separators))
    }

    static func probe(_ source: any ChunkSource) throws -> UnitProbe? {
        guard var chunk = try source.nextChunk() else { return nil }
        while true {
            var result: HeaderParser.Result
            do throws(FormatError) {
                result = try HeaderParser.parse(chunk.bytes, isComplete: chunk.isFinal, separators: source.separators)
            } catch var error {
                error.file = source.name
                throw error
            }
            if case .header(let header) = result {
                return UnitProbe(mode: header.exportMode, firstExportDate: firstExportDate(chunk.bytes, header: header))
            }
            guard !chunk.isFinal, chunk.bytes.count < HeaderParser.maximumHeaderBytes, let next = try source.nextChunk() else {
                return nil
            }
            chunk = chunk.joined(with: next)
        }
    }

    /// The leading `export_date` field of the first data row, when the file's
    /// first column is `export_date` and the row is in `bytes`.
    static func firstExportDate(_ bytes: UnsafeRawBufferPointer, header: EPFHeader) -> Int64? {
        guard header.columns.first == "export_date", header.dataOffset < bytes.count else { return nil }
        var value: Int64 = 0
        var digits = 0
        for byte in bytes[header.dataOffset...] {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            value = value &* 10 &+ Int64(byte - 0x30)
            digits += 1
            if digits > 18 { return nil }
        }
        return digits > 0 ? value : nil
    }
}
