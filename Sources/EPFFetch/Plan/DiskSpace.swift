import EPFCatalog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether a download, and the catalog's growth from importing it, fit on
/// the disks they go to.
package enum DiskSpace {
    /// How many bytes of SQLite catalog one byte of a listed
    /// (bzip2-compressed) table file takes at most while it is imported,
    /// measured on `epf generate` feeds (docs/fetch.md gives the figures):
    /// into a new catalog 8.5 (the rows, the key index, the search index);
    /// as a FULL export into a catalog that has its tables 15.4 (the new
    /// table is staged beside the one it replaces, whose room is only free
    /// once the new one is in, and the apply goes through the WAL). An
    /// INCREMENTAL day, which adds at most its rows, is counted alike.
    package static func catalogGrowthFactor(catalogExists: Bool) -> Double { catalogExists ? 16 : 9 }

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

    /// The room the catalog needs to import the files still to download:
    /// `catalogGrowthFactor` times their listed sizes (not less their
    /// `.part`s: the whole file is imported).
    package static func catalogGrowth(_ plan: RemotePlan, folder: String, factor: Double) -> Int64 {
        let listed = plan.files.reduce(Int64(0)) { total, file in
            guard let size = file.size, FileFetcher.size(of: file.localPath(in: folder)) == nil else { return total }
            return total + size
        }
        return Int64((Double(listed) * factor).rounded(.up))
    }

    /// Bytes a plan puts on a disk: what (`the files to download need`),
    /// where, how many, and how they were counted (`their listed sizes`).
    package struct Need: Sendable, Equatable {
        package var what: String
        package var path: String
        package var bytes: Int64
        package var counted: String

        package init(what: String, path: String, bytes: Int64, counted: String) {
            self.what = what
            self.path = path
            self.bytes = bytes
            self.counted = counted
        }
    }

    /// A disk the needs on it do not fit on.
    package struct Shortfall: Sendable, Equatable {
        package var needs: [Need]
        package var free: Int64

        /// `not enough free space for dl and c.sqlite (one disk): the files
        /// to download need N bytes (their listed sizes), the catalog needs
        /// about M bytes (...), T bytes in all, F bytes are free`.
        package var description: String {
            let paths = needs.map(\.path)
            let place = paths.count == 1 ? paths[0] : paths.joined(separator: " and ") + " (one disk)"
            let total = needs.reduce(Int64(0)) { $0 + $1.bytes }
            var text =
                "not enough free space for \(place): "
                + needs.map { "\($0.what) \($0.bytes) bytes (\($0.counted))" }.joined(separator: ", ")
            if needs.count > 1 { text += ", \(total) bytes in all" }
            return text + ", \(free) bytes are free"
        }
    }

    /// The disks whose needs exceed their free space. Needs on one disk
    /// (the same `device`) add up; `free` gives a disk's free bytes (of
    /// its first need's path); a disk either cannot be read for is passed.
    package static func shortfalls(_ needs: [Need], free: (String) -> Int64?, device: (String) -> UInt64?) -> [Shortfall] {
        var disks: [(device: UInt64?, needs: [Need])] = []
        for need in needs where need.bytes > 0 {
            let id = device(need.path)
            if let id, let index = disks.firstIndex(where: { $0.device == id }) {
                disks[index].needs.append(need)
            } else {
                disks.append((id, [need]))
            }
        }
        return disks.compactMap { disk in
            guard let available = free(disk.needs[0].path) else { return nil }
            let total = disk.needs.reduce(Int64(0)) { $0 + $1.bytes }
            return total > available ? Shortfall(needs: disk.needs, free: available) : nil
        }
    }

    /// The bytes free for an unprivileged user on the file system that
    /// holds `path` (or, when it does not exist yet, its nearest parent that
    /// does); nil when it cannot be read.
    package static func free(at path: String) -> Int64? {
        FileSystemSpace.availableBytes(at: existing(path))
    }

    /// The file system (device number) that holds `path` or its nearest
    /// existing parent; nil when it cannot be read.
    package static func device(at path: String) -> UInt64? {
        var status = stat()
        guard stat(existing(path), &status) == 0 else { return nil }
        return UInt64(status.st_dev)
    }

    /// `path`, or its nearest parent that exists.
    static func existing(_ path: String) -> String {
        var current = path.isEmpty ? "." : path
        while !FileManager.default.fileExists(atPath: current) {
            let parent = (current as NSString).deletingLastPathComponent
            if parent.isEmpty { return "." }
            if parent == current { break }
            current = parent
        }
        return current
    }
}
