#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits the data rows of a table file into records and fields, repairing
/// rows whose free text holds a stray 0x01.
///
/// A parser keeps scratch space for the fields of one row; it is reused for
/// every row, so one parser belongs to one thread at a time (the same
/// invariant as `RecordBatch`).
public final class RecordParser: @unchecked Sendable {
    /// The layout the rows must have.
    public let header: EPFHeader
    @usableFromInline let columnCount: Int
    @usableFromInline let kinds: [ColumnType.Kind]
    @usableFromInline let freeTextColumns: [Int]
    @usableFromInline var rawStarts: UnsafeMutablePointer<Int>
    @usableFromInline var rawCapacity: Int
    /// Whether rows are checked for invalid UTF-8 and NUL bytes.
    public let checksText: Bool
    /// Leaves out the records of storefronts an import does not keep.
    let storefronts: StorefrontProbe?
    /// The bytes that end rows and split fields.
    public let separators: Separators

    /// - Parameter checksText: check every row for invalid UTF-8 and NUL
    ///   bytes (flagging it `.needsTextRepair`). Turning it off measures the
    ///   splitting alone (benchmarks) or suits callers that check elsewhere;
    ///   an import must leave it on.
    /// - Parameter storefronts: the storefronts to keep (`epf import
    ///   --storefront`): a record of another one is counted in the batch's
    ///   `dropped` and not split, checked or stored (`StorefrontProbe`).
    /// - Parameter separators: how rows end and fields split (EPF
    ///   Relational unless the file is EPF Flat or named otherwise).
    public init(
        header: EPFHeader, checksText: Bool = true, storefronts: StorefrontFilter? = nil, separators: Separators = .relational
    ) {
        self.header = header
        self.checksText = checksText
        self.separators = separators
        self.storefronts = StorefrontProbe(storefronts, header: header, field: separators.field)
        columnCount = header.columns.count
        kinds = header.types.map(\.kind)
        freeTextColumns = kinds.indices.filter { header.types[$0].kind == .freeText }
        rawCapacity = max(64, columnCount * 2)
        rawStarts = .allocate(capacity: rawCapacity)
    }

    deinit { rawStarts.deallocate() }

    /// Parses rows from `chunk[from...]` into `batch` (after resetting it)
    /// until the batch is full, the chunk ends, the footer is read, or a row
    /// is damaged. Returns the offset where the next call should start.
    ///
    /// `chunk` must end on a row boundary unless `isFinal` (the end of the
    /// file): bytes after the last record separator of a final chunk are a
    /// truncated row. `recordsBefore` counts the data records already parsed
    /// from this chunk, for record numbers in errors.
    public func parse(
        _ chunk: UnsafeRawBufferPointer, from: Int, isFinal: Bool, recordsBefore: Int, into batch: RecordBatch
    ) -> Int {
        // One branch per batch picks the row loop built for the separators:
        // the relational one has its separators as constants.
        if separators.isRelational {
            return parseRows(RelationalRows(), chunk, from: from, isFinal: isFinal, recordsBefore: recordsBefore, into: batch)
        }
        return parseRows(SeparatedRows(separators), chunk, from: from, isFinal: isFinal, recordsBefore: recordsBefore, into: batch)
    }

    /// `parse` over the rows of one layout.
    @inline(__always)
    func parseRows<Layout: RowLayout>(
        _ layout: Layout, _ chunk: UnsafeRawBufferPointer, from: Int, isFinal: Bool, recordsBefore: Int, into batch: RecordBatch
    ) -> Int {
        batch.reset()
        batch.firstRecordInChunk = recordsBefore
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return from }
        let end = chunk.count
        var position = from
        while position < end, batch.count < batch.capacity {
            guard let terminator = layout.findRecordEnd(base, from: position, end: end) else {
                if isFinal {
                    batch.fault = unterminatedTail(base, from: position, end: end, record: recordsBefore + batch.records + 1)
                }
                return position
            }
            if base[position] == EPFByte.hash {
                if isFooter(base + position, terminator - position),
                    footerValue(base + position, terminator - position) == nil
                {
                    batch.fault = FormatError(
                        .footerMismatch, record: recordsBefore + batch.records + 1, byteOffset: Int64(position),
                        detail: "the #recordsWritten footer holds no record count",
                        hint: "The file is damaged; download it again")
                    return position
                }
                if let written = footerValue(base + position, terminator - position) {
                    batch.footer = written
                    batch.footerOffset = position
                    let next = terminator + layout.recordLength
                    if next < end {
                        batch.fault = FormatError(
                            .dataAfterFooter, record: recordsBefore + batch.records + 1, byteOffset: Int64(next),
                            detail: "\(end - next) bytes follow the #recordsWritten footer",
                            hint: "The file holds more than one table or was joined by hand; check the file")
                    }
                    return next
                }
                if terminator - position >= 2, base[position + 1] == EPFByte.hash {
                    batch.skippedCommentRows += 1
                    position = terminator + layout.recordLength
                    continue
                }
            }
            if let storefronts, !storefronts.keeps(base, start: position, end: terminator) {
                batch.dropped += 1
                position = terminator + layout.recordLength
                continue
            }
            if let fault = split(layout, base, start: position, end: terminator, into: batch) {
                batch.fault = fault.shifted(records: recordsBefore + batch.records, bytes: 0)
                return position
            }
            position = terminator + layout.recordLength
        }
        return position
    }

    /// Splits one row into the next slot of `batch`; returns a fault (record
    /// number 1, to be shifted) when the row cannot be aligned.
    @inline(__always)
    func split<Layout: RowLayout>(
        _ layout: Layout, _ base: UnsafePointer<UInt8>, start: Int, end: Int, into batch: RecordBatch
    ) -> FormatError? {
        var count = 0
        var fieldStart = start
        while true {
            if count == rawCapacity { growScratch() }
            rawStarts[count] = fieldStart
            count += 1
            guard let hit = memchr(base + fieldStart, Int32(layout.field), end - fieldStart) else { break }
            fieldStart = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        let slot = batch.count
        let spans = batch.spans + slot * columnCount
        var flags: RecordFlags = []
        if count == columnCount {
            for column in 0..<(columnCount - 1) {
                spans[column] = FieldSpan(start: rawStarts[column], end: rawStarts[column + 1] - 1)
            }
            spans[columnCount - 1] = FieldSpan(start: rawStarts[columnCount - 1], end: end)
        } else if count > columnCount {
            if separators.isRelational, findWindowsRowEnd(base, from: start, end: end) != nil {
                return Self.windowsLineEnds(record: 1, offset: start)
            }
            guard let chosen = rejoin(base, fieldCount: count, rowEnd: end, into: spans) else {
                return FormatError(
                    .tooManyFields, record: 1, byteOffset: Int64(start),
                    detail:
                        "the row has \(count) fields but the header has \(columnCount) columns, and no free-text (LONGTEXT/CLOB) column can take the extra \(separators.fieldByte) bytes",
                    hint: "The row is damaged; fix it by hand or ask Apple for a corrected file")
            }
            flags.insert(.rejoined)
            if chosen.ambiguous { flags.insert(.ambiguous) }
        } else {
            return FormatError(
                .shortRow, record: 1, byteOffset: Int64(start),
                detail: "short row: \(count) fields but the header has \(columnCount) columns",
                hint: "The row is damaged or cut; download the file again")
        }
        if checksText && TextRepair.needsRepair(base + start, end - start) { flags.insert(.needsTextRepair) }
        batch.offsets[slot] = start
        batch.flagStorage[slot] = flags
        batch.ordinals[slot] = slot + batch.dropped
        batch.count = slot + 1
        return nil
    }

    /// Aligns a row with `fieldCount > columnCount` fields: the extra fields
    /// join the free-text column for which the realigned row fits its
    /// declared types. Ambiguous when none or several candidates fit.
    func rejoin(
        _ base: UnsafePointer<UInt8>, fieldCount: Int, rowEnd: Int, into spans: UnsafeMutablePointer<FieldSpan>
    ) -> (column: Int, ambiguous: Bool)? {
        guard let first = freeTextColumns.first else { return nil }
        let extra = fieldCount - columnCount
        func rawEnd(_ field: Int) -> Int { field + 1 < fieldCount ? rawStarts[field + 1] - 1 : rowEnd }
        // A candidate fits when the whole realigned row fits its declared
        // types: the columns before it keep their fields, the ones after it
        // take the fields shifted by the extras.
        func fits(_ column: Int) -> Bool {
            for earlier in 0..<column
            where !ValueDecoding.fits(base + rawStarts[earlier], rawEnd(earlier) - rawStarts[earlier], kind: kinds[earlier]) {
                return false
            }
            for later in (column + 1)..<columnCount {
                let field = later + extra
                if !ValueDecoding.fits(base + rawStarts[field], rawEnd(field) - rawStarts[field], kind: kinds[later]) {
                    return false
                }
            }
            return true
        }
        let fitting = freeTextColumns.filter(fits)
        let column = fitting.first ?? first
        for index in 0..<column {
            spans[index] = FieldSpan(start: rawStarts[index], end: rawEnd(index))
        }
        spans[column] = FieldSpan(start: rawStarts[column], end: rawEnd(column + extra))
        for index in (column + 1)..<columnCount {
            spans[index] = FieldSpan(start: rawStarts[index + extra], end: rawEnd(index + extra))
        }
        return (column, fitting.count != 1)
    }

    /// The fault for bytes after the last row end of a file: a cut footer,
    /// Windows row ends, or a cut row.
    func unterminatedTail(_ base: UnsafePointer<UInt8>, from position: Int, end: Int, record: Int) -> FormatError {
        let tag = Self.footerTag
        let length = min(end - position, tag.count)
        let isFooter = length > 1 && (0..<length).allSatisfy { base[position + $0] == tag[$0] }
        if separators.isRelational, findWindowsRowEnd(base, from: position, end: end) != nil {
            return Self.windowsLineEnds(record: isFooter ? nil : record, offset: position)
        }
        if isFooter {
            return FormatError(
                .truncated, byteOffset: Int64(position),
                detail:
                    "the file ends inside its #recordsWritten footer row (\(end - position) bytes, no \(separators.recordBytes) row end)",
                hint: "The download was cut short; download the file again")
        }
        return FormatError(
            .truncated, record: record, byteOffset: Int64(position),
            detail: "the file ends inside a row (\(end - position) bytes after the last \(separators.recordBytes), no row end)",
            hint: "The download was cut short; download the file again")
    }

    static func windowsLineEnds(record: Int?, offset: Int) -> FormatError {
        FormatError(
            .windowsLineEnds, record: record, byteOffset: Int64(offset),
            detail: "the row ends in 0x02 0x0D 0x0A (a Windows line end), not 0x02 0x0A: a tool converted the file's line ends",
            hint: "Download the file again and copy it as binary (EPF rows end in 0x02 0x0A only)")
    }

    func growScratch() {
        let bigger = UnsafeMutablePointer<Int>.allocate(capacity: rawCapacity * 2)
        bigger.update(from: rawStarts, count: rawCapacity)
        rawStarts.deallocate()
        rawStarts = bigger
        rawCapacity *= 2
    }

    static let footerTag = Array("#recordsWritten:".utf8)

    /// Whether the row starts with `#recordsWritten:`.
    func isFooter(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let tag = Self.footerTag
        guard count >= tag.count else { return false }
        for index in 0..<tag.count where p[index] != tag[index] { return false }
        return true
    }

    /// `#recordsWritten:N` → N; nil for any other row or a bad count.
    func footerValue(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard isFooter(p, count) else { return nil }
        let start = Self.footerTag.count
        guard let value = ValueDecoding.integer(p + start, count - start), value >= 0 else { return nil }
        return Int(value)
    }
}
