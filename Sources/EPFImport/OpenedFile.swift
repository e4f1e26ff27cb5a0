import EPFInput
import Foundation

/// A table file opened for reading, and what must happen once all of it is
/// read (an md5 to compare, the rest of an archive to drain).
struct OpenedFile {
    var source: any ChunkSource
    var finish: () throws -> Void = {}
}

/// An md5 computed from the bytes a stream reads, as it reads them.
///
/// Invariant: updated only by the thread reading the stream, and read
/// (`digest`) only after that reading has finished and been waited for.
final class RunningMD5: @unchecked Sendable {
    private var md5 = MD5()

    func update(_ bytes: UnsafeRawBufferPointer) { md5.update(bytes) }

    /// The hex digest of everything seen.
    func digest() -> String { MD5.hex(md5.finalize()) }

    /// Watches `stream`'s input when an md5 is expected.
    static func watching(_ stream: any InputObservable, expected: String?) -> RunningMD5? {
        guard expected != nil else { return nil }
        let running = RunningMD5()
        stream.observeInput { running.update($0) }
        return running
    }

    /// Throws when the bytes read do not have the expected md5.
    static func check(_ running: RunningMD5?, expected: String?, path: String) throws {
        guard let running, let expected else { return }
        let actual = running.digest()
        guard actual == expected else {
            throw InputError(
                path: path, detail: "md5 mismatch: the file's md5 is \(actual) but \(path).md5 says \(expected)",
                hint: "The download is damaged or incomplete; download it (and its .md5) again")
        }
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
            let md5 = RunningMD5.watching(archive, expected: file.expectedMD5)
            guard let entry = try archive.nextFile() else {
                throw InputError(path: file.path, detail: "the archive holds no file", hint: "Download it again")
            }
            let source = StreamChunkSource(stream: archive.entryStream(), name: "\(file.path):\(entry.name)", chunkSize: options.chunkSize)
            return OpenedFile(source: source) {
                var extra: [String] = []
                while let more = try archive.nextFile() { extra.append(more.name) }
                try RunningMD5.check(md5, expected: file.expectedMD5, path: file.path)
                if !extra.isEmpty {
                    self.events(.note("\(file.path): holds more than one file; read \(entry.name), passed over \(extra.joined(separator: ", "))"))
                }
            }
        }
        guard let stream = try InputFormat.openStream(file.path, format: file.format) else {
            return OpenedFile(source: try MappedChunkSource(path: file.path, chunkSize: options.chunkSize))
        }
        let md5 = RunningMD5.watching(stream, expected: file.expectedMD5)
        return OpenedFile(source: StreamChunkSource(stream: stream, name: file.path, chunkSize: options.chunkSize)) {
            try RunningMD5.check(md5, expected: file.expectedMD5, path: file.path)
        }
    }

    /// Reads a feed archive's entries in order, handing each table file to
    /// `body` with a stream of its bytes; checks the archive's md5 at the end.
    /// Returns the table files the archive held (names without prefix), all
    /// of them, read or passed over.
    @discardableResult
    func readArchive(_ archive: PlannedArchive, unit: ImportUnit, body: (PlannedFile, any ByteStream) -> Void) throws -> [String] {
        if let problem = archive.md5Problem {
            throw InputError(path: archive.path, detail: "its .md5 side file is unusable: \(problem)", hint: "Download the .md5 file again")
        }
        if options.requireMD5 && archive.expectedMD5 == nil {
            throw InputError.missingMD5(archive.path)
        }
        guard let reader = try InputFormat.openArchive(archive.path, format: archive.format) else { return [] }
        let md5 = RunningMD5.watching(reader, expected: archive.expectedMD5)
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
        try RunningMD5.check(md5, expected: archive.expectedMD5, path: archive.path)
        return tables
    }
}
