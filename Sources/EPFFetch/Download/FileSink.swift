import EPFInput
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A body written to a file: appended at `offset` when the server answers
/// the range (206), from the start when it sends the whole file (200).
///
/// Each block is written as it comes (a `kill -9` loses nothing received:
/// the next run's `Range` starts after it), and the md5 of the whole file
/// is computed on the way (the bytes before `offset` read back once, then
/// each block), so checking the file against its `.md5` needs no second
/// pass over it.
///
/// Invariant: touched by one thread at a time (the request's delegate
/// queue, then the thread that waited for the request).
final class FileSink: BodySink, @unchecked Sendable {
    let path: String
    let offset: Int64
    /// Body bytes received and written.
    var written: Int64 = 0
    var resumed = false
    var onBytes: (@Sendable (Int64) -> Void)?

    private let descriptor: Int32
    /// Where the next block goes in the file.
    private var position: Int64 = 0
    private var md5 = MD5()
    /// Whether `md5` covers the file from its first byte.
    private var hashing = false

    /// Opens (creating it when missing) the file at `path`, which holds
    /// `offset` bytes.
    init(path: String, offset: Int64) throws(FetchError) {
        self.path = path
        self.offset = offset
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FetchError(.file, "\(path): cannot open the file for writing: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The md5 (lowercase hex) of the file as written, once the body is
    /// in; nil when it could not be computed.
    var digest: String? {
        guard hashing, failure == nil else { return nil }
        var copy = md5
        return MD5.hex(copy.finalize())
    }

    override func begin(status: Int, contentRangeStart: Int64?) -> Bool {
        if status == 206, offset > 0, contentRangeStart == offset {
            resumed = true
            position = offset
            hashing = hashPrefix()
            return true
        }
        guard status == 200 || status == 206 else { return true }
        if status == 206 { return false }  // a range we did not ask for
        guard ftruncate(descriptor, 0) == 0 else {
            failure = FetchError(.file, "\(path): cannot write: \(String(cString: strerror(errno)))")
            return false
        }
        position = 0
        md5 = MD5()
        hashing = true
        return true
    }

    override func write(_ chunk: Data) -> Bool {
        let ok = chunk.withUnsafeBytes { bytes -> Bool in
            if hashing { md5.update(bytes) }
            var done = 0
            while done < bytes.count {
                let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(position))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = FetchError(.file, "\(path): cannot write: \(String(cString: strerror(errno)))")
                    return false
                }
                done += count
                position += Int64(count)
            }
            return true
        }
        guard ok else { return false }
        written += Int64(chunk.count)
        onBytes?(Int64(chunk.count))
        return true
    }

    /// Hashes the file's first `offset` bytes (what an earlier download
    /// wrote); false when they cannot be read.
    private func hashPrefix() -> Bool {
        do {
            try FileFetcher.hash(path, limit: offset, into: &md5)
            return true
        } catch {
            return false
        }
    }
}
