/// Turns the fields of one record into typed values for a `FieldSink`: the
/// one place where field text becomes a value, for every store.
///
/// Per field, in column order:
/// - empty: NULL, or the empty text in a key column whose sink keeps it
///   (`FieldSink.keepsEmptyKey(of:)`);
/// - integer, boolean, decimal, date columns: decoded with `ValueDecoding`
///   (dates normalised into the decoder's scratch); a field that does not
///   decode, or whose value the sink refuses, is a misfit of its kind
///   (counted in the record's `RecordTally`) and goes to `unfit`;
/// - text: the bytes as they are, or, when the parser flagged the record
///   (`needsTextRepair`), repaired with `TextRepair` into the scratch
///   (U+FFFD for each invalid sequence, NUL bytes removed; both counted).
///
/// Under `strict`, a record that needed repair is refused after it is
/// decoded (`FormatError.strict`, with the file, record and offset): the
/// sink has received its values and must drop them.
///
/// The scratch is reserved before each record for the worst case of that
/// record (19 bytes per date column, then three times the record's bytes
/// for repaired text), so it never moves within a record: a sink may keep
/// the pointers it gets until the next record. Nothing is allocated per
/// record.
///
/// `decode` is `@inlinable` and generic over the sink, so each store gets a
/// loop specialized for its sink, with no dynamic dispatch per field.
///
/// Invariant: one loader thread uses a decoder (it is not `Sendable`).
/// `kinds` and `emptyIsText` hold `columnCount` entries for the decoder's
/// life; the scratch is reallocated only by `reserveScratch`, at the start
/// of `decode`, so what a sink was given stays valid until the next
/// `decode` call.
@usableFromInline package final class RecordDecoder {
    /// Columns per record.
    @usableFromInline package let columnCount: Int
    @usableFromInline let kinds: UnsafeMutablePointer<ColumnType.Kind>
    /// Per column: an empty field is the empty text, not NULL.
    @usableFromInline let emptyIsText: UnsafeMutablePointer<Bool>
    @usableFromInline let strict: Bool
    /// The file, as named in errors.
    @usableFromInline let file: String
    /// 19 bytes per date column, at the start of the scratch.
    @usableFromInline let dateBytes: Int
    /// Normalised dates, then repaired text, of the current record.
    /// Unchecked: read once per record from the inlined loop, where a dynamic
    /// exclusivity check cost about 75 instructions a record; only
    /// `reserveScratch` writes it, between records.
    @exclusivity(unchecked) @usableFromInline var scratch: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var scratchCapacity: Int

    /// A decoder for records of `header` going to sinks of type `sink`
    /// (whose rule for empty key fields it applies). Under `strict`, a
    /// record whose text needs repair is refused; `file` names the file in
    /// that error.
    package init<Sink: FieldSink>(header: EPFHeader, strict: Bool, file: String, sink: Sink.Type) {
        columnCount = header.columns.count
        self.strict = strict
        self.file = file
        kinds = .allocate(capacity: max(1, columnCount))
        emptyIsText = .allocate(capacity: max(1, columnCount))
        let keys = Set(header.keyColumnIndexes)
        var dates = 0
        for column in 0..<columnCount {
            let type = header.types[column]
            (kinds + column).initialize(to: type.kind)
            (emptyIsText + column).initialize(to: keys.contains(column) && Sink.keepsEmptyKey(of: type))
            if type.kind == .date { dates += 1 }
        }
        dateBytes = dates * 19
        scratchCapacity = max(4096, dateBytes)
        scratch = .allocate(capacity: scratchCapacity)
    }

    deinit {
        kinds.deallocate()
        emptyIsText.deallocate()
        scratch.deallocate()
    }

    /// Decodes record `record` of `batch` (spans into `base`) into `sink`
    /// and returns what it repaired and what did not fit. `number` (the
    /// record's 1-based number in its file) and `chunkOffset` (the file
    /// offset of `base`) only locate a `--strict` refusal.
    @inlinable @inline(__always)
    package func decode<Sink: FieldSink>(
        _ record: Int, of batch: RecordBatch, base: UnsafePointer<UInt8>, number: Int, chunkOffset: Int64,
        into sink: inout Sink
    ) throws(FormatError) -> RecordTally {
        let flags = batch.flags(record)
        var tally = RecordTally(flags: flags)
        let repairing = flags.contains(.needsTextRepair)
        let columnCount = self.columnCount
        if repairing {
            let first = batch.field(record, 0).start
            let last = batch.field(record, columnCount - 1).end
            reserveScratch(dateBytes + TextRepair.repairedCapacity(last - first))
        }
        let kinds = self.kinds
        let emptyIsText = self.emptyIsText
        let dates = scratch
        let repaired = scratch + dateBytes
        var usedDates = 0
        var written = 0
        for column in 0..<columnCount {
            let span = batch.field(record, column)
            let p = base + span.start
            let n = span.count
            if n == 0 {
                if emptyIsText[column] { sink.text(p, count: 0, column: column) } else { sink.null(column: column) }
                continue
            }
            let kind = kinds[column]
            switch kind {
            case .integer:
                if let value = ValueDecoding.integer(p, n), sink.integer(value, column: column) { continue }
            case .boolean:
                if let value = ValueDecoding.boolean(p, n), sink.boolean(value, column: column) { continue }
            case .decimal:
                if let value = ValueDecoding.decimal(p, n), sink.decimal(value, text: p, count: n, column: column) { continue }
            case .date:
                let out = dates + usedDates
                if let length = ValueDecoding.date(p, n, into: out), sink.date(out, count: length, column: column) {
                    usedDates += 19
                    continue
                }
            case .text, .freeText, .unknown:
                if repairing {
                    let out = repaired + written
                    let outcome = TextRepair.repair(p, n, into: out)
                    written += outcome.length
                    tally.invalidSequences += outcome.invalidSequences
                    tally.nulBytes += outcome.nulBytes
                    sink.text(out, count: outcome.length, column: column)
                } else {
                    sink.text(p, count: n, column: column)
                }
                continue
            }
            // Did not decode, or the sink refused it.
            tally.countMisfit(kind)
            if Sink.storesUnfitAsText && repairing {
                let out = repaired + written
                let outcome = TextRepair.repair(p, n, into: out)
                written += outcome.length
                tally.invalidSequences += outcome.invalidSequences
                tally.nulBytes += outcome.nulBytes
                sink.unfit(out, count: outcome.length, column: column, kind: kind)
            } else {
                sink.unfit(p, count: n, column: column, kind: kind)
            }
        }
        if strict, tally.invalidSequences > 0 || tally.nulBytes > 0 {
            throw FormatError.strict(
                invalidSequences: tally.invalidSequences, nulBytes: tally.nulBytes, file: file, record: number,
                offset: chunkOffset + Int64(batch.offset(record)))
        }
        return tally
    }

    /// Grows the scratch to `needed` bytes; between records only.
    @usableFromInline
    func reserveScratch(_ needed: Int) {
        guard needed > scratchCapacity else { return }
        scratch.deallocate()
        scratchCapacity = max(needed, scratchCapacity * 2)
        scratch = .allocate(capacity: scratchCapacity)
    }
}
