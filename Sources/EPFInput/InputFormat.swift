import Foundation

/// How a file found in a download holds its table(s), from its name.
package enum InputFormat: String, Sendable, Equatable, Codable {
    /// An extracted table file: no extension (`application_price`).
    case plain
    /// One gzipped table file: `application.gz`.
    case gzip
    /// One bzip2-compressed table file: `application.bz2`.
    case bzip2
    /// A tar archive compressed with bzip2: `.tbz`, `.tbz2`, `.tar.bz2`.
    case tarBzip2
    /// A tar archive compressed with gzip: `.tgz`, `.tar.gz`.
    case tarGzip
    /// A PKZip archive (deflate or stored entries, zip64): `.zip`.
    case zip

    /// Whether files of this format are tar archives (hold several files).
    package var isArchive: Bool { self == .tarBzip2 || self == .tarGzip || self == .zip }

    static let suffixes: [(String, InputFormat)] = [
        (".tar.bz2", .tarBzip2), (".tbz2", .tarBzip2), (".tbz", .tarBzip2),
        (".tar.gz", .tarGzip), (".tgz", .tarGzip),
        (".bz2", .bzip2), (".gz", .gzip), (".zip", .zip),
    ]

    /// The format and the name without its extension (`itunes20261101.tbz`
    /// -> `.tarBzip2`, `itunes20261101`); nil for names that are none of
    /// these (`.md5` side files, partial downloads, other files).
    ///
    /// With `extensions` (EPF Flat, whose files may carry one, as Apple's
    /// EPFImporter's `allowExtensions`), the stem ends at its first dot:
    /// `application.txt` -> `.plain`, `application`; hidden files (a
    /// leading dot) are still none.
    package static func of(fileName name: String, extensions: Bool = false) -> (format: InputFormat, stem: String)? {
        for (suffix, format) in suffixes where name.hasSuffix(suffix) && name.count > suffix.count {
            let stem = String(name.dropLast(suffix.count))
            if extensions { return stemBeforeDot(stem).map { (format, $0) } }
            return stem.contains(".") ? nil : (format, stem)
        }
        if extensions { return stemBeforeDot(name).map { (.plain, $0) } }
        return name.contains(".") || name.isEmpty ? nil : (.plain, name)
    }

    private static func stemBeforeDot(_ name: String) -> String? {
        let stem = name.prefix { $0 != "." }
        return stem.isEmpty ? nil : String(stem)
    }

    /// Partial downloads that must never be read: `.part`, `.tmp`,
    /// `.crdownload`.
    package static func isPartialDownload(_ name: String) -> Bool {
        name.hasSuffix(".part") || name.hasSuffix(".tmp") || name.hasSuffix(".crdownload")
    }

    /// Opens a compressed stream over the file at `path` (nil for plain
    /// files, which are memory-mapped instead, and for zip archives, which
    /// `openArchive` reads).
    package static func openStream(_ path: String, format: InputFormat) throws -> (any ByteStream & InputObservable)? {
        switch format {
        case .plain, .zip: return nil
        case .gzip, .tarGzip: return try GzipStream(path: path)
        case .bzip2, .tarBzip2:
            // Blocks decode with our decoder on every core (on one core it
            // is still ~3x libbz2's speed). What cannot be mapped (a pipe)
            // streams through libbz2: our decoder needs a block's bits
            // found before it starts.
            if let mapped = try? MappedFile(path: path) {
                return ParallelBzip2Stream(file: mapped)
            }
            return try Bzip2Stream(path: path)
        }
    }

    /// Opens the archive at `path` (nil for formats that are not archives).
    package static func openArchive(_ path: String, format: InputFormat) throws -> (any ArchiveReader)? {
        switch format {
        case .plain, .gzip, .bzip2: return nil
        case .zip: return try ZipReader(path: path)
        case .tarGzip, .tarBzip2:
            guard let compressed = try openStream(path, format: format) else { return nil }
            return CompressedTarArchive(compressed: compressed, path: path)
        }
    }
}

/// A stream whose raw input bytes can be watched as they are read (to
/// compute an md5 in the same pass).
package protocol InputObservable: AnyObject {
    func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void)
}

extension GzipStream: InputObservable {}
extension Bzip2Stream: InputObservable {}
