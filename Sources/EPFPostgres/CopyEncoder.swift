import EPFCatalog
import EPFFormat

/// Writes records as lines of PostgreSQL's COPY text format, straight from
/// the field spans of a `RecordBatch` into an output buffer; nothing is
/// allocated per record.
///
/// Per field: integers, booleans, decimals and dates are decoded exactly as
/// the SQLite store decodes them (`ValueDecoding`) and written in the form
/// PostgreSQL reads (`-12`, `t`, `2.990`, `2012-03-06 10:00:00`); text is
/// written with backslash, newline, carriage return and tab escaped (`\\`,
/// `\n`, `\r`, `\t`); an empty field is `\N` (NULL), except in a text key
/// column, where it stays the empty string as in SQLite. A value that does
/// not fit its column's type is written as `\N` and listed in
/// `unfitColumns` (the loader counts it and keeps its text). A record whose
/// text needs repair (invalid UTF-8, NUL bytes; flagged by the parser) has
/// its text repaired with `TextRepair` first: U+FFFD for each invalid
/// sequence, NUL bytes removed, both counted.
///
/// After the header's columns, each line carries the record's number in its
/// file (the staging table's `epf_record` column).
public final class CopyEncoder {
    /// How a column's values are written.
    enum Plan: UInt8 {
        case integer, boolean, decimal, timestamp, date, text
    }

    let columnCount: Int
    let plans: [Plan]
    /// Text key columns keep an empty field as the empty string.
    let emptyIsEmptyText: [Bool]
    /// Repaired text of the current record.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity: Int

    /// Columns of the last record encoded whose value did not fit their
    /// type (written as NULL).
    public private(set) var unfitColumns: [Int] = []
    /// What text repair did to the last record (zero when it needed none).
    public private(set) var repair = Repair()

    /// What text repair did to one record.
    public struct Repair: Sendable, Equatable {
        public var invalidSequences = 0
        public var nulBytes = 0

        public init(invalidSequences: Int = 0, nulBytes: Int = 0) {
            self.invalidSequences = invalidSequences
            self.nulBytes = nulBytes
        }
    }

    public init(header: EPFHeader) {
        columnCount = header.columns.count
        plans = header.types.map { type in
            switch type.kind {
            case .integer: return .integer
            case .boolean: return .boolean
            case .decimal: return .decimal
            case .date: return PostgresSchema.isDateOnly(type) ? .date : .timestamp
            case .text, .freeText, .unknown: return .text
            }
        }
        let keys = Set(header.keyColumnIndexes)
        emptyIsEmptyText = (0..<columnCount).map { keys.contains($0) && PostgresSchema.isText(header.types[$0]) }
        scratchCapacity = 1 << 16
        scratch = .allocate(capacity: scratchCapacity)
        unfitColumns.reserveCapacity(columnCount)
    }

    deinit { scratch.deallocate() }

    /// The most bytes `encode` can write for a record of `recordBytes` input
    /// bytes: each input byte becomes at most three (U+FFFD for an invalid
    /// byte, two for an escaped one), each field adds at most `\N` and a
    /// separator, and the record number and newline at most 21.
    public func worstCase(recordBytes: Int) -> Int {
        3 * recordBytes + 3 * columnCount + 32
    }

    /// Writes record `record` of `batch` (spans into `base`) as one line at
    /// `out`, which must hold `worstCase` bytes, and returns its length.
    /// `needsRepair` tells whether the record's text must be repaired.
    @inline(__always)
    public func encode(
        _ batch: RecordBatch, record: Int, base: UnsafePointer<UInt8>, recordNumber: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let repairing = batch.flags(record).contains(.needsTextRepair)
        if !unfitColumns.isEmpty { unfitColumns.removeAll(keepingCapacity: true) }
        repair = Repair()
        if repairing {
            let first = batch.field(record, 0).start
            let last = batch.field(record, columnCount - 1).end
            reserveScratch(TextRepair.repairedCapacity(last - first))
        }
        var o = 0
        for column in 0..<columnCount {
            if column > 0 {
                out[o] = 0x09
                o += 1
            }
            let span = batch.field(record, column)
            let p = base + span.start
            let n = span.count
            if n == 0 {
                if !emptyIsEmptyText[column] {
                    out[o] = 0x5C
                    out[o + 1] = UInt8(ascii: "N")
                    o += 2
                }
                continue
            }
            switch plans[column] {
            case .text:
                if repairing {
                    let outcome = TextRepair.repair(p, n, into: scratch)
                    repair.invalidSequences += outcome.invalidSequences
                    repair.nulBytes += outcome.nulBytes
                    o += Self.writeEscaped(scratch, outcome.length, to: out + o)
                } else {
                    o += Self.writeEscaped(p, n, to: out + o)
                }
                continue
            case .integer:
                if let value = ValueDecoding.integer(p, n) {
                    o += Self.writeInteger(value, to: out + o)
                    continue
                }
            case .boolean:
                if let value = ValueDecoding.boolean(p, n) {
                    out[o] = value ? UInt8(ascii: "t") : UInt8(ascii: "f")
                    o += 1
                    continue
                }
            case .decimal:
                // Validated as SQLite validates it; sent as written, so the
                // NUMERIC is exact (`2.990`, not the nearest double).
                if ValueDecoding.decimal(p, n) != nil {
                    (out + o).update(from: p, count: n)
                    o += n
                    continue
                }
            case .timestamp:
                // Second 60 (a leap second) would roll over to the next
                // minute in PostgreSQL: kept as unfit instead.
                if let length = ValueDecoding.date(p, n, into: out + o),
                    length == 10 || !(out[o + 17] == UInt8(ascii: "6") && out[o + 18] == UInt8(ascii: "0"))
                {
                    o += length
                    continue
                }
            case .date:
                // A DATE with a time of day other than midnight does not fit.
                if let length = ValueDecoding.date(p, n, into: out + o), length == 10 || Self.isMidnight(out + o + 11) {
                    o += 10
                    continue
                }
            }
            unfitColumns.append(column)
            out[o] = 0x5C
            out[o + 1] = UInt8(ascii: "N")
            o += 2
        }
        out[o] = 0x09
        o += 1
        o += Self.writeInteger(Int64(recordNumber), to: out + o)
        out[o] = 0x0A
        return o + 1
    }

    /// `00:00:00` at `p`.
    @inline(__always)
    static func isMidnight(_ p: UnsafePointer<UInt8>) -> Bool {
        p[0] == 0x30 && p[1] == 0x30 && p[3] == 0x30 && p[4] == 0x30 && p[6] == 0x30 && p[7] == 0x30
    }

    /// Writes `value` in decimal at `out`; returns the length (at most 20).
    @inline(__always)
    static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, reversed digits
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
                magnitude /= 10
                count += 1
            } while magnitude != 0
            var o = 0
            if value < 0 {
                out[0] = UInt8(ascii: "-")
                o = 1
            }
            while count > 0 {
                count -= 1
                out[o] = buffer[count]
                o += 1
            }
            return o
        }
    }

    /// Copies text escaping `\`, newline, carriage return and tab; returns
    /// the bytes written. Eight bytes at a time while none of them is below
    /// 0x0E or a backslash (the common case, with word arithmetic: see
    /// `mayNeedEscape`); byte by byte otherwise.
    @inline(__always)
    static func writeEscaped(_ p: UnsafePointer<UInt8>, _ n: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var i = 0
        var o = 0
        let raw = UnsafeRawPointer(p)
        let output = UnsafeMutableRawPointer(out)
        while i &+ 8 <= n {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if !mayNeedEscape(word) {
                output.storeBytes(of: word, toByteOffset: o, as: UInt64.self)
                i &+= 8
                o &+= 8
                continue
            }
            let end = i &+ 8
            while i < end {
                o &+= escapeByte(p[i], to: out + o)
                i &+= 1
            }
        }
        while i < n {
            o &+= escapeByte(p[i], to: out + o)
            i &+= 1
        }
        return o
    }

    @inline(__always)
    static func escapeByte(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let escaped: UInt8
        switch byte {
        case 0x5C: escaped = 0x5C
        case 0x0A: escaped = UInt8(ascii: "n")
        case 0x0D: escaped = UInt8(ascii: "r")
        case 0x09: escaped = UInt8(ascii: "t")
        default:
            out[0] = byte
            return 1
        }
        out[0] = 0x5C
        out[1] = escaped
        return 2
    }

    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// True when some byte of `word` is below 0x0E (tab, newline, carriage
    /// return are among them) or is a backslash. `(x - 0x0E..) & ~x & 0x80..`
    /// is non-zero exactly when some byte of x is below 0x0E; the same on
    /// `word ^ 0x5C..` below 0x01 finds a backslash. False positives (other
    /// control bytes) only send the word down the byte-by-byte path.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let low = (word &- 0x0E &* ones) & ~word
        let slash = word ^ (0x5C &* ones)
        let backslash = (slash &- ones) & ~slash
        return (low | backslash) & highBits != 0
    }

    private func reserveScratch(_ needed: Int) {
        guard needed > scratchCapacity else { return }
        scratch.deallocate()
        scratchCapacity = max(needed, scratchCapacity * 2)
        scratch = .allocate(capacity: scratchCapacity)
    }
}
