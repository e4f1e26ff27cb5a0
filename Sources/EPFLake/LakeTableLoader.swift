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
/// straight into the row group's column buffers; a row group is written out
/// once it holds `rowGroupBytes`, so memory stays bounded whatever the file
/// size. `finish()` writes the footer, syncs the file to disk, and checks
/// that it holds as many rows as were read (the importer has checked those
/// against `#recordsWritten`). A lake load is not resumed: a killed import
/// leaves only a temporary file, removed when the lake is next opened, and
/// the rerun writes the file again.
final class LakeTableLoader: TableLoader {
    private(set) var progress: LoadProgress
    let temporaryPath: String
    let decoder: RecordDecoder
    let writer: ParquetFileWriter
    var sink: LakeRowSink
    let rowGroupBytes: Int
    let hooks: LoadHooks
    var finished = false

    init(target: StagingTarget, strict: Bool, temporaryPath: String, rowGroupBytes: Int, hooks: LoadHooks) throws {
        self.hooks = hooks
        progress = LoadProgress(target: target, checkpointBytes: .max, resume: nil)
        self.temporaryPath = temporaryPath
        self.rowGroupBytes = rowGroupBytes
        let (schema, columns) = try LakeColumn.schema(for: target.header)
        decoder = RecordDecoder(header: target.header, strict: strict, file: target.sourceName, sink: LakeRowSink.self)
        do {
            writer = try ParquetFileWriter(path: temporaryPath, schema: schema)
        } catch {
            throw CatalogError(.readOnly, detail: "cannot create \(temporaryPath): \(error)", hint: "Check that the lake's folder is writable")
        }
        sink = LakeRowSink(group: ParquetRowGroup(schema: schema), columns: columns)
    }

    deinit {
        if !finished { unlink(temporaryPath) }
    }

    func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        for record in 0..<batch.count {
            // A --strict refusal throws after the record's values reached the
            // sink; the file fails whole, so the half row is never written.
            let tally = try decoder.decode(record, of: batch, base: base, number: firstRecord + record, chunkOffset: chunkOffset, into: &sink)
            progress.counts.add(tally)
        }
        progress.counts.rowsRead += batch.count
        if sink.group.bufferedBytes >= rowGroupBytes { try flush() }
    }

    /// Encodes and appends the buffered rows as one row group.
    func flush() throws {
        guard sink.group.rowCount > 0 else { return }
        do {
            try writer.write(sink.group)
        } catch {
            throw Self.writeError(error, path: temporaryPath)
        }
        sink.group.removeAll()
        // A kill here leaves a temporary file with some row groups and no footer.
        hooks.reach(.checkpoint)
    }

    func finish() throws -> StagedTable {
        try flush()
        do {
            try writer.close(sync: true)
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
        if !finished { _ = try? writer.close() }
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
