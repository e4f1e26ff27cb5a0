import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only into memory.
///
/// The pages belong to the page cache, not to the process's anonymous
/// memory, so mapping a 5 GB table costs no heap; the kernel reads ahead
/// because access is declared sequential.
///
/// Invariant: the mapping is read-only and lives until `deinit`, so its bytes
/// may be read from any thread while the object is alive (`@unchecked
/// Sendable`). Callers keep the object alive while they use `bytes`.
package final class MappedFile: @unchecked Sendable {
    /// The path as given.
    package let path: String
    /// The file's size in bytes.
    package let size: Int
    /// The file's bytes (empty for an empty file).
    package let bytes: UnsafeRawBufferPointer

    package init(path: String) throws(InputError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(path, "open the file", errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(path, "read the file's size", errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(path: path, detail: "not a regular file", hint: "Name a table file or a feed folder")
        }
        size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .system(path, "map the file into memory", errno: errno)
        }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let address = bytes.baseAddress {
            // Unmapping takes milliseconds per gigabyte (its page table
            // entries): not on the thread that let the file go, which is
            // usually on its way to apply what it loaded. Nothing reads the
            // bytes after deinit (see the invariant).
            let start = UInt(bitPattern: address)
            let size = self.size
            DispatchQueue.global(qos: .utility).async {
                munmap(UnsafeMutableRawPointer(bitPattern: start), size)
            }
        }
    }
}
