import CSQLite

/// Process-wide SQLite settings, made once before the first connection.
package enum SQLiteLibrary {
    /// Turns SQLite's memory statistics off (`SQLITE_CONFIG_MEMSTATUS`):
    /// they take one process-wide mutex on every allocation, which readers
    /// on several threads (epf-server's event loops) contend for. Two
    /// threads looking up 10,000 IDs each: `pthread_mutex_lock` was 6% of
    /// the samples with them, 0.9% without. epf reads none of the
    /// statistics. Every open of the SQLite backend calls this first;
    /// Swift runs the initializer once (it has no effect when SQLite was
    /// initialized before, which these opens prevent).
    package static let configured: Void = {
        _ = epf_sqlite3_disable_memory_statistics()
    }()
}
