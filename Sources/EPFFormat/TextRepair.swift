/// UTF-8 checks and repairs for text fields.
///
/// Text is stored only as valid UTF-8: each invalid sequence becomes U+FFFD
/// (one per maximal invalid subpart, as Unicode recommends) and NUL bytes are
/// removed. Both are counted, never silent.
public enum TextRepair {
    /// True when the bytes hold a NUL or anything that is not valid UTF-8:
    /// the record needs `repair` before its text can be stored.
    ///
    /// From 16 bytes on (a record, a description), 16-byte vectors check
    /// 64 bytes at a time (`UTF8Blocks`: 2.3x the scalar check on generated
    /// applications, one byte in ten of them not ASCII).
    @inlinable
    public static func needsRepair(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        count < 16 ? needsRepairScalar(p, count) : UTF8Blocks.needsRepair(p, count)
    }

    /// `needsRepair` a byte at a time, for short text: clean ASCII is
    /// skipped 8 bytes at a time with word arithmetic; a non-ASCII sequence
    /// is decoded, then the fast skip resumes.
    @inlinable
    static func needsRepairScalar(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        var index = 0
        while true {
            // Skip clean ASCII a word at a time, landing on the first byte
            // that is NUL or non-ASCII.
            while index + 8 <= count {
                let clean = asciiWithoutNUL(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if clean != highBits {
                    index += (~clean & highBits).trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            if index + 8 > count {
                while index < count, p[index] &- 1 < 0x7F { index += 1 }
            }
            guard index < count else { return false }
            let length = validSequenceLength(p + index, count - index)
            if length == 0 { return true }
            index += length
        }
    }

    /// Length of the valid UTF-8 sequence at `p` (a byte >= 0x80 or NUL),
    /// or 0 when it is invalid or NUL. The common two- and three-byte forms
    /// (accents, CJK) are checked inline.
    @inlinable @inline(__always)
    static func validSequenceLength(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let lead = p[0]
        if lead >= 0xC2 && lead <= 0xDF {
            return available >= 2 && p[1] & 0xC0 == 0x80 ? 2 : 0
        }
        if lead & 0xF0 == 0xE0, available >= 3 {
            let second = p[1]
            let low: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = lead == 0xED ? 0x9F : 0xBF
            return second >= low && second <= high && p[2] & 0xC0 == 0x80 ? 3 : 0
        }
        if lead == 0 { return 0 }
        let length = sequence(p, available)
        return length > 0 ? length : 0
    }

    @usableFromInline static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Sets the high bit of each byte of the result exactly where the byte
    /// of `word` is ASCII and not NUL (1...0x7F): adding 0x7F to the low
    /// seven bits carries into the high bit unless they are all zero, and
    /// `~word` clears the bytes that had the high bit set.
    @inlinable
    static func asciiWithoutNUL(_ word: UInt64) -> UInt64 {
        ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) & ~word & highBits
    }

    /// Classifies the multi-byte sequence that starts at `p` (a byte >= 0x80):
    /// a positive result is the length of a valid sequence; a negative one is
    /// minus the length of its maximal invalid subpart (the lead plus the
    /// continuation bytes that were still acceptable), which becomes one U+FFFD.
    @usableFromInline
    static func sequence(_ p: UnsafePointer<UInt8>, _ available: Int) -> Int {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch p[0] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return -1
        }
        var consumed = 1
        while consumed < length, consumed < available {
            let next = p[consumed]
            let ok = consumed == 1 ? (next >= low && next <= high) : (next & 0xC0 == 0x80)
            if !ok { break }
            consumed += 1
        }
        return consumed == length ? length : -consumed
    }

    /// What one repair did.
    @usableFromInline package struct Outcome: Sendable, Equatable {
        @usableFromInline package var length: Int
        @usableFromInline package var invalidSequences: Int
        @usableFromInline package var nulBytes: Int
    }

    /// The largest output `repair` can write for `count` input bytes (each
    /// invalid byte may become the three bytes of U+FFFD).
    @inlinable
    package static func repairedCapacity(_ count: Int) -> Int { count * 3 }

    /// Copies `p[0..<count]` to `out`, replacing each maximal invalid subpart
    /// with U+FFFD (EF BF BD) and dropping NUL bytes. `out` must hold
    /// `repairedCapacity(count)` bytes.
    @usableFromInline package static func repair(_ p: UnsafePointer<UInt8>, _ count: Int, into out: UnsafeMutablePointer<UInt8>) -> Outcome
    {
        var outcome = Outcome(length: 0, invalidSequences: 0, nulBytes: 0)
        var index = 0
        var written = 0
        while index < count {
            let byte = p[index]
            if byte == 0 {
                outcome.nulBytes += 1
                index += 1
                continue
            }
            if byte < 0x80 {
                out[written] = byte
                written += 1
                index += 1
                continue
            }
            let length = sequence(p + index, count - index)
            if length > 0 {
                for i in 0..<length { out[written + i] = p[index + i] }
                written += length
                index += length
                continue
            }
            index += -length
            out[written] = 0xEF
            out[written + 1] = 0xBF
            out[written + 2] = 0xBD
            written += 3
            outcome.invalidSequences += 1
        }
        outcome.length = written
        return outcome
    }
}
