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
