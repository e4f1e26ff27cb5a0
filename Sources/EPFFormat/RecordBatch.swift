/// Per-record facts the parser found while splitting.
public struct RecordFlags: OptionSet, Sendable, Hashable {
    /// The flags as bits.
    public let rawValue: UInt8
    /// The flags whose bits are set in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The row had more fields than columns; the extras were rejoined, with
    /// their 0x01 bytes, into a free-text column.
    public static let rejoined = RecordFlags(rawValue: 1 << 0)
    /// The row had several free-text columns that could take the extras; the
    /// first candidate was chosen.
    public static let ambiguous = RecordFlags(rawValue: 1 << 1)
    /// The row holds invalid UTF-8 or NUL bytes: text must be repaired
    /// before it is stored.
    public static let needsTextRepair = RecordFlags(rawValue: 1 << 2)
}

/// One field: `start..<end` in the chunk the batch was parsed from.
public struct FieldSpan: Sendable, Hashable {
    /// Offset of the field's first byte in the chunk.
    public var start: Int
    /// Offset just past the field's last byte.
    public var end: Int
    /// The field's length in bytes.
    @inlinable public var count: Int { end - start }
    @inlinable package init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// The records of one chunk, split into fields that are aligned to the
/// header's columns, as offsets into the chunk's bytes (nothing is copied).
///
/// Storage is allocated once for `capacity` records and reused for every
/// chunk, so parsing allocates nothing per record.
///
/// Invariant: a batch is used by one thread at a time; it is handed between
/// the parsing worker and the loader, never shared. That is why it may be
/// `@unchecked Sendable`.
public final class RecordBatch: @unchecked Sendable {
    /// Columns per record.
    public let columnCount: Int
    /// Records the batch can hold.
    public let capacity: Int
    /// Records now in the batch.
    public internal(set) var count = 0
    /// Data records parsed before this batch in the same chunk pass; with the
    /// chunk's own base, this makes record numbers absolute.
    package internal(set) var firstRecordInChunk = 0
    /// The `#recordsWritten:` value, when the footer was in this batch.
    public internal(set) var footer: Int?
    /// Chunk offset of the footer row.
    package internal(set) var footerOffset = 0
    /// The first damaged record, which ends the batch. Record numbers are
    /// relative to the chunk, offsets relative to its first byte.
    public internal(set) var fault: FormatError?
    /// `##` rows met among the data rows (skipped like header legal rows).
    package internal(set) var skippedCommentRows = 0
    /// Records the storefront filter left out of this batch
    /// (`StorefrontFilter`); they are not among `count`.
    public internal(set) var dropped = 0
    /// Records left out after parsing because the catalog holds them
    /// already (`keepRecords(where:)`: the importer's digests of the
    /// previous day's rows); they are not among `count`.
    public internal(set) var known = 0
    /// Data records parsed into this batch: kept (`count`) or left out.
    public var records: Int { count + dropped + known }

    @usableFromInline let spans: UnsafeMutablePointer<FieldSpan>
    @usableFromInline let offsets: UnsafeMutablePointer<Int>
    @usableFromInline let flagStorage: UnsafeMutablePointer<RecordFlags>
    /// Per kept record, its place in the batch before records were left
    /// out; read only when some were (`dropped`, `known`).
    @usableFromInline let ordinals: UnsafeMutablePointer<Int>

    /// An empty batch for records of `columnCount` fields, with room for
    /// `capacity` of them.
    public init(columnCount: Int, capacity: Int = 4096) {
        precondition(columnCount > 0 && capacity > 0)
        self.columnCount = columnCount
        self.capacity = capacity
        spans = .allocate(capacity: columnCount * capacity)
        offsets = .allocate(capacity: capacity)
        flagStorage = .allocate(capacity: capacity)
        ordinals = .allocate(capacity: capacity)
    }

    deinit {
        spans.deallocate()
        offsets.deallocate()
        flagStorage.deallocate()
        ordinals.deallocate()
    }

    /// Empties the batch for the next run of records.
    package func reset() {
        count = 0
        footer = nil
        footerOffset = 0
        fault = nil
        skippedCommentRows = 0
        dropped = 0
        known = 0
    }

    /// Keeps only the records for which `keep` (given a record's place in
    /// the batch now) is true, in their order, and counts the others in
    /// `known`. Record numbers stay right (`ordinal`).
    package func keepRecords(where keep: (Int) -> Bool) {
        var kept = 0
        for record in 0..<count {
            guard keep(record) else { continue }
            if kept != record {
                (spans + kept * columnCount).update(from: spans + record * columnCount, count: columnCount)
                offsets[kept] = offsets[record]
                flagStorage[kept] = flagStorage[record]
                ordinals[kept] = ordinals[record]
            }
            kept += 1
        }
        known += count - kept
        count = kept
    }

    /// The field of `record` for `column`.
    @inlinable
    public func field(_ record: Int, _ column: Int) -> FieldSpan {
        spans[record &* columnCount &+ column]
    }

    /// Chunk offset of the first byte of `record`.
    @inlinable
    public func offset(_ record: Int) -> Int { offsets[record] }

    /// The place `record` had in the batch as parsed, before the storefront
    /// filter or the digests left records out: `firstRecord + ordinal(record)` is its
    /// number in the file.
    @inlinable
    public func ordinal(_ record: Int) -> Int { dropped == 0 && known == 0 ? record : ordinals[record] }

    /// What the parser found about `record`.
    @inlinable
    public func flags(_ record: Int) -> RecordFlags { flagStorage[record] }
}
