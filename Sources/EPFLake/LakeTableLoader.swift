import EPFCatalogStore
import EPFFormat
@_spi(Benchmarks) import EPFParquet
import Foundation

/// Writes the rows of one table file into a Parquet file under a temporary
/// name in its table's folder (`DIR/<table>/.part-<id>.parquet.tmp`, a
/// name no reader's `*.parquet` glob matches); `LakeStore.apply` renames it
/// into its day's partition.
///
/// Values come from EPFFormat's `RecordDecoder` through `LakeRowSink`,
/// straight into the column buffers of a slice of the row group; once the
/// slice holds `rowGroupBytes / slicesPerRowGroup` bytes, it goes to a
/// `RowGroupWriter`, which encodes and compresses it (its columns on every
/// core) into the row group's pages while the next slice fills, and writes
/// the row group once its slices held `rowGroupBytes`. Memory is bounded
/// whatever the file size: three slices of values at most (the one filling,
/// two queued for the encoders; recycled, so their buffers keep their
/// capacity) and one row group of compressed pages. `finish()` writes the
/// footer, syncs the file to disk (each row group was flushed as it was
/// written: `ParquetFileWriter.durable`), and checks that it holds as many
/// rows as were read (the importer has checked those against
/// `#recordsWritten`). A lake load is
/// not resumed: a killed import leaves only a temporary file, removed when
/// the lake is next opened, and the rerun writes the file again.
final class LakeTableLoader: TableLoader {
    private(set) var progress: LoadProgress
    let temporaryPath: String
    let decoder: RecordDecoder
    let writer: RowGroupWriter
    let schema: ParquetSchema
    var sink: LakeRowSink
    let rowGroupBytes: Int
    let sliceBytes: Int
    /// Bytes of the slices of the row group being written.
    var rowGroupFill = 0
    var finished = false

    /// zstd level 1, not 3: on generated applications a fifth less CPU for
    /// 5% more bytes (1.07x DuckDB's level-3 file, against 1.02x at level
    /// 3; `scripts/compare-lake`): compression is half an import's CPU.
    static let writerOptions = ParquetWriterOptions(compression: .zstd(level: 1))

    /// Slices a row group is written in: values of one eighth of a row
    /// group at a time in memory (twice: one filling, one encoding).
    static let slicesPerRowGroup = 8

    init(target: StagingTarget, strict: Bool, temporaryPath: String, rowGroupBytes: Int, hooks: LoadHooks) throws {
        progress = LoadProgress(target: target, checkpointBytes: .max, resume: nil)
        self.temporaryPath = temporaryPath
        self.rowGroupBytes = rowGroupBytes
        sliceBytes = max(1, rowGroupBytes / Self.slicesPerRowGroup)
        let (schema, columns) = try LakeColumn.schema(for: target.header)
        decoder = RecordDecoder(header: target.header, strict: strict, file: target.sourceName, sink: LakeRowSink.self)
        self.schema = schema
        do {
            writer = RowGroupWriter(
                try ParquetFileWriter(path: temporaryPath, schema: schema, options: Self.writerOptions, durable: true), hooks: hooks)
        } catch {
            throw CatalogError(
                .readOnly, detail: "cannot create \(temporaryPath): \(error)", hint: "Check that the lake's folder is writable")
        }
        sink = LakeRowSink(group: ParquetRowGroup(schema: schema), columns: columns)
    }

    deinit {
        if !finished {
            writer.drain()
            unlink(temporaryPath)
        }
    }

    func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        for record in 0..<batch.count {
            // A --strict refusal throws after the record's values reached the
            // sink; the file fails whole, so the half row is never written.
            let tally = try decoder.decode(
                record, of: batch, base: base, number: firstRecord + batch.ordinal(record), chunkOffset: chunkOffset, into: &sink)
            progress.counts.add(tally)
        }
        progress.counts.rowsRead += batch.count
        let buffered = sink.group.bufferedBytes
        if buffered >= sliceBytes { try flush(endingRowGroup: rowGroupFill + buffered >= rowGroupBytes) }
    }

    /// Hands the buffered rows to the writer as a slice (waiting while it
    /// still encodes the one before), the last of its row group when
    /// `endingRowGroup`, and fills the slice the writer gave back.
    func flush(endingRowGroup: Bool) throws {
        guard sink.group.rowCount > 0 || (endingRowGroup && rowGroupFill > 0) else { return }
        rowGroupFill = endingRowGroup ? 0 : rowGroupFill + sink.group.bufferedBytes
        // Swapped, not copied: the full slice's buffers move to the writer.
        var full = writer.emptySlice() ?? ParquetRowGroup(schema: schema)
        swap(&full, &sink.group)
        do {
            try writer.submit(consume full, endingRowGroup: endingRowGroup)
        } catch {
            throw Self.writeError(error, path: temporaryPath)
        }
    }

    func finish() throws -> StagedTable {
        try flush(endingRowGroup: true)
        do {
            try writer.close()
        } catch {
            throw Self.writeError(error, path: temporaryPath)
        }
        guard writer.rowCount == Int64(progress.counts.rowsRead) else {
            throw CatalogError(
                .failed, detail: "\(temporaryPath) holds \(writer.rowCount) rows, but \(progress.counts.rowsRead) were read",
                hint: "This is a bug in epf; nothing of the file was applied")
        }
        finished = true
        return progress.staged(in: temporaryPath, keyIndex: nil)
    }

    func abandon() {
        if !finished { writer.abandon() }
        finished = true
        unlink(temporaryPath)
    }

    static func writeError(_ error: any Error, path: String) -> CatalogError {
        if case ParquetError.io(_, _, let code) = error, code == ENOSPC || code == EDQUOT {
            return CatalogError(.full, detail: "no space left writing \(path)", hint: "Free space and import again")
        }
        return CatalogError(.failed, detail: "writing \(path): \(error)", hint: "Check the lake's disk and import again")
    }
}

/// Encodes and compresses slices of row groups, and appends each row
/// group to one Parquet file once its last slice is encoded, on a serial
/// queue of its own, in the order given.
///
/// Invariant: `file` and `encoder` are used only on `queue` until
/// `drain()` (a `queue.sync`) has returned, then only by the caller of
/// `close()` or `abandon()`; `failure` and `spare` only under `lock`.
/// `slot` lets `queuedSlices` slices wait for (or be in) encoding while the
/// loader fills the next: three slices of values exist at most, each
/// encoded one coming back emptied (`emptySlice()`) for the loader to fill
/// again.
final class RowGroupWriter: @unchecked Sendable {
    private let file: ParquetFileWriter
    private let encoder: ParquetRowGroupEncoder
    private let hooks: LoadHooks
    private let queue = DispatchQueue(label: "epf.lake.row-groups")
    private let slot = DispatchSemaphore(value: RowGroupWriter.queuedSlices)
    private let lock = NSLock()
    private var failure: (any Error)?
    private var spare: [ParquetRowGroup] = []

    /// Slices queued at most while the loader fills the next: two, so that
    /// the encoders find the next slice ready when they finish one, rather
    /// than wait for the loader (one left both cores idle a tenth of the
    /// time; three or more gain nothing and take 16 MB each).
    static let queuedSlices = 2

    init(_ file: ParquetFileWriter, hooks: LoadHooks) {
        self.file = file
        self.encoder = ParquetRowGroupEncoder(schema: file.schema, options: file.options)
        self.hooks = hooks
    }

    /// Rows written so far; after `drain()`.
    var rowCount: Int64 { file.rowCount }

    /// The slice last encoded, emptied (its buffers keep their capacity);
    /// nil when there is none yet.
    func emptySlice() -> ParquetRowGroup? {
        lock.withLock { spare.popLast() }
    }

    /// Queues `slice` (with no rows: none) once fewer than `queuedSlices`
    /// wait; with `endingRowGroup`, its row group is written after it.
    /// Throws the error of an earlier slice.
    func submit(_ slice: consuming ParquetRowGroup, endingRowGroup: Bool) throws {
        slot.wait()
        if let failure = lock.withLock({ self.failure }) {
            slot.signal()
            throw failure
        }
        // Boxed so that the queue holds the only reference to its buffers:
        // emptied, they keep their memory for the next slice.
        let box = SliceBox(slice)
        queue.async { [self] in
            do {
                var slice: ParquetRowGroup? = box.take()
                // Its last text pages closed where they lie: compressed from there, not copied.
                slice!.closePages()
                if slice!.rowCount > 0 { try encoder.append(slice!) }
                slice!.removeAll()
                // Taken out, so that the loader gets the only reference: one
                // left here would make its next append copy every buffer.
                lock.withLock { spare.append(slice.take()!) }
                if endingRowGroup && encoder.rowCount > 0 {
                    let group = encoder.finish()
                    try file.write(group)
                    encoder.recycle(consume group)
                    // A kill here leaves a temporary file with some row groups and no footer.
                    hooks.reach(.checkpoint)
                }
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
            slot.signal()
        }
    }

    /// Waits until every queued slice is encoded and written.
    func drain() { queue.sync {} }

    /// Waits for the queued slices, then writes the footer and syncs the
    /// file to disk; throws the first error of any slice.
    func close() throws {
        drain()
        if let failure = lock.withLock({ failure }) { throw failure }
        try file.close()
    }

    /// Waits for the queued slices and closes the file without caring
    /// how it ends.
    func abandon() {
        drain()
        _ = try? file.close()
    }
}

/// A slice on its way to the writer's queue, taken out there (see `submit`).
private final class SliceBox: @unchecked Sendable {
    private var slice: ParquetRowGroup?

    init(_ slice: consuming ParquetRowGroup) { self.slice = slice }

    func take() -> ParquetRowGroup {
        defer { slice = nil }
        return slice!
    }
}

/// Appends each decoded field of a record to its column of the row group,
/// in the column's Parquet type (`LakeColumn`).
///
/// Empty fields are NULL, except in a text key column, where they are the
/// empty text (as the SQLite catalog keeps them). A value the column cannot
/// hold (an INTEGER beyond 32 bits, a decimal with more digits than the
/// column's scale or 18 in all, a leap second) is refused: the decoder
/// counts it as a misfit of its kind and `unfit` stores NULL, as the
/// PostgreSQL catalog does.
struct LakeRowSink: FieldSink {
    var group: ParquetRowGroup
    let columns: [LakeColumn]

    static func keepsEmptyKey(of type: ColumnType) -> Bool {
        switch type.kind {
        case .text, .freeText, .unknown: true
        case .integer, .boolean, .decimal, .date: false
        }
    }

    static var storesUnfitAsText: Bool { false }

    @inline(__always)
    mutating func null(column: Int) { group.columns[column].appendNull() }

    @inline(__always)
    mutating func integer(_ value: Int64, column: Int) -> Bool {
        switch columns[column] {
        case .int64:
            group.columns[column].append(value)
            return true
        case .int32:
            guard let narrow = Int32(exactly: value) else { return false }
            group.columns[column].append(narrow)
            return true
        default:
            return false
        }
    }

    @inline(__always)
    mutating func boolean(_ value: Bool, column: Int) -> Bool {
        group.columns[column].append(value)
        return true
    }

    @inline(__always)
    mutating func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        guard case .decimal(let scale) = columns[column], let unscaled = LakeValues.unscaled(text, count, scale: scale) else {
            return false
        }
        return group.columns[column].append(decimalUnscaled: unscaled)
    }

    @inline(__always)
    mutating func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        guard let milliseconds = LakeValues.milliseconds(iso, count: count) else { return false }
        group.columns[column].append(milliseconds)
        return true
    }

    @inline(__always)
    mutating func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) {
        group.columns[column].append(utf8: UnsafeRawBufferPointer(start: bytes, count: count))
    }

    @inline(__always)
    mutating func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
        group.columns[column].appendNull()
    }
}
