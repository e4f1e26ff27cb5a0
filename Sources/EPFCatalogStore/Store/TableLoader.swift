import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// Writes the rows of one table file into staging: what
/// `CatalogStore.makeLoader(for:strict:)` returns. The importer drives it;
/// every loader lives in this package, as every store does.
public protocol TableLoader: AnyObject {
    /// The file being loaded, the counters so far, where a resumed load
    /// started.
    var progress: LoadProgress { get }
    /// Stores every record of `batch` (spans into `chunk`). `firstRecord` is
    /// the 1-based number of the batch's first record in the file;
    /// `chunkOffset` the chunk's offset in the file.
    func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws
    /// Builds the key (last row of a repeated key wins) and keeps the staged
    /// table for `apply`.
    func finish() throws -> StagedTable
    /// Forgets everything loaded so far.
    func abandon()
    /// Stops without forgetting what is committed, so that the import
    /// resumes from the last checkpoint when it runs again (after the disk
    /// ran full, say).
    func suspend()
    /// Every record before `byteOffset` (`records` of them) is loaded; the
    /// store may commit here, with a checkpoint, so that a killed import
    /// resumes from this point. Called after each chunk, until the footer.
    func reached(byteOffset: Int64, records: Int) throws
}

extension TableLoader {
    /// The file being loaded.
    package var target: StagingTarget { progress.target }
    /// The counters of the records loaded so far.
    package var counts: LoadCounts { progress.counts }
    /// Where an earlier load of the same file, interrupted (killed, disk
    /// full), stopped: the records before its `byteOffset` are in staging
    /// already, and loading goes on from there. nil for a fresh load.
    package var resumedFrom: LoadCheckpoint? { progress.resumedFrom }
    package func suspend() { abandon() }
    package func reached(byteOffset: Int64, records: Int) throws {}
}
