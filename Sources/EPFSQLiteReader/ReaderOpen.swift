import CSQLite
import EPFCatalogRead
import Foundation

extension SQLiteDatabase {
    /// Opens the catalog at `path` read-only for a reader (`epf tables`,
    /// `lookup`, `search`, `sql`, `history`, `import --dry-run`), so that
    /// it answers from the last committed catalog even after an import was
    /// killed. Every read-only open of a catalog goes through here.
    ///
    /// A killed import that loaded with the rollback journal (`--exclusive`,
    /// or the first import of a catalog) leaves a hot `CATALOG-journal`; one
    /// killed in WAL mode leaves a `CATALOG-wal` whose index may need
    /// rebuilding. A read-only connection may not undo either
    /// (`SQLITE_READONLY_ROLLBACK`, `_RECOVERY`, `_CANTINIT`). Then the
    /// catalog is opened read-write (never created) for one read: SQLite
    /// rolls the journal back or recovers the WAL itself, under its own
    /// locks, so a live import is never disturbed (the read just waits for
    /// it). That connection is closed and the catalog opened read-only
    /// again.
    ///
    /// Throws a `CatalogError` that says what is wrong: an import holding
    /// the catalog ("an import is writing the catalog"), or the file left
    /// by the interrupted import and what this process cannot write to undo
    /// it, with what to run. The file must exist (callers check first:
    /// SQLite would report a missing file as a file it cannot open).
    ///
    /// - Parameter busyTimeout: how long a read waits for an import that
    ///   holds the catalog (an `--exclusive` or first import writing)
    ///   before it gives up.
    package static func openForReading(path: String, busyTimeout: Duration = .seconds(10)) throws(CatalogError) -> SQLiteDatabase {
        let milliseconds = Int32(clamping: busyTimeout.inMilliseconds)
        let firstRead = { (readOnly: Bool) in Self.firstRead(path, readOnly: readOnly, busyMilliseconds: milliseconds) }
        let first: SQLiteError
        switch firstRead(true) {
        case .success(let database): return database
        case .failure(let error): first = error
        }
        guard ReaderLeftovers.mayNeedRecovery(first, catalog: path) else {
            throw ReaderLeftovers.error(first, catalog: path)
        }
        // Read once read-write: SQLite rolls back or recovers on that read.
        if case .failure(let error) = firstRead(false) {
            throw ReaderLeftovers.error(error, catalog: path, recovering: first)
        }
        switch firstRead(true) {
        case .success(let database): return database
        case .failure(let error): throw ReaderLeftovers.error(error, catalog: path)
        }
    }

    /// `path` opened (never created) and read once; the first read is
    /// where SQLite meets a hot journal or a WAL to recover.
    private static func firstRead(_ path: String, readOnly: Bool, busyMilliseconds: Int32) -> Result<SQLiteDatabase, SQLiteError> {
        do {
            let database = try SQLiteDatabase(path: path, readOnly: readOnly, create: false)
            sqlite3_busy_timeout(database.handle, busyMilliseconds)
            _ = try database.scalar("SELECT count(*) FROM sqlite_schema")
            return .success(database)
        } catch {
            return .failure(error)
        }
    }
}

/// What a reader says when a catalog cannot be read: the words for an
/// import that holds it and for what a killed import left behind.
enum ReaderLeftovers {
    /// Whether `error`, from a read-only first read of `catalog`, may go
    /// away once a read-write connection has rolled back or recovered.
    static func mayNeedRecovery(_ error: SQLiteError, catalog: String) -> Bool {
        // SQLITE_READONLY_RECOVERY, _CANTLOCK, _ROLLBACK, _CANTINIT (macros
        // Swift does not import): SQLITE_READONLY | (n << 8).
        switch error.extendedCode {
        case SQLITE_READONLY | (1 << 8), SQLITE_READONLY | (2 << 8), SQLITE_READONLY | (3 << 8), SQLITE_READONLY | (5 << 8):
            return true
        default:
            // A WAL with no `-shm` beside it, in a folder this process
            // cannot write, fails the read-only open itself.
            return error.code == SQLITE_CANTOPEN && leftover(of: catalog) != nil
        }
    }

    /// The file an interrupted import left beside `catalog`, if any.
    static func leftover(of catalog: String) -> String? {
        [catalog + "-journal", catalog + "-wal"].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `error` as a reader's `CatalogError`. `recovering` is the read-only
    /// error that made the reader try to roll back or recover.
    static func error(_ error: SQLiteError, catalog: String, recovering: SQLiteError? = nil) -> CatalogError {
        if error.isBusy { return importWriting(catalog, underlying: error) }
        if recovering != nil, let left = leftover(of: catalog) {
            return CatalogError(
                .readOnly,
                detail:
                    "\(left) was left by an interrupted import, and this process cannot undo it: \(unwritable(catalog, left) ?? error.message)",
                hint:
                    "Bringing the catalog back to its last committed state writes the catalog and its folder \(folder(of: catalog)): run any epf command (epf tables will do) as a user who can write both, or run the import again, which recovers it",
                underlying: error)
        }
        var wrapped = CatalogError(error, while: "opening the catalog \(catalog)")
        if error.code == SQLITE_CANTOPEN {
            wrapped.hint = "SQLite could not open the file for reading"
        } else if error.code != SQLITE_CORRUPT && error.code != SQLITE_NOTADB {
            // The import-side advice does not fit a read.
            wrapped.hint = "The catalog could not be read"
        }
        return wrapped
    }

    /// An import holds the catalog (an `--exclusive` or first import,
    /// while it writes), for longer than a reader waits.
    static func importWriting(_ catalog: String, underlying: SQLiteError?) -> CatalogError {
        CatalogError(
            .busy,
            detail: "\(catalog): an import is writing the catalog",
            hint:
                "Ask again when it is done (an import with --exclusive, and the first import into a new catalog, keep readers waiting until they finish)",
            underlying: underlying)
    }

    /// What this process may not write that undoing `leftover` needs: the
    /// folder (to delete the journal, or create `-shm`), the catalog, or
    /// the leftover itself; nil when all of them are writable.
    private static func unwritable(_ catalog: String, _ leftover: String) -> String? {
        let folder = folder(of: catalog)
        for (path, what) in [
            (folder, "the folder \(folder) is not writable"), (catalog, "\(catalog) is not writable"),
            (leftover, "\(leftover) is not writable"),
        ] {
            if access(path, W_OK) != 0 { return "\(what) (\(String(cString: strerror(errno))))" }
        }
        return nil
    }

    /// The folder of `path`, absolute (a message naming `.` says little).
    private static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        if folder.hasPrefix("/") { return folder }
        let current = FileManager.default.currentDirectoryPath
        return folder.isEmpty ? current : (current as NSString).appendingPathComponent(folder)
    }
}
