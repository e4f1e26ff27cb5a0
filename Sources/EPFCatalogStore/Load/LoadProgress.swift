import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What every table loader keeps of its load, whatever it stores into:
/// the counters, the first row's `export_date`, where the last commit was
/// and where a resumed load started. The loaders of the SQL stores (and
/// of any store that stages and resumes) hold one and ask it when a commit
/// is due and what its checkpoint and staged table are. Named by
/// `TableLoader`; made and read inside this package.
public struct LoadProgress: Sendable {
    package let target: StagingTarget
    package var counts = LoadCounts()
    /// The first row's `export_date`, if the table has that column.
    package var firstExportDate: Int64?
    /// The checkpoint this load went on from, if it resumed one.
    package let resumedFrom: LoadCheckpoint?
    /// The key index of a staging table that was complete when the import
    /// stopped.
    package let stagedKeyIndex: String?
    /// The file offset of the last commit.
    package private(set) var committedOffset: Int64
    /// Input bytes between two commits.
    package let checkpointBytes: Int64
    private let exportDateColumn: Int?

    /// A new load of `target`, or, given `resume`, the load that checkpoint
    /// belongs to, going on.
    package init(target: StagingTarget, checkpointBytes: Int64, resume: StoredCheckpoint?) {
        self.target = target
        self.checkpointBytes = checkpointBytes
        resumedFrom = resume?.checkpoint
        stagedKeyIndex = resume?.keyIndex
        committedOffset = resume?.checkpoint.byteOffset ?? 0
        if let resume {
            counts = resume.checkpoint.counts
            firstExportDate = resume.checkpoint.firstExportDate
        }
        exportDateColumn = target.header.columns.firstIndex(of: CatalogTables.exportDateColumn)
    }

    /// Whether the load had staged the whole file before the import stopped:
    /// `finish` then only hands the staged table over.
    package var resumesStaged: Bool { resumedFrom?.staged == true }

    /// Counts a batch's comment rows and the rows the storefront filter
    /// and the previous day's digests left out of it, and notes the first `export_date`;
    /// returns the base of the chunk's bytes, nil for a batch without
    /// records.
    package mutating func begin(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        counts.commentRows += batch.skippedCommentRows
        counts.filteredRows += batch.dropped
        counts.knownRows += batch.known
        guard batch.count > 0, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        if firstExportDate == nil, let column = exportDateColumn {
            let span = batch.field(0, column)
            firstExportDate = ValueDecoding.integer(base + span.start, span.count)
        }
        return base
    }

    /// Whether `checkpointBytes` have passed since the last commit.
    package func isCommitDue(at byteOffset: Int64) -> Bool {
        byteOffset - committedOffset >= checkpointBytes
    }

    /// The checkpoint of a commit at `byteOffset`, `records` in.
    package func checkpoint(at byteOffset: Int64, records: Int) -> LoadCheckpoint {
        LoadCheckpoint(byteOffset: byteOffset, records: records, counts: counts, firstExportDate: firstExportDate, staged: false)
    }

    /// Notes that the load committed up to `byteOffset`.
    package mutating func committed(at byteOffset: Int64) { committedOffset = byteOffset }

    /// The checkpoint that says the whole file is staged.
    package var stagedCheckpoint: LoadCheckpoint {
        LoadCheckpoint(
            byteOffset: committedOffset, records: counts.rowsRead + counts.filteredRows + counts.knownRows, counts: counts,
            firstExportDate: firstExportDate,
            staged: true)
    }

    /// The staged table this load hands to `apply`.
    package func staged(in stagingName: String, keyIndex: String?) -> StagedTable {
        StagedTable(target: target, stagingName: stagingName, keyIndexName: keyIndex, counts: counts, firstExportDate: firstExportDate)
    }
}
