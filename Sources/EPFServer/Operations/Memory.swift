#if canImport(Glibc)
import Glibc
#endif

/// The process's memory, as the allocator holds it.
enum Memory {
    /// glibc's `malloc_trim`, found at run time: the Glibc module does not
    /// import `<malloc.h>`. Nil with another C library.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// Gives the pages the allocator holds free back to the system: after
    /// a flood of connections, their freed buffers would otherwise stay in
    /// the server's RSS. Takes a few milliseconds; called once per flood
    /// (`ConnectionGuard`).
    static func giveBack() {
        _ = mallocTrim?(0)
    }
}
