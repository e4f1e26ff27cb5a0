import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one Parquet file: `PAR1`, the row groups in the order given, then
/// the footer (the Thrift `FileMetaData`, its 4-byte little-endian length,
/// `PAR1`) at `close()`. The file is created (or truncated) at `init`; it is
/// a readable Parquet file only once `close()` returns. Not thread-safe:
/// encode row groups anywhere (`ParquetRowGroup.encode()`), write them from
/// one place.
///
/// A `durable` writer's file is on the disk when `close()` returns: each
/// row group is flushed (`fdatasync`) on a queue of its own as soon as it
/// is written, while the next ones are encoded, and `close()` syncs the
/// rest (`fsync`), so that it waits for the last row group only, not for
/// the whole file (the lake's files, about to be renamed into place).
/// A flush that fails fails `close()`: the kernel reports a write-back
/// error to one sync only, so the final `fsync` may not see it again.
/// Invariant: `descriptor` is closed only once `flushes` is drained;
/// `flushFailure` is written on `flushes` only, read after draining it.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): the writer is public for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public final class ParquetFileWriter {
    /// The file's path, as given.
    public let path: String
    /// The columns of every row group written.
    public let schema: ParquetSchema
    /// How pages are cut, encoded and compressed.
    public let options: ParquetWriterOptions
    /// Whether the file is on the disk when `close()` returns.
    public let durable: Bool
    private var descriptor: Int32
    private let flushes = DispatchQueue(label: "epf.parquet.flush")
    private let flushFailure = FlushFailure()
    private var offset: Int64 = 0
    private var rowGroups: [RowGroup] = []
    private var rows: Int64 = 0

    private static let magic: [UInt8] = Array("PAR1".utf8)

    /// Creates (or truncates) the file at `path` and writes its leading
    /// `PAR1`; `durable`: the file reaches the disk by `close()`. Throws
    /// `ParquetError.io` when the file cannot be created or written.
    public init(
        path: String, schema: ParquetSchema, options: ParquetWriterOptions = ParquetWriterOptions(), durable: Bool = false
    ) throws {
        self.path = path
        self.schema = schema
        self.options = options
        self.durable = durable
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ParquetError.io(operation: "open", path: path, errno: errno) }
        do {
            try writeAll(Self.magic)
        } catch {
            _ = closeDescriptor(descriptor)
            descriptor = -1
            throw error
        }
    }

    deinit {
        flushes.sync {}
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    /// Rows written so far.
    public var rowCount: Int64 { rows }

    /// Encodes `rowGroup` and appends it.
    public func write(_ rowGroup: ParquetRowGroup) throws {
        guard rowGroup.schema == schema else { throw ParquetError.invalidSchema("a row group of another schema") }
        try write(rowGroup.encode())
    }

    /// Appends a row group encoded with this file's schema.
    package func write(_ rowGroup: EncodedRowGroup) throws {
        guard descriptor >= 0 else { throw ParquetError.closed }
        precondition(rowGroup.chunks.count == schema.columns.count, "a row group of another schema")
        let start = offset
        var columns: [ColumnChunk] = []
        columns.reserveCapacity(rowGroup.chunks.count)
        var size: Int64 = 0
        for chunk in rowGroup.chunks {
            columns.append(ColumnChunk(metaData: chunk.metaData.shifted(by: offset)))
            size += chunk.metaData.totalUncompressedSize
            try writeAll(chunk.dictionaryPage)
            try writeAll(chunk.dataPages)
        }
        rowGroups.append(
            RowGroup(
                columns: columns, totalByteSize: size, numRows: Int64(rowGroup.rowCount), fileOffset: start,
                totalCompressedSize: offset - start,
                ordinal: rowGroups.count <= Int(Int16.max) ? Int16(rowGroups.count) : nil))
        rows += Int64(rowGroup.rowCount)
        if durable {
            let descriptor = self.descriptor
            let failure = flushFailure
            flushes.async {
                if fdatasync(descriptor) != 0 && failure.errno == 0 { failure.errno = errno }
            }
        }
    }

    /// Writes the footer and closes the file; returns its size in bytes.
    /// A `durable` writer's file reaches the disk (fsync) before it is
    /// closed.
    @discardableResult
    public func close() throws -> Int64 {
        guard descriptor >= 0 else { throw ParquetError.closed }
        flushes.sync {}
        if flushFailure.errno != 0 {
            _ = closeDescriptor(descriptor)
            descriptor = -1
            throw ParquetError.io(operation: "fdatasync", path: path, errno: flushFailure.errno)
        }
        let metadata = FileMetaData(
            version: 2, schema: schema.elements, numRows: rows, rowGroups: rowGroups, keyValueMetadata: nil,
            createdBy: options.createdBy,
            columnOrders: Array(repeating: .typeDefinedOrder, count: schema.columns.count))
        var footer = ThriftCompactWriter.encode(metadata)
        withUnsafeBytes(of: UInt32(footer.count).littleEndian) { footer.append(contentsOf: $0) }
        footer.append(contentsOf: Self.magic)
        try writeAll(footer)
        if durable && fsync(descriptor) != 0 {
            let code = errno
            _ = closeDescriptor(descriptor)
            descriptor = -1
            throw ParquetError.io(operation: "fsync", path: path, errno: code)
        }
        let result = closeDescriptor(descriptor)
        descriptor = -1
        guard result == 0 else { throw ParquetError.io(operation: "close", path: path, errno: errno) }
        return offset
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = writeDescriptor(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ParquetError.io(operation: "write", path: path, errno: errno)
                }
                done += count
            }
        }
        offset += Int64(bytes.count)
    }
}

/// The first error of a durable writer's background flushes (0: none).
private final class FlushFailure: @unchecked Sendable {
    var errno: Int32 = 0
}

// The C calls, named apart from the methods `close()` and `write(_:)`.
private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
