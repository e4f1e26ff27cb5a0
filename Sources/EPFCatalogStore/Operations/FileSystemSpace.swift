import EPFCatalogCore
import EPFCatalogRead
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Room left on a file system, in the one meaning every disk check of the
/// importer uses: the bytes an unprivileged process may still write
/// (`statvfs`'s `f_bavail` blocks of `f_frsize` bytes), not the free blocks
/// (`f_bfree`), which count the room reserved for root as well. The stores
/// (`CatalogStore.freeBytes`), `epf compact` and `epf fetch`'s disk check
/// all ask here.
package enum FileSystemSpace {
    /// The bytes an unprivileged process may still write on the file system
    /// that holds `path` (a file or folder that exists); nil when it cannot
    /// be read.
    package static func availableBytes(at path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// `availableBytes(at:)` of the folder that holds the file `path` (the
    /// current folder for a bare file name): where a catalog file and the
    /// files written beside it go.
    package static func availableBytes(besideFile path: String) -> Int64? {
        let folder = (path as NSString).deletingLastPathComponent
        return availableBytes(at: folder.isEmpty ? "." : folder)
    }
}
