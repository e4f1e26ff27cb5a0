import EPFCatalogCore
import EPFCatalogRead
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One import at a time per catalog: an exclusive `flock` on `PATH.lock`,
/// held while a `SQLiteCatalogStore` is open for importing, and while
/// `epf compact` rewrites the catalog (an import and a compaction never
/// run at once: the compaction copies the catalog as it is, and writes
/// that copy back).
///
/// SQLite alone would let two imports interleave (each waits for the
/// other's transactions, then goes on), so a second import could stage or
/// apply between the first one's files. The lock makes the second one
/// stop at once with a clear message instead. The kernel releases the
/// lock when the process ends however it ends (`kill -9` too), so a lock is
/// never left stale; the file itself stays (deleting it would race with a
/// process that has just opened it) and holds the holder's pid and start
/// time, for the message.
package final class ImportLock {
    package let path: String
    private let descriptor: Int32
    /// Whether this lock made its file (there was none before).
    private let madeFile: Bool

    /// What a process holds the lock for; the lock file says it, so that
    /// the process refused can say what it waits for.
    package enum Purpose: Sendable {
        /// `epf import`, `epf sync`: the note is `pid N, since T`.
        case importing
        /// `epf compact`: the note is `pid N, since T, epf compact`.
        case compacting

        /// What the lock file's note ends with.
        var noteSuffix: String {
            switch self {
            case .importing: ""
            case .compacting: ", epf compact"
            }
        }
    }

    /// Takes the lock of the catalog at `catalogPath`, or throws naming
    /// the import (or compaction) that holds it.
    package init(catalogPath: String, for purpose: Purpose = .importing) throws(CatalogError) {
        path = catalogPath + ".lock"
        // O_EXCL says whether this lock made the file, with no window
        // between asking and making it.
        var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        madeFile = descriptor >= 0
        if descriptor < 0 && errno == EEXIST { descriptor = open(path, O_RDWR | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CatalogError(
                .readOnly,
                detail: "cannot create the import lock \(path): \(reason)",
                hint: "Check that the catalog's folder is writable")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            throw Self.refusal(purpose, holder: holder, catalogPath: catalogPath)
        }
        self.descriptor = descriptor
        let note = "pid \(getpid()), since \(Timestamp.now())\(purpose.noteSuffix)\n"
        _ = ftruncate(descriptor, 0)
        _ = note.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Removes the lock's file when this lock made it: for a catalog that
    /// turned out not to be one (`--db notes.txt`), so that nothing is left
    /// beside a file epf refused. (A lock file of a real catalog stays: see
    /// above.)
    package func removeFileIfMade() {
        if madeFile { unlink(path) }
    }

    /// The error of a process that wanted the lock for `purpose` while the
    /// process the lock file's note (`holder`) describes held it.
    static func refusal(_ purpose: Purpose, holder: String?, catalogPath: String) -> CatalogError {
        let compactionSuffix = Purpose.compacting.noteSuffix
        if let holder, holder.hasSuffix(compactionSuffix) {
            let who = String(holder.dropLast(compactionSuffix.count))
            return CatalogError(
                .busy,
                detail: "epf compact (\(who)) is compacting \(catalogPath)",
                hint: purpose == .compacting
                    ? "One compaction runs at a time: wait for it to finish"
                    : "Run the import again when the compaction is done (readers keep answering meanwhile)")
        }
        switch purpose {
        case .importing:
            return CatalogError(
                .busy,
                detail: "another epf import\(holder.map { " (\($0))" } ?? "") is importing into \(catalogPath)",
                hint: "One import runs at a time: wait for it to finish, or stop it and run this one again (it resumes where it stopped)")
        case .compacting:
            return CatalogError(
                .busy,
                detail:
                    "an epf import\(holder.map { " (\($0))" } ?? "") is importing into \(catalogPath): epf compact does not run during an import",
                hint: "Run epf compact when the import is done; nothing was changed")
        }
    }

    /// What the lock file says of the process holding it (which writes it
    /// just after taking the lock: an empty file is read again once).
    private static func holder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 200)
        var count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 200, 0) }
        if count <= 0 {
            usleep(50_000)
            count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 200, 0) }
        }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
