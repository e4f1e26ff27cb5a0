/// The rows of one row group, or of one slice of a row group, while they
/// are appended: one `ParquetColumnBuffer` per column, in schema order.
/// Append to `columns[i]` (in place: `rowGroup.columns[i].append(...)`),
/// every column the same number of rows; `encode()` makes the row group's
/// bytes (on any thread), or `ParquetRowGroupEncoder.append(_:)` makes it
/// part of a larger row group; `removeAll()` readies the buffers for the
/// next one.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): the writer is public for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public struct ParquetRowGroup: Sendable {
    /// The columns, in order.
    public let schema: ParquetSchema
    /// How the row group's pages are cut, encoded and compressed.
    public let options: ParquetWriterOptions
    /// One buffer per column of `schema`, in order: append to them in place.
    public var columns: [ParquetColumnBuffer]

    /// An empty row group of `schema`.
    public init(schema: ParquetSchema, options: ParquetWriterOptions = ParquetWriterOptions()) {
        self.schema = schema
        self.options = options
        self.columns = schema.columns.map { ParquetColumnBuffer(column: $0, options: options) }
    }

    /// The rows of the first column (all columns must hold as many).
    public var rowCount: Int { columns[0].rowCount }

    /// The bytes all columns' buffered rows take before encoding (about
    /// the row group's uncompressed size): cut row groups by it.
    public var bufferedBytes: Int { columns.reduce(0) { $0 + $1.bufferedBytes } }

    /// The row group's column chunks, encoded. Refuses columns of different
    /// row counts and a row group with no rows.
    package func encode() throws -> EncodedRowGroup {
        let encoder = ParquetRowGroupEncoder(schema: schema, options: options)
        try encoder.append(self)
        return encoder.finish()
    }

    /// Throws unless every column holds the same number of rows, and some.
    func checkWhole() throws {
        let rows = rowCount
        guard rows > 0 else { throw ParquetError.emptyRowGroup }
        for column in columns where column.rowCount != rows {
            throw ParquetError.rowCountMismatch(column: column.column.name, rows: column.rowCount, expected: rows)
        }
    }

    /// Closes each column's open page (`ParquetColumnBuffer.closePages()`):
    /// for a slice that is complete, before it is encoded, so that its text
    /// pages are compressed where they lie rather than copied.
    public mutating func closePages() {
        for index in columns.indices { columns[index].closePages() }
    }

    /// Empties every column, keeping the buffers' capacity.
    public mutating func removeAll() {
        for index in columns.indices { columns[index].removeAll() }
    }
}

/// A row group's encoded column chunks, in schema order, not yet placed in
/// a file: `ParquetFileWriter.write(_:)` places it.
package struct EncodedRowGroup: Sendable {
    /// The rows of the row group.
    package let rowCount: Int
    package var chunks: [EncodedColumnChunk]

    /// The bytes it takes in the file (its pages, headers included).
    package var byteCount: Int { chunks.reduce(0) { $0 + $1.byteCount } }
}
