/// What `epf compact` did to a catalog: its size before and after, and how
/// long it took. Backend-neutral: SQLite returns the pages a FULL
/// re-import freed inside the file (`SQLiteCompaction`), PostgreSQL has
/// nothing of the kind to return (`PostgresCompaction`).
package struct CompactionReport: Sendable, Equatable {
    /// The catalog as messages name it (a URL without its password).
    package var catalog: String
    /// Bytes the catalog took on its disk before (for SQLite the file and
    /// its write-ahead log).
    package var bytesBefore: Int64
    /// Bytes it takes after.
    package var bytesAfter: Int64
    /// Seconds the whole compaction took.
    package var seconds: Double
    /// Why nothing was done, when nothing was: the catalog had nothing to
    /// return. nil when it was compacted.
    package var nothingToDo: String?
    /// Things worth telling about what was done.
    package var notes: [String]

    /// Bytes given back to the file system.
    package var bytesReturned: Int64 { max(0, bytesBefore - bytesAfter) }

    package init(catalog: String, bytesBefore: Int64, bytesAfter: Int64, seconds: Double, nothingToDo: String? = nil, notes: [String] = [])
    {
        self.catalog = catalog
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
        self.seconds = seconds
        self.nothingToDo = nothingToDo
        self.notes = notes
    }
}

/// Where a compaction is, as it goes: for a status line.
package enum CompactionEvent: Sendable, Equatable {
    /// The compaction starts: `liveBytes` of pages in use are copied,
    /// `freeBytes` of free pages are to be returned.
    case started(liveBytes: Int64, freeBytes: Int64)
    /// The pages in use are being copied, in order, into a compact file
    /// beside the catalog: `done` of about `total` bytes so far.
    case copying(done: Int64, total: Int64)
    /// The compact copy is being written back into the catalog (in one
    /// transaction readers do not see until it commits).
    case writingBack(done: Int64, total: Int64)
    /// The write is committed; the catalog file is being cut to its new
    /// size (a checkpoint: it waits for readers still on the old pages).
    case truncating
}
