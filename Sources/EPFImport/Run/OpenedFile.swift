import EPFInput
import Foundation

/// A table file opened for reading, and what must happen once all of it is
/// read: the rest of an archive drained, the download's md5 checked against
/// its `.md5` side file (`DownloadDigest`). `finish` returns the download's
/// fingerprint, which the journal keeps to know it by its content; nil for
/// an entry of a feed archive, whose fingerprint is the whole archive's,
/// known once its last table is read.
struct OpenedFile {
    var source: any ChunkSource
    var finish: () throws -> String? = { nil }
}

extension PlanRunner {
    /// Opens a planned file: plain files are memory-mapped; compressed ones
    /// stream through their decompressor, with the md5 checked in the same
    /// pass; a one-table archive yields its (first) file.
    func open(_ file: PlannedFile) throws -> OpenedFile {
        if let problem = file.md5Problem {
            throw InputError(path: file.path, detail: "its .md5 side file is unusable: \(problem)", hint: "Download the .md5 file again")
        }
        if options.requireMD5 && file.lacksMD5 {
            throw InputError.missingMD5(file.path)
        }
        if let archive = try InputFormat.openArchive(file.path, format: file.format) {
            let digest = DownloadDigest(path: file.path, expectedMD5: file.expectedMD5, following: archive)
            guard let entry = try archive.nextFile() else {
                throw InputError(path: file.path, detail: "the archive holds no file", hint: "Download it again")
            }
            let source = StreamChunkSource(
                stream: archive.entryStream(), name: "\(file.path):\(entry.name)", chunkSize: options.chunkSize,
                separators: options.separators)
            return OpenedFile(source: source) {
                var extra: [String] = []
                while let more = try archive.nextFile() { extra.append(more.name) }
                let fingerprint = try digest.finish()
                if !extra.isEmpty {
                    self.events(
                        .note("\(file.path): holds more than one file; read \(entry.name), passed over \(extra.joined(separator: ", "))"))
                }
                return fingerprint
            }
        }
        guard let stream = try InputFormat.openStream(file.path, format: file.format) else {
            let mapped = try MappedChunkSource(path: file.path, chunkSize: options.chunkSize, separators: options.separators)
            let digest = DownloadDigest(file: mapped.file, expectedMD5: nil, following: mapped)
            return OpenedFile(source: mapped) { try digest.finish() }
        }
        let digest = DownloadDigest(path: file.path, expectedMD5: file.expectedMD5, following: stream)
        let source = StreamChunkSource(stream: stream, name: file.path, chunkSize: options.chunkSize, separators: options.separators)
        return OpenedFile(source: source) {
            try digest.finish()
        }
    }

    /// Reads a feed archive's entries in order, handing each table file to
    /// `body` with a stream of its bytes; checks the archive's md5 at the end.
    /// Returns the table files the archive held (names without prefix), all
    /// of them, read or passed over, and the archive's fingerprint.
    func readArchive(_ archive: PlannedArchive, unit: ImportUnit, body: (PlannedFile, any ByteStream) -> Void) throws
        -> (tables: [String], md5: String)
    {
        if let problem = archive.md5Problem {
            throw InputError(path: archive.path, detail: "its .md5 side file is unusable: \(problem)", hint: "Download the .md5 file again")
        }
        if options.requireMD5 && archive.expectedMD5 == nil {
            throw InputError.missingMD5(archive.path)
        }
        guard let reader = try InputFormat.openArchive(archive.path, format: archive.format) else {
            throw InputError(path: archive.path, detail: "not an archive", hint: "Name a feed archive (.tbz, .tar.gz, .zip)")
        }
        let digest = DownloadDigest(path: archive.path, expectedMD5: archive.expectedMD5, following: reader)
        var tables: [String] = []
        while let entry = try reader.nextFile() {
            guard let (format, stem) = InputFormat.of(fileName: entry.fileName, extensions: !options.separators.isRelational),
                format == .plain
            else {
                events(.note("\(archive.path): \(entry.name) is not a table file: passed over"))
                continue
            }
            let table = ImportPlanner.tableName(stem)
            if tables.contains(table) {
                events(.note("\(archive.path): \(entry.name) is a second file for table \(table): passed over"))
                continue
            }
            tables.append(table)
            if let filter = unit.filter, !filter.accepts(table) { continue }
            if unit.skipTables.contains(unit.tablePrefix + table) {
                events(.note("\(archive.path): \(entry.name) already applied: passed over"))
                continue
            }
            let file = PlannedFile(path: "\(archive.path):\(entry.name)", table: unit.tablePrefix + table, size: entry.size)
            body(file, reader.entryStream())
        }
        return (tables, try digest.finish())
    }
}
