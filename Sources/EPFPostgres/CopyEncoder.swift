import EPFCatalogStore
import EPFFormat

/// Writes records as lines of PostgreSQL's COPY text format, straight from
/// the field spans of a `RecordBatch` into an output buffer; nothing is
/// allocated per record.
///
/// Fields are decoded by `RecordDecoder`, exactly as the SQLite store
/// decodes them, and written by `CopyLineSink`: integers, booleans,
/// decimals and dates in the form PostgreSQL reads (`-12`, `t`, `2.990`,
/// `2012-03-06 10:00:00`); text with backslash, newline, carriage return and
/// tab escaped (`\\`, `\n`, `\r`, `\t`); an empty field is `\N` (NULL),
/// except in a text key column, where it stays the empty string as in
/// SQLite. A value that does not fit its column's type is written as `\N`
/// and listed in `unfitColumns` (the loader keeps its text). A record whose
/// text needs repair (invalid UTF-8, NUL bytes; flagged by the parser) has
/// its text repaired with `TextRepair` first: U+FFFD for each invalid
/// sequence, NUL bytes removed, both counted.
///
/// After the header's columns, each line carries the record's number in its
/// file (the staging table's `epf_record` column).
package final class CopyEncoder {
    let columnCount: Int
    let decoder: RecordDecoder
    /// Per column: a DATE, not a TIMESTAMP (`CopyLineSink.dateOnly`).
    let dateOnly: UnsafeMutablePointer<Bool>
    /// The unfit columns of the last record, `unfitCount` of them.
    let unfit: UnsafeMutablePointer<Int>
    // Unchecked: written once per record by `encode` and read by its caller
    // between records, never while another access is open; a dynamic
    // exclusivity check on each cost more than the rest of the record's
    // bookkeeping.
    @exclusivity(unchecked) private var unfitCount = 0
    /// What decoding the last record repaired and what did not fit.
    @exclusivity(unchecked) private(set) var tally = RecordTally()

    /// Columns of the last record encoded whose value did not fit their
    /// type (written as NULL).
    package var unfitColumns: [Int] { Array(UnsafeBufferPointer(start: unfit, count: unfitCount)) }
    /// What text repair did to the last record (zero when it needed none).
    package var repair: Repair { Repair(invalidSequences: tally.invalidSequences, nulBytes: tally.nulBytes) }

    /// What text repair did to one record.
    package struct Repair: Sendable, Equatable {
        package var invalidSequences = 0
        package var nulBytes = 0

        package init(invalidSequences: Int = 0, nulBytes: Int = 0) {
            self.invalidSequences = invalidSequences
            self.nulBytes = nulBytes
        }
    }

    /// An encoder for records of `header`. Under `strict`, a record whose
    /// text needs repair is refused (`FormatError.strict`, naming `file`).
    package init(header: EPFHeader, strict: Bool = false, file: String = "") {
        columnCount = header.columns.count
        decoder = RecordDecoder(header: header, strict: strict, file: file, sink: CopyLineSink.self)
        dateOnly = .allocate(capacity: max(1, columnCount))
        for column in 0..<columnCount {
            let type = header.types[column]
            (dateOnly + column).initialize(to: type.kind == .date && PostgresSchema.isDateOnly(type))
        }
        unfit = .allocate(capacity: max(1, columnCount))
    }

    deinit {
        dateOnly.deallocate()
        unfit.deallocate()
    }

    /// The most bytes `encode` can write for a record of `recordBytes` input
    /// bytes: each input byte becomes at most three (U+FFFD for an invalid
    /// byte, two for an escaped one), each field adds at most `\N` and a
    /// separator, and the record number and newline at most 21.
    package func worstCase(recordBytes: Int) -> Int {
        3 * recordBytes + 3 * columnCount + 32
    }

    /// Writes record `record` of `batch` (spans into `base`) as one line at
    /// `out`, which must hold `worstCase` bytes, and returns its length.
    /// Under `strict`, throws for a record whose text needs repair, at
    /// `chunkOffset` (the file offset of `base`) plus the record's offset.
    @inline(__always)
    func encode(
        _ batch: RecordBatch, record: Int, base: UnsafePointer<UInt8>, recordNumber: Int, chunkOffset: Int64,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(FormatError) -> Int {
        var sink = CopyLineSink(out: out, dateOnly: dateOnly, unfit: unfit)
        unfitCount = 0
        tally = try decoder.decode(record, of: batch, base: base, number: recordNumber, chunkOffset: chunkOffset, into: &sink)
        unfitCount = sink.unfitCount
        sink.endLine(recordNumber: recordNumber)
        return sink.length
    }

    /// `encode` for an encoder made without `strict`, which never refuses a
    /// record.
    package func encode(
        _ batch: RecordBatch, record: Int, base: UnsafePointer<UInt8>, recordNumber: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        do {
            return try encode(batch, record: record, base: base, recordNumber: recordNumber, chunkOffset: 0, into: out)
        } catch {
            preconditionFailure("encode(_:record:base:recordNumber:into:) on a strict encoder: \(error)")
        }
    }
}
