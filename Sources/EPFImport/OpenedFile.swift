import EPFInput
import Foundation

/// A table file opened for reading, and what must happen once all of it is
/// read: the rest of an archive drained, the md5 of the download checked
/// against its `.md5` side file. `finish` returns that md5 (computed in the
/// same pass), which the journal keeps to know the download by its content.
struct OpenedFile {
    var source: any ChunkSource
    var finish: () throws -> String
}

/// The md5 of a download (a table file, compressed file or archive),
/// computed from the bytes its reader reads, as it reads them.
///
/// Invariant: updated only by the thread reading the stream, and read
/// (`digest`) only after that reading has finished and been waited for.
final class RunningMD5: @unchecked Sendable {
    private var md5 = MD5()
    private var seen: Int64 = 0

    /// Watches everything `input` reads.
    init(watching input: any InputObservable) {
        input.observeInput { [unowned self] bytes in
            md5.update(bytes)
            seen += Int64(bytes.count)
        }
    }

    /// The md5 of the file at `path`, of `size` bytes: what was seen when
    /// the reader read all of it; otherwise (a load resumed past its start,
    /// or not read at all because its rows were already staged) the file is
    /// read once more to compute it.
    func digest(ofWhole path: String, size: Int64) throws -> String {
        seen == size ? MD5.hex(md5.finalize()) : try MD5.hexDigest(ofFile: path)
    }

    /// The md5 of the file at `path`, checked against `expected` (its `.md5`
    /// side file) when there is one.
    func checked(path: String, size: Int64, expected: String?) throws -> String {
        let actual = try digest(ofWhole: path, size: size)
        if let expected, actual != expected {
            throw InputError(
                path: path, detail: "md5 mismatch: the file's md5 is \(actual) but \(path).md5 says \(expected)",
                hint: "The download is damaged or incomplete; download it (and its .md5) again")
        }
        return actual
    }
}

extension Importer {
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
            let md5 = RunningMD5(watching: archive)
            guard let entry = try archive.nextFile() else {
                throw InputError(path: file.path, detail: "the archive holds no file", hint: "Download it again")
            }
            let source = StreamChunkSource(stream: archive.entryStream(), name: "\(file.path):\(entry.name)", chunkSize: options.chunkSize)
            return OpenedFile(source: source) {
                var extra: [String] = []
                while let more = try archive.nextFile() { extra.append(more.name) }
                let digest = try md5.checked(path: file.path, size: file.size, expected: file.expectedMD5)
                if !extra.isEmpty {
                    self.events(.note("\(file.path): holds more than one file; read \(entry.name), passed over \(extra.joined(separator: ", "))"))
                }
                return digest
            }
        }
        guard let stream = try InputFormat.openStream(file.path, format: file.format) else {
            let mapped = try MappedChunkSource(path: file.path, chunkSize: options.chunkSize)
            let md5 = RunningMD5(watching: mapped)
            return OpenedFile(source: mapped) { try md5.digest(ofWhole: file.path, size: Int64(mapped.file.size)) }
        }
        let md5 = RunningMD5(watching: stream)
        return OpenedFile(source: StreamChunkSource(stream: stream, name: file.path, chunkSize: options.chunkSize)) {
            try md5.checked(path: file.path, size: file.size, expected: file.expectedMD5)
        }
    }

    /// Reads a feed archive's entries in order, handing each table file to
    /// `body` with a stream of its bytes; checks the archive's md5 at the end.
    /// Returns the table files the archive held (names without prefix), all
    /// of them, read or passed over, and the archive's md5.
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
        let md5 = RunningMD5(watching: reader)
        var tables: [String] = []
        while let entry = try reader.nextFile() {
            guard let (format, stem) = InputFormat.of(fileName: entry.fileName), format == .plain else {
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
        return (tables, try md5.checked(path: archive.path, size: archive.size, expected: archive.expectedMD5))
    }
}
