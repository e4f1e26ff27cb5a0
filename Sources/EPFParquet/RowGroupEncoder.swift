import Dispatch

/// Encodes one row group from slices of its rows (`ParquetRowGroup`s of
/// its schema, in row order), so that a writer holds the row group's
/// compressed pages and one slice of values, not the whole row group's
/// values: a large row group in bounded memory.
///
/// `append(_:)` encodes and compresses a slice's columns in parallel, one
/// column a task (`DispatchQueue.concurrentPerform`, the largest first),
/// each into its own `ColumnChunkEncoder`; `finish()` hands over the row
/// group and readies the encoder for the next one. Not thread-safe: use it
/// from one thread (or serial queue) at a time.
public final class ParquetRowGroupEncoder: @unchecked Sendable {
    public let schema: ParquetSchema
    public let options: ParquetWriterOptions
    private let columns: [ColumnChunkEncoder]
    /// Rows appended since the last `finish()`.
    public private(set) var rowCount = 0

    public init(schema: ParquetSchema, options: ParquetWriterOptions = ParquetWriterOptions()) {
        self.schema = schema
        self.options = options
        columns = schema.columns.map { ColumnChunkEncoder(column: $0, options: options) }
    }

    /// The compressed bytes of the pages so far.
    public var encodedBytes: Int { columns.reduce(0) { $0 + $1.encodedBytes } }

    /// Encodes `slice`'s rows after those appended before. Refuses a slice
    /// of another schema, of columns of different row counts, or of no rows.
    public func append(_ slice: ParquetRowGroup) throws {
        guard slice.schema == schema else { throw ParquetError.invalidSchema("a row group of another schema") }
        try slice.checkWhole()
        let order = slice.columns.indices.sorted { slice.columns[$0].bufferedBytes > slice.columns[$1].bufferedBytes }
        let columns = self.columns
        DispatchQueue.concurrentPerform(iterations: order.count) { task in
            let column = order[task]
            columns[column].append(slice.columns[column])
        }
        rowCount += slice.rowCount
    }

    /// The row group of the slices appended since the last `finish()`.
    public func finish() -> EncodedRowGroup {
        precondition(rowCount > 0, "finish() of a row group with no rows")
        let group = EncodedRowGroup(rowCount: rowCount, chunks: columns.map { $0.finish() })
        rowCount = 0
        return group
    }
}
