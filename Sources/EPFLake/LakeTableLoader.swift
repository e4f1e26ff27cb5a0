import EPFCatalog
import EPFFormat
import EPFParquet
import Foundation

/// Writes the rows of one table file into a Parquet file under a temporary
/// name in its table's folder (`DIR/<table>/.part-<id>.parquet.tmp`, a
/// name no reader's `*.parquet` glob matches); `LakeStore.apply` renames it
/// into its day's partition.
///
/// Values come from EPFFormat's `RecordDecoder` through `LakeRowSink`,
/// straight into the row group's column buffers; once they hold
/// `rowGroupBytes`, the row group goes to a `RowGroupWriter`, which encodes,
/// compresses and writes it on a thread of its own while the next one
/// fills (one at a time: memory stays bounded, about two row groups of
/// values, whatever the file size). `finish()` writes the footer, syncs the file to disk, and checks
/// that it holds as many rows as were read (the importer has checked those
/// against `#recordsWritten`). A lake load is not resumed: a killed import
/// leaves only a temporary file, removed when the lake is next opened, and
/// the rerun writes the file again.
final class LakeTableLoader: TableLoader {
    private(set) var progress: LoadProgress
    let temporaryPath: String
    let decoder: RecordDecoder
    let writer: RowGroupWriter
    let schema: ParquetSchema
    var sink: LakeRowSink
    let rowGroupBytes: Int
    var finished = false

    init(target: StagingTarget, strict: Bool, temporaryPath: String, rowGroupBytes: Int, hooks: LoadHooks) throws {
        progress = LoadProgress(target: target, checkpointBytes: .max, resume: nil)
        self.temporaryPath = temporaryPath
        self.rowGroupBytes = rowGroupBytes
        let (schema, columns) = try LakeColumn.schema(for: target.header)
        decoder = RecordDecoder(header: target.header, strict: strict, file: target.sourceName, sink: LakeRowSink.self)
        self.schema = schema
        do {
            writer = RowGroupWriter(try ParquetFileWriter(path: temporaryPath, schema: schema), hooks: hooks)
        } catch {
            throw CatalogError(.readOnly, detail: "cannot create \(temporaryPath): \(error)", hint: "Check that the lake's folder is writable")
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
            let tally = try decoder.decode(record, of: batch, base: base, number: firstRecord + batch.ordinal(record), chunkOffset: chunkOffset, into: &sink)
            progress.counts.add(tally)
        }
        progress.counts.rowsRead += batch.count
        if sink.group.bufferedBytes >= rowGroupBytes { try flush() }
    }

    /// Hands the buffered rows to the writer as one row group (waiting
    /// while it still writes the one before) and starts a new one.
    func flush() throws {
        guard sink.group.rowCount > 0 else { return }
        let full = sink.group
        // A new group, not `removeAll()`: the full one's buffers move to
        // the writer without a copy.
        sink.group = ParquetRowGroup(schema: schema)
        do {
            try writer.submit(full)
        } catch {
            throw Self.writeError(error, path: temporaryPath)
        }
    }

    func finish() throws -> StagedTable {
        try flush()
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

/// Encodes, compresses and appends row groups to one Parquet file on a
/// serial queue of its own, one row group at a time, in the order given.
///
/// Invariant: `file` is used only on `queue` until `drain()` (a
/// `queue.sync`) has returned, then only by the caller of `close()` or
/// `abandon()`; `failure` only under `lock`. `slot` lets one row group be
/// written while the loader fills the next.
final class RowGroupWriter: @unchecked Sendable {
    private let file: ParquetFileWriter
    private let hooks: LoadHooks
    private let queue = DispatchQueue(label: "epf.lake.row-groups")
    private let slot = DispatchSemaphore(value: 1)
    private let lock = NSLock()
    private var failure: (any Error)?

    init(_ file: ParquetFileWriter, hooks: LoadHooks) {
        self.file = file
        self.hooks = hooks
    }

    /// Rows written so far; after `drain()`.
    var rowCount: Int64 { file.rowCount }

    /// Queues `group` once the one before is written; throws the error of
    /// an earlier row group.
    func submit(_ group: ParquetRowGroup) throws {
        slot.wait()
        if let failure = lock.withLock({ self.failure }) {
            slot.signal()
            throw failure
        }
        queue.async { [self] in
            do {
                try file.write(group.encode())
                // A kill here leaves a temporary file with some row groups and no footer.
                hooks.reach(.checkpoint)
            } catch {
                lock.withLock { if failure == nil { failure = error } }
            }
            slot.signal()
        }
    }

    /// Waits until every queued row group is written.
    func drain() { queue.sync {} }

    /// Waits for the queued row groups, then writes the footer and syncs the
    /// file to disk; throws the first error of any row group.
    func close() throws {
        drain()
        if let failure = lock.withLock({ failure }) { throw failure }
        try file.close(sync: true)
    }

    /// Waits for the queued row groups and closes the file without caring
    /// how it ends.
    func abandon() {
        drain()
        _ = try? file.close()
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
        guard case .decimal(let scale) = columns[column], let unscaled = LakeValues.unscaled(text, count, scale: scale) else { return false }
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
