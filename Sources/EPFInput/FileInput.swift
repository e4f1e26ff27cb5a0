#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The raw bytes of a (compressed) file, read in order through one buffer,
/// counted for progress, and shown to an observer (an md5 being computed in
/// the same pass).
final class FileInput {
    let path: String
    let size: Int64?
    private(set) var bytesRead: Int64 = 0
    let buffer: UnsafeMutableRawBufferPointer
    /// Sees every byte read, in order.
    var observer: ((UnsafeRawBufferPointer) -> Void)?
    private let descriptor: Int32
    private(set) var reachedEnd = false

    init(path: String, bufferSize: Int = 1 << 20) throws(InputError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path, "open the file", errno: errno) }
        var status = stat()
        size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : nil
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        buffer = .allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// `count` bytes at `offset` (fewer at the end of the file), by
    /// positioned reads that leave the sequential pass alone.
    func bytes(count: Int, at offset: Int64) throws(InputError) -> [UInt8] {
        try readBytes(descriptor, count: count, at: offset, path: path, action: "read the file")
    }

    /// Reads the next bytes into `buffer`; returns how many (0 at the end).
    func fill() throws(InputError) -> Int {
        guard !reachedEnd else { return 0 }
        var count: Int
        repeat {
            count = read(descriptor, buffer.baseAddress!, buffer.count)
        } while count < 0 && errno == EINTR
        guard count >= 0 else { throw .system(path, "read the file", errno: errno) }
        if count == 0 {
            reachedEnd = true
            return 0
        }
        bytesRead += Int64(count)
        observer?(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count))
        return count
    }
}

/// `count` bytes of `descriptor` at `offset` (fewer at the end of the file),
/// retried on EINTR; `action` names the read in an error.
func readBytes(_ descriptor: Int32, count: Int, at offset: Int64, path: String, action: String) throws(InputError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let read = bytes.withUnsafeMutableBytes { buffer in
            pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
        }
        if read < 0 {
            let code = errno
            if code == EINTR { continue }
            throw .system(path, action, errno: code)
        }
        if read == 0 { break }
        filled += read
    }
    if filled < count { bytes.removeLast(count - filled) }
    return bytes
}
