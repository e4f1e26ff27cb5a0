import EPFCatalog
import EPFInput
import Foundation

/// Downloads the files of a plan (one per call of `fetch`; `fetchAll` runs
/// `jobs` at once), each verified before it is
/// put in place: the body goes to `NAME.part` (resumed with `Range` when a
/// `.part` is there), its md5 is checked against the `.md5` side file, and
/// only a match is renamed to `NAME` (its `.md5` written beside it first).
/// A file already in place whose md5 matches is not downloaded again; an
/// md5 mismatch deletes the `.part` and downloads once more from the start,
/// then fails. Nothing unverified is ever left under a table file's name.
/// A request that fails for a passing reason is tried again (`retry`).
package struct FileFetcher: Sendable {
    package let server: FeedServer
    /// The download folder (the layout `epf import DIR` reads).
    package let folder: String
    /// How requests that fail for a passing reason (no answer, HTTP 5xx) are
    /// tried again. A download tried again continues its `.part` with a
    /// `Range` request from the bytes already written.
    package var retry: RetryPolicy
    /// Hears of each retry (and the wait before it), for messages.
    package var onRetry: @Sendable (RetryEvent) -> Void
    /// Hears of each block of a body written to a `.part` (for a progress display).
    package var onBytes: (@Sendable (Int64) -> Void)?

    package init(
        server: FeedServer, folder: String, retry: RetryPolicy = RetryPolicy(), onRetry: @escaping @Sendable (RetryEvent) -> Void = { _ in }
    ) {
        self.server = server
        self.folder = folder
        self.retry = retry
        self.onRetry = onRetry
    }

    /// What happened to one file.
    package enum Outcome: Sendable, Equatable {
        /// Already in place, with the md5 its `.md5` gives (or, without an
        /// `.md5`, the size the listing gives).
        case present
        /// Downloaded and verified: the bytes received in this run, and
        /// whether a `.part` was resumed.
        case downloaded(bytes: Int64, resumed: Bool)
    }

    /// Fetches `file` into place. Throws for a file that could not be
    /// fetched or verified: `.unauthorized` means stop everything.
    package func fetch(_ file: RemoteFile) throws(FetchError) -> Outcome {
        let target = file.localPath(in: folder)
        let part = target + ".part"
        let directory = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            // Made meanwhile by another file's fetch (--jobs): fine.
            guard FileManager.default.isFolder(atPath: directory) else {
                throw FetchError(.file, "\(directory): cannot create the folder: \(error.localizedDescription)")
            }
        }

        var md5Text: String?
        var expected: String?
        if let md5Path = file.md5Path {
            let text = try retry.run(md5Path, onRetry: onRetry) { () throws(FetchError) in try server.text(md5Path, limit: 64 << 10) }
            guard let digest = MD5SideFile.parse(text) else {
                throw FetchError(.malformed, "\(server.url(md5Path)): holds no MD5 digest")
            }
            md5Text = text
            expected = digest
        }

        // In place already?
        if FileManager.default.fileExists(atPath: target) {
            if let expected {
                if try Self.md5(of: target) == expected {
                    try writeSideFile(md5Text!, for: target)
                    return .present
                }
            } else if let size = file.size, Self.size(of: target) == size {
                return .present
            }
        }

        var received: Int64 = 0
        var resumed = false
        for attempt in 1...2 {
            if let size = file.size, let partSize = Self.size(of: part), partSize > size {
                try remove(part)  // longer than the file: not a prefix of it
            }
            let transfer: FeedServer.Transfer
            let before = Self.size(of: part) ?? 0
            do {
                transfer = try retry.run(file.path, onRetry: onRetry) { () throws(FetchError) in
                    try server.download(file.path, to: part, onBytes: onBytes)
                }
            } catch {
                // Nothing received: leave nothing. Bytes received stay in the
                // `.part` (a prefix of the file, never under its name): the
                // next run continues it.
                if Self.size(of: part) == 0 { try? remove(part) }
                throw error
            }
            // What this run added to the `.part`, over all its tries.
            let after = Self.size(of: part) ?? 0
            received += transfer.resumed || transfer.rangeBeyondEnd ? max(0, after - before) : after
            resumed = resumed || transfer.resumed
            if let expected {
                // Computed as the bytes came, unless the last try was a 416.
                var actual = transfer.md5 ?? ""
                if transfer.md5 == nil { actual = try Self.md5(of: part) }
                guard actual == expected else {
                    try remove(part)
                    if attempt == 1 { continue }
                    throw FetchError(
                        .md5Mismatch,
                        "\(server.url(file.path)): md5 mismatch after downloading it twice: the file's md5 is \(actual) but \(file.md5Path!) says \(expected); nothing kept"
                    )
                }
                try writeSideFile(md5Text!, for: target)
            } else if let size = file.size, Self.size(of: part) != size {
                let got = Self.size(of: part) ?? 0
                try remove(part)
                if attempt == 1 { continue }
                throw FetchError(.malformed, "\(server.url(file.path)): \(got) bytes received, the listing says \(size); nothing kept")
            }
            guard rename(part, target) == 0 else {
                throw FetchError(.file, "\(target): cannot rename the download into place: \(String(cString: strerror(errno)))")
            }
            return .downloaded(bytes: received, resumed: resumed)
        }
        preconditionFailure("unreachable: the second attempt returns or throws")
    }

    /// Writes `NAME.md5` (through a temporary file and a rename) unless it
    /// already holds `text`.
    private func writeSideFile(_ text: String, for target: String) throws(FetchError) {
        let path = target + ".md5"
        if let current = try? String(contentsOfFile: path, encoding: .utf8), current == text { return }
        let temporary = path + ".tmp"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw FetchError(.file, "\(temporary): cannot write: \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            throw FetchError(.file, "\(path): cannot write: \(String(cString: strerror(errno)))")
        }
    }

    private func remove(_ path: String) throws(FetchError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FetchError(.file, "\(path): cannot delete: \(String(cString: strerror(errno)))")
        }
    }

    static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// The md5 of the file at `path`, in lowercase hex.
    package static func md5(of path: String) throws(FetchError) -> String {
        var md5 = MD5()
        try hash(path, into: &md5)
        return MD5.hex(md5.finalize())
    }

    /// Feeds the file at `path` to `md5`: all of it, or its first `limit`
    /// bytes (a file shorter than that fails).
    static func hash(_ path: String, limit: Int64? = nil, into md5: inout MD5) throws(FetchError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FetchError(.file, "\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var left = limit ?? Int64.max
        while left > 0 {
            let count = read(descriptor, buffer.baseAddress, Int(min(Int64(buffer.count), left)))
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FetchError(.file, "\(path): cannot read: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            md5.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            left -= Int64(count)
        }
        if limit != nil && left > 0 { throw FetchError(.file, "\(path): shorter than \(limit!) bytes") }
    }
}
