import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether a download fits on the disk of its folder.
package enum DiskSpace {
    /// The bytes still to download: the listed sizes of the plan's files
    /// not at their place under `folder`, less what their `.part` already
    /// holds. A file the listing gives no size for counts 0.
    package static func needed(_ plan: RemotePlan, folder: String) -> Int64 {
        plan.files.reduce(0) { total, file in
            let target = file.localPath(in: folder)
            guard let size = file.size, FileFetcher.size(of: target) == nil else { return total }
            let part = FileFetcher.size(of: target + ".part") ?? 0
            return total + max(0, size - (part <= size ? part : 0))
        }
    }

    /// The bytes free for an unprivileged user on the file system that
    /// holds `path` (or, when it does not exist yet, its nearest parent that
    /// does); nil when it cannot be read.
    package static func free(at path: String) -> Int64? {
        var current = path.isEmpty ? "." : path
        while !FileManager.default.fileExists(atPath: current) {
            let parent = (current as NSString).deletingLastPathComponent
            if parent.isEmpty {
                current = "."
                break
            }
            if parent == current { break }
            current = parent
        }
        var stats = statvfs()
        guard statvfs(current, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}
