import CSQLite
import EPFCatalogStore
import Foundation

/// Copies what an import commits to the WAL into the database file on a
/// thread of its own, while the import goes on loading.
///
/// In WAL mode every page is written twice: to the WAL at commit, then into
/// the database file by a checkpoint. SQLite's automatic checkpoint runs on
/// the committing connection, so the loader stood still for every copy (in
/// a FULL re-import of 300k rows, ~0.8 s of ~3 s). This checkpointer takes
/// its place (`sqlite3_wal_hook` on the importer's connection turns the
/// automatic one off): each commit wakes a thread with its own connection
/// that runs a PASSIVE checkpoint, SQLite's own copy, as crash-safe, never
/// blocking the writer or readers, while the loader binds the next rows on
/// the other core.
///
/// The WAL file only starts over when a write transaction begins with every
/// frame copied, which never happens while the copy runs behind the load.
/// So a commit that leaves more than `maximumBytes` in the WAL waits until
/// the copy has caught up (a few commits' worth, ~0.07 s for 32 MB): the WAL
/// stays bounded. A commit that alone writes more than `maximumBytes` (the
/// apply of an INCREMENTAL file, which rewrites pages all over the
/// catalog: 1.4 GB for a day of the itunes feed at 10^6 applications) does
/// not wait for its copy: the loads after it go on beside the copy until
/// `maximumBytes` more are in the WAL, and the next apply waits for the
/// copy before it begins (`beforeApply`). The WAL then holds at most one
/// such commit and `maximumBytes` besides (`WALAllowance`). While the checkpointer runs, the importer's connection
/// should not truncate the WAL at each new start (`journal_size_limit`):
/// truncating and growing the file again cost more than the wait.
final class WALCheckpointer: @unchecked Sendable {
    /// Bytes of WAL (frames) above which a commit waits for the copy.
    static let maximumBytes = 256 << 20

    /// The importer's connection, whose commits are copied; let go of by
    /// `stop()` (the thread may outlive the store by a moment, and the
    /// connection must close with the store).
    private var database: SQLiteDatabase?
    /// The checkpointer's own connection, used on its thread only; closed
    /// by `stop()`, so that the importer's connection is the last one open
    /// (a reader that opens the catalog after the import must not meet a
    /// closing connection's lock).
    private var connection: SQLiteDatabase?
    private let condition = NSCondition()
    // Guarded by `condition`. Commits number the checkpoints they ask for;
    // the thread runs one for the latest request and reports it done.
    private var requested = 0
    private var started = 0
    private var completed = 0
    private var stopping = false
    private var finished = false
    // Guarded by `condition`, used on the importer's thread.
    private var allowance: WALAllowance

    /// Starts copying the commits of `database`, which must be in WAL mode.
    init(database: SQLiteDatabase) throws(SQLiteError) {
        self.database = database
        let connection = try SQLiteDatabase(path: database.path, create: false)
        self.connection = connection
        // A connection reads the file (and learns it is in WAL mode) on its
        // first statement; before that a checkpoint does nothing.
        guard try connection.scalar("PRAGMA journal_mode")?.textValue?.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR, extendedCode: SQLITE_ERROR, message: "the catalog is not in WAL mode", sql: "PRAGMA journal_mode")
        }
        let pageSize = Int(try connection.scalar("PRAGMA page_size")?.integerValue ?? 4096)
        allowance = WALAllowance(maximumFrames: Int32(Self.maximumBytes / max(pageSize, 512)))
        // The last checkpoint may empty the WAL file only if no reader is in
        // it: never wait for readers.
        sqlite3_busy_timeout(connection.handle, 0)
        let thread = Thread { [self] in run() }
        thread.name = "epf WAL checkpointer"
        thread.start()
        sqlite3_wal_hook(
            database.handle,
            { context, _, _, frames in
                Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(frames: frames)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called on the importer's thread after each commit, with the frames
    /// now in the WAL.
    private func committed(frames: Int32) {
        condition.lock()
        defer { condition.unlock() }
        requested += 1
        let ticket = requested
        condition.broadcast()
        guard allowance.committed(frames: frames) else { return }
        // The importer holds no snapshot between transactions, so the copy
        // catches up and its next transaction starts the WAL over.
        while completed < ticket && !finished { condition.wait() }
        allowance.caughtUp()
    }

    /// Before an apply (on the importer's thread, outside a transaction):
    /// waits for the copy of a large commit still under way, so that the
    /// apply starts the WAL over instead of adding its pages to another's.
    func beforeApply() {
        condition.lock()
        defer { condition.unlock() }
        guard allowance.largeCommitPending else { return }
        let ticket = requested
        while completed < ticket && !finished { condition.wait() }
        allowance.caughtUp()
    }

    private func run() {
        condition.lock()
        // Set before the thread started; released only once it has finished.
        let handle = connection!.handle
        while true {
            while started == requested && !stopping { condition.wait() }
            let last = started == requested
            let ticket = requested
            started = ticket
            condition.unlock()
            var frames: Int32 = 0
            var copied: Int32 = 0
            // The last one, when the import is over, also empties the WAL
            // file if no reader is in it (else it copies like PASSIVE).
            // Busy or an error leaves frames in the WAL for the next
            // checkpoint: nothing is lost.
            let mode = last ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
            _ = sqlite3_wal_checkpoint_v2(handle, nil, mode, &frames, &copied)
            condition.lock()
            completed = ticket
            condition.broadcast()
            if last { break }
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Copies what is committed, ends the thread and gives the importer's
    /// connection SQLite's automatic checkpoint back. Idempotent.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        connection = nil
        let database = self.database
        self.database = nil
        condition.unlock()
        if let database { sqlite3_wal_autocheckpoint(database.handle, 1000) }
    }
}
