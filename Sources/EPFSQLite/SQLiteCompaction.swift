import CSQLite
import EPFCatalogStore
import Foundation

/// `epf compact` on a SQLite catalog: gives back to the file system the
/// pages that FULL re-imports freed inside the file.
///
/// A FULL file loads into a staging table beside the live one, and the old
/// table is dropped when the new one is swapped in: its pages become free
/// pages of the file, which later imports reuse but the file system never
/// gets back. After a FULL re-import the file is about twice the size of a
/// fresh import.
///
/// How, and why this way (the options were measured against readers):
///
/// - Not `VACUUM INTO` a new file renamed over the catalog. A reader that
///   has the catalog open (`epf-server`'s pool) keeps reading the old,
///   unlinked file, holds its space until it restarts, and reports the
///   catalog replaced (`isStillThere`, `/health` fails); its `-wal` and
///   `-shm` would belong to another file than the one it reads.
/// - Not `auto_vacuum = INCREMENTAL` with `incremental_vacuum` steps: only a
///   catalog created that way can use it, which every existing catalog was
///   not, and it returns pages without defragmenting the tables.
/// - Not a plain `VACUUM`: it is the same copy in two steps (into a
///   temporary database, then back through the write-ahead log), but its
///   temporary database goes to the system's temporary folder (often a
///   small `/tmp`, a disk the free-space check cannot know), and it says
///   nothing while it runs.
/// - This: the same two steps, done by hand. (1) `VACUUM INTO` a compact
///   copy beside the catalog (`PATH.compact`, on the catalog's own disk):
///   a read, that readers do not notice. (2) The copy written back into the
///   catalog with SQLite's backup API, page by page, in ONE write
///   transaction: the catalog is in WAL mode, so readers keep answering
///   from the pages they had until it commits, then from the compact ones;
///   the file keeps its inode, so nothing that has it open is disturbed.
///   (3) A checkpoint copies the new pages into the file and cuts it to
///   its new size once no reader is on the old ones (a reader's snapshot
///   lasts one query).
///
/// Both steps report how far they are (`CompactionEvent`). The compaction
/// takes the import lock (`ImportLock`): it never runs during an import,
/// and no import starts during it. Before it starts it checks that the
/// disk has room for the copy and for the write-ahead log that carries it
/// back: about twice the catalog's pages in use. A compaction killed at
/// any point leaves the catalog as it was, or compacted; a copy left by a
/// killed one is removed by the next.
package enum SQLiteCompaction {
    /// Bytes of the free space check above twice the pages in use: the
    /// write-ahead log's frame headers, and room to spare.
    static let spareBytes: Int64 = 16 << 20

    /// The page cache, in KiB, while the compact copy is written.
    static let copyCacheKiB = 8_192

    /// Pages written back in one step (between two progress events).
    static let bytesPerStep = 16 << 20

    /// How long a step of the write back may wait for a lock another
    /// connection holds (a reader recovering the WAL) before giving up.
    static let busyLimit = Duration.seconds(30)

    /// The file the compact copy of `catalog` is written to.
    package static func copyPath(of catalog: String) -> String { catalog + ".compact" }

    /// Compacts the catalog at `path` (see the type's documentation),
    /// reporting its progress to `progress`.
    ///
    /// Throws a `CatalogError`: `.notFound` when there is no catalog there,
    /// `.busy` when an import holds it, `.full` when its disk has too little
    /// room (checked before anything is written; the catalog is unchanged),
    /// or what SQLite refused.
    package static func compact(
        path: String, hooks: CompactionHooks = CompactionHooks(), progress: (CompactionEvent) -> Void
    ) throws(CatalogError) -> CompactionReport {
        let started = ContinuousClock.now
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CatalogError(.notFound, detail: "\(path): no catalog there", hint: "Name the catalog with --db or $EPF_DB")
        }
        guard !isFolder.boolValue else {
            throw CatalogError(.notFound, detail: "\(path) is a folder, not a catalog", hint: "Name the catalog file with --db")
        }
        let lock = try ImportLock(catalogPath: path, for: .compacting)
        defer { withExtendedLifetime(lock) {} }
        let action = "compacting \(path)"
        let database: SQLiteDatabase
        let pageSize: Int64
        let pageCount: Int64
        let freePages: Int64
        do {
            database = try SQLiteDatabase(path: path, create: false)
            // Fails on a file that is not a SQLite database.
            _ = try database.scalar("SELECT count(*) FROM sqlite_schema")
            pageSize = try database.scalar("PRAGMA page_size")?.asInteger ?? 4096
            pageCount = try database.scalar("PRAGMA page_count")?.asInteger ?? 0
            freePages = try database.scalar("PRAGMA freelist_count")?.asInteger ?? 0
        } catch {
            lock.removeFileIfMade()
            throw compactionError(error, while: "opening the catalog \(path)")
        }
        let before = diskBytes(of: path)
        func seconds() -> Double { (ContinuousClock.now - started).inSeconds }
        guard freePages > 0 else {
            return CompactionReport(
                catalog: path, bytesBefore: before, bytesAfter: before, seconds: seconds(),
                nothingToDo: "the catalog has no free pages: nothing to return to the disk")
        }
        let liveBytes = (pageCount - freePages) * pageSize
        let needed = 2 * liveBytes + spareBytes
        if let free = hooks.freeBytes ?? FileSystemSpace.availableBytes(besideFile: path), needed > free {
            throw CatalogError(
                .full,
                detail:
                    "not enough free disk space to compact \(path): about \(SizeText.of(needed)) needed (a compact copy of its \(SizeText.of(liveBytes)) in use beside it, and as much again in its write-ahead log while the copy is written back), \(SizeText.of(free)) free there",
                hint: "Free space on that disk and run epf compact again; nothing was changed")
        }
        var notes: [String] = []
        let copy = copyPath(of: path)
        do {
            if try database.scalar("PRAGMA journal_mode")?.textValue?.lowercased() != "wal" {
                // Readers answer during the write back only in WAL mode
                // (SQLite keeps the mode in the file; imports use it too).
                guard try database.scalar("PRAGMA journal_mode = WAL")?.textValue?.lowercased() == "wal" else {
                    throw CatalogError(
                        .busy, detail: "\(path) is not in WAL mode and could not be switched to it",
                        hint: "Readers have it open in another mode; run epf compact again when they are done")
                }
                notes.append("the catalog was switched to WAL mode, as imports leave it")
            }
            try database.execute("PRAGMA synchronous = NORMAL")
            try database.execute("PRAGMA journal_size_limit = \(SQLiteCatalogStore.walSizeLimit)")
            progress(.started(liveBytes: liveBytes, freeBytes: freePages * pageSize))

            // (1) The compact copy, beside the catalog.
            unlink(copy)
            unlink(copy + "-journal")
            let version = try database.scalar("PRAGMA data_version")
            do {
                // The copy gets the connection's page cache: a small one
                // writes it out as it goes (its size is the progress), a
                // large one mostly at the end, no faster.
                try database.execute("PRAGMA cache_size = -\(copyCacheKiB)")
                try copyCompacted(database, into: copy, liveBytes: liveBytes, progress: progress)
                try database.execute("PRAGMA cache_size = -\(SQLiteCatalogStore.cacheKiB)")
            } catch {
                unlink(copy)
                throw error
            }
            defer { unlink(copy) }

            // (2) Written back in one transaction. Nothing else may have
            // written the catalog since the copy (no epf does: the lock).
            guard try database.scalar("PRAGMA data_version") == version else {
                throw CatalogError(
                    .busy, detail: "\(path) changed while it was being copied (another program wrote to it)",
                    hint: "Run epf compact again; nothing was changed")
            }
            try writeBack(copy, into: database, pageSize: pageSize, pause: hooks.stepPause, progress: progress)
        } catch let error as CatalogError {
            throw error
        } catch {
            throw compactionError(error, while: action)
        }

        // (3) The file cut to its new size.
        progress(.truncating)
        if !truncate(database) {
            notes.append(
                "readers were still on the old pages: the file is cut to its new size at the next checkpoint (when the last connection closes, or the next import)"
            )
        }
        return CompactionReport(catalog: path, bytesBefore: before, bytesAfter: diskBytes(of: path), seconds: seconds(), notes: notes)
    }

    /// `VACUUM INTO copy`, reporting the copy's size as it grows.
    private static func copyCompacted(
        _ database: SQLiteDatabase, into copy: String, liveBytes: Int64, progress: (CompactionEvent) -> Void
    ) throws {
        try withoutActuallyEscaping(progress) { progress in
            let watch = CopyWatch(path: copy, total: liveBytes, report: progress)
            let context = Unmanaged.passUnretained(watch).toOpaque()
            sqlite3_progress_handler(
                database.handle, 20_000,
                { context in
                    Unmanaged<CopyWatch>.fromOpaque(context!).takeUnretainedValue().tick()
                    return 0
                }, context)
            defer { sqlite3_progress_handler(database.handle, 0, nil, nil) }
            try withExtendedLifetime(watch) {
                try database.execute("VACUUM INTO \(quoteLiteral(copy))")
            }
        }
    }

    /// Writes every page of the compact copy at `copy` into `database`,
    /// in one write transaction (SQLite's backup API), step by step.
    private static func writeBack(
        _ copy: String, into database: SQLiteDatabase, pageSize: Int64, pause: Duration?, progress: (CompactionEvent) -> Void
    ) throws {
        let source = try SQLiteDatabase(path: copy, readOnly: true, create: false)
        guard let backup = sqlite3_backup_init(database.handle, "main", source.handle, "main") else {
            throw SQLiteError(database: database.handle, code: sqlite3_errcode(database.handle), sql: "backup of \(copy)")
        }
        var finished = false
        defer { if !finished { sqlite3_backup_finish(backup) } }
        let pages = Int32(max(1, Int64(bytesPerStep) / pageSize))
        var waitedSince: ContinuousClock.Instant?
        while true {
            let code = sqlite3_backup_step(backup, pages)
            if code == SQLITE_DONE { break }
            if code == SQLITE_BUSY || code == SQLITE_LOCKED {
                let since = waitedSince ?? .now
                waitedSince = since
                guard ContinuousClock.now - since < busyLimit else {
                    throw SQLiteError(
                        code: code, message: "another connection held the catalog for longer than \(busyLimit)", sql: "backup step")
                }
                usleep(50_000)
                continue
            }
            guard code == SQLITE_OK else { throw SQLiteError(database: database.handle, code: code, sql: "backup step") }
            waitedSince = nil
            let total = Int64(sqlite3_backup_pagecount(backup))
            let done = total - Int64(sqlite3_backup_remaining(backup))
            progress(.writingBack(done: done * pageSize, total: total * pageSize))
            if let pause { Thread.sleep(forTimeInterval: pause.inSeconds) }
        }
        finished = true
        let code = sqlite3_backup_finish(backup)
        guard code == SQLITE_OK else { throw SQLiteError(database: database.handle, code: code, sql: "backup of \(copy)") }
    }

    /// Copies the write-ahead log into the file and cuts the file to the
    /// catalog's size (and the log to nothing), waiting for readers on
    /// older pages; false when some were still there after a while (the
    /// pages are copied, the cut waits for the next checkpoint).
    private static func truncate(_ database: SQLiteDatabase) -> Bool {
        // Each try waits up to the connection's busy timeout (10 s) for
        // readers to move on.
        for _ in 0..<3 {
            var frames: Int32 = 0
            var copied: Int32 = 0
            let code = sqlite3_wal_checkpoint_v2(database.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &frames, &copied)
            if code == SQLITE_OK { return true }
            guard code == SQLITE_BUSY || code == SQLITE_LOCKED else { return false }
        }
        return false
    }

    /// The catalog file's bytes and its write-ahead log's.
    package static func diskBytes(of path: String) -> Int64 {
        size(of: path) + size(of: path + "-wal")
    }

    private static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    private static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `error` as a compaction's `CatalogError`, with advice that fits a
    /// compaction (the defaults speak of imports).
    static func compactionError(_ error: any Error, while action: String) -> CatalogError {
        if let error = error as? CatalogError { return error }
        guard let error = error as? SQLiteError else { return CatalogError(.failed, detail: "\(action): \(error)", hint: "") }
        var wrapped = CatalogError(error, while: action)
        switch error.kind {
        case .full: wrapped.hint = "The disk ran full; free space and run epf compact again: the catalog is as it was"
        case .busy: wrapped.hint = "Another process held the catalog; run epf compact again: the catalog is as it was"
        case .corrupt, .readOnly: break
        default: wrapped.hint = "The catalog is as it was"
        }
        return wrapped
    }
}

/// Watches the compact copy grow while `VACUUM INTO` writes it: SQLite's
/// progress handler calls `tick()` on the compacting thread every few
/// thousand instructions; it reports at most every quarter second.
private final class CopyWatch {
    let path: String
    let total: Int64
    let report: (CompactionEvent) -> Void
    var last = ContinuousClock.now

    init(path: String, total: Int64, report: @escaping (CompactionEvent) -> Void) {
        self.path = path
        self.total = total
        self.report = report
    }

    func tick() {
        let now = ContinuousClock.now
        guard now - last >= .milliseconds(250) else { return }
        last = now
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        report(.copying(done: min(Int64(status.st_size), total), total: total))
    }
}

/// Sizes for messages.
enum SizeText {
    /// `1.2 GB`, `540.3 MB`.
    static func of(_ bytes: Int64) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
