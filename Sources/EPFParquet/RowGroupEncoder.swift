import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes one row group from slices of its rows (`ParquetRowGroup`s of
/// its schema, in row order), so that a writer holds the row group's
/// compressed pages and one slice of values, not the whole row group's
/// values: a large row group in bounded memory.
///
/// `append(_:)` encodes a slice on every core (`DispatchQueue.concurrentPerform`),
/// in three steps: each column cuts its values into pages, one column a
/// task, the largest first (`ColumnChunkEncoder.stage`); the pages of all
/// columns are compressed, the largest first, each taken by the next free
/// thread with its own compressor; each column appends its pages to its
/// chunk. Compressing pages rather than columns keeps every core busy to
/// the end of a slice whose columns are unequal: in EPF's `application`,
/// the description is three quarters of the bytes. `finish()` hands over the row group
/// and readies the encoder for the next one. Not thread-safe: use it from
/// one thread (or serial queue) at a time.
package final class ParquetRowGroupEncoder: @unchecked Sendable {
    /// The columns of the row groups it encodes.
    package let schema: ParquetSchema
    /// How their pages are cut, encoded and compressed.
    package let options: ParquetWriterOptions
    private let columns: [ColumnChunkEncoder]
    /// One per thread that compresses pages.
    private let compressors: [PageCompressor]
    /// Rows appended since the last `finish()`.
    package private(set) var rowCount = 0

    package init(schema: ParquetSchema, options: ParquetWriterOptions = ParquetWriterOptions()) {
        self.schema = schema
        self.options = options
        columns = schema.columns.map { ColumnChunkEncoder(column: $0, options: options) }
        compressors = (0..<Self.threads).map { _ in PageCompressor(options.compression) }
    }

    /// Threads that compress a slice's pages: one a core.
    static let threads = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// The compressed bytes of the pages so far.
    package var encodedBytes: Int { columns.reduce(0) { $0 + $1.encodedBytes } }

    /// Encodes `slice`'s rows after those appended before. Refuses a slice
    /// of another schema, of columns of different row counts, or of no rows.
    package func append(_ slice: ParquetRowGroup) throws {
        guard slice.schema == schema else { throw ParquetError.invalidSchema("a row group of another schema") }
        try slice.checkWhole()
        let order = slice.columns.indices.sorted { slice.columns[$0].bufferedBytes > slice.columns[$1].bufferedBytes }
        let columns = self.columns
        DispatchQueue.concurrentPerform(iterations: order.count) { task in
            let column = order[task]
            columns[column].stage(slice.columns[column])
        }
        let pages = columns.flatMap(\.stagedPages).sorted { $0.estimatedBytes > $1.estimatedBytes }
        let next = Atomic<Int>(0)
        let compressors = self.compressors
        DispatchQueue.concurrentPerform(iterations: min(compressors.count, pages.count)) { thread in
            while true {
                let page = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard page < pages.count else { return }
                pages[page].compress(with: compressors[thread])
            }
        }
        DispatchQueue.concurrentPerform(iterations: columns.count) { columns[$0].commit() }
        rowCount += slice.rowCount
    }

    /// Takes back a row group `finish()` made, once written, so that the
    /// next row group's pages reuse its memory.
    package func recycle(_ group: consuming EncodedRowGroup) {
        precondition(group.chunks.count == columns.count, "a row group of another schema")
        // The consuming parameter itself, not a copy of it: a copy would
        // share the buffers, and the encoders would get copies.
        for (index, column) in columns.enumerated() {
            // Swapped out, so that each buffer has one owner and is kept, not copied.
            var pages: [UInt8] = []
            swap(&pages, &group.chunks[index].dataPages)
            column.recycle(pages: consume pages)
        }
    }

    /// The row group of the slices appended since the last `finish()`.
    package func finish() -> EncodedRowGroup {
        precondition(rowCount > 0, "finish() of a row group with no rows")
        let group = EncodedRowGroup(rowCount: rowCount, chunks: columns.map { $0.finish(compressingWith: compressors[0]) })
        rowCount = 0
        return group
    }
}
