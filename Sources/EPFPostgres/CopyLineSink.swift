import EPFFormat

/// Writes the decoded fields of one record as a line of PostgreSQL's COPY
/// text format at `out`: each value followed by a tab, then the record's
/// number and a newline (`endLine`). Made for each record; it holds only
/// pointers (to memory `CopyEncoder` owns), so the line's length stays in a
/// register through the decoder's loop.
///
/// Values are written in the form PostgreSQL reads: `-12`, `t`/`f`, a
/// decimal exactly as the file wrote it (`2.990`: the NUMERIC stays exact,
/// not the nearest double), `2012-03-06` / `2012-03-06 10:00:00`; text with
/// backslash, newline, carriage return and tab escaped (`\\`, `\n`, `\r`,
/// `\t`); NULL as `\N`. An empty field of a text key column stays the empty
/// string (as in SQLite); in a typed key column it is NULL.
///
/// A date PostgreSQL cannot hold is refused: a leap second (second 60 would
/// roll over to the next minute) and, in a DATE column, a time of day other
/// than midnight. A value that does not fit is written as `\N` and its
/// column listed in `unfit` (the loader keeps its raw text).
struct CopyLineSink: FieldSink {
    /// Where the line is written; room for `CopyEncoder.worstCase`.
    let out: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    var length = 0
    /// Per column: a DATE (days only), not a TIMESTAMP.
    let dateOnly: UnsafePointer<Bool>
    /// Columns whose value did not fit (written NULL): room for one per
    /// column, `unfitCount` used.
    let unfit: UnsafeMutablePointer<Int>
    var unfitCount = 0

    @inline(__always)
    init(out: UnsafeMutablePointer<UInt8>, dateOnly: UnsafePointer<Bool>, unfit: UnsafeMutablePointer<Int>) {
        self.out = out
        self.dateOnly = dateOnly
        self.unfit = unfit
    }

    static func keepsEmptyKey(of type: ColumnType) -> Bool { PostgresSchema.isText(type) }
    /// A typed column holds NULL instead; the loader keeps the raw text.
    static var storesUnfitAsText: Bool { false }

    /// Ends the line with the record's number (the staging table's
    /// `epf_record` column) and a newline.
    @inline(__always)
    mutating func endLine(recordNumber: Int) {
        length += Self.writeInteger(Int64(recordNumber), to: out + length)
        out[length] = 0x0A
        length += 1
    }

    @inline(__always)
    mutating func separator() {
        out[length] = 0x09
        length += 1
    }

    @inline(__always)
    mutating func null(column: Int) {
        out[length] = 0x5C
        out[length + 1] = UInt8(ascii: "N")
        out[length + 2] = 0x09
        length += 3
    }

    @inline(__always)
    mutating func integer(_ value: Int64, column: Int) -> Bool {
        length += Self.writeInteger(value, to: out + length)
        separator()
        return true
    }

    @inline(__always)
    mutating func boolean(_ value: Bool, column: Int) -> Bool {
        out[length] = value ? UInt8(ascii: "t") : UInt8(ascii: "f")
        out[length + 1] = 0x09
        length += 2
        return true
    }

    @inline(__always)
    mutating func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        (out + length).update(from: text, count: count)
        length += count
        separator()
        return true
    }

    @inline(__always)
    mutating func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        var count = count
        if dateOnly[column] {
            guard count == 10 || Self.isMidnight(iso + 11) else { return false }
            count = 10
        } else {
            guard count == 10 || !(iso[17] == UInt8(ascii: "6") && iso[18] == UInt8(ascii: "0")) else { return false }
        }
        (out + length).update(from: iso, count: count)
        length += count
        separator()
        return true
    }

    @inline(__always)
    mutating func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) {
        length += Self.writeEscaped(bytes, count, to: out + length)
        separator()
    }

    @inline(__always)
    mutating func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
        unfit[unfitCount] = column
        unfitCount += 1
        null(column: column)
    }

    /// `00:00:00` at `p`.
    @inline(__always)
    static func isMidnight(_ p: UnsafePointer<UInt8>) -> Bool {
        p[0] == 0x30 && p[1] == 0x30 && p[3] == 0x30 && p[4] == 0x30 && p[6] == 0x30 && p[7] == 0x30
    }

    /// Writes `value` in decimal at `out`; returns the length (at most 20).
    /// The length is known first (from the bit length, then one compare),
    /// so the digits go straight to their places, two per division by 100:
    /// a 13-digit `export_date` takes 7 steps, not 13 divisions by 10.
    @inline(__always)
    static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var o = 0
        if value < 0 {
            out[0] = UInt8(ascii: "-")
            o = 1
        }
        var magnitude = value.magnitude
        let end = o + decimalLength(magnitude)
        var position = end
        while magnitude >= 100 {
            let pair = magnitude % 100
            magnitude /= 100
            position -= 2
            writePair(pair, to: out + position)
        }
        if magnitude >= 10 {
            writePair(magnitude, to: out + position - 2)
        } else {
            out[position - 1] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
        }
        return end
    }

    /// The two digits of `pair` (below 100) at `out`.
    @inline(__always)
    static func writePair(_ pair: UInt64, to out: UnsafeMutablePointer<UInt8>) {
        let tens = pair / 10
        out[0] = UInt8(truncatingIfNeeded: tens) &+ 0x30
        out[1] = UInt8(truncatingIfNeeded: pair &- tens &* 10) &+ 0x30
    }

    /// Decimal digits of `value` (1 for 0): `bits * 1233 >> 12` is
    /// floor(bits * log10(2)) for the value's bit length, which is the
    /// length or the length less one; one compare with a power of ten
    /// tells which.
    @inline(__always)
    static func decimalLength(_ value: UInt64) -> Int {
        guard value != 0 else { return 1 }
        let guess = ((64 - value.leadingZeroBitCount) &* 1233) >> 12
        return value < powerOfTen(guess) ? guess : guess + 1
    }

    /// 10^n for n in 0...19 (a switch of constants: a table lookup).
    @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        case 17: return 100_000_000_000_000_000
        case 18: return 1_000_000_000_000_000_000
        case 19: return 10_000_000_000_000_000_000
        default: return .max
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
}
