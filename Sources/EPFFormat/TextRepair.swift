/// UTF-8 checks and repairs for text fields.
///
/// Text is stored only as valid UTF-8: each invalid sequence becomes U+FFFD
/// (one per maximal invalid subpart, as Unicode recommends) and NUL bytes are
/// removed. Both are counted, never silent.
public enum TextRepair {
    /// True when `bytes` hold a NUL or anything that is not valid UTF-8: the
    /// record needs `repair` before its text can be stored.
    ///
    /// Runs 16 bytes at a time while the text is ASCII (most EPF text), and
    /// falls back to a full decoder from the first non-ASCII block on.
    @inlinable
    public static func needsRepair(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        let raw = UnsafeRawPointer(p)
        while index + 16 <= count {
            let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            // High bit set (non-ASCII) or zero byte: leave the fast path.
            let special = (block .>= 0x80) .| (block .== 0)
            if any(special) { break }
            index += 16
        }
        return !isCleanUTF8(p + index, count - index)
    }

    /// Valid UTF-8 with no NUL byte.
    @usableFromInline
    static func isCleanUTF8(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index < count {
            let byte = p[index]
            if byte == 0 { return false }
            if byte < 0x80 { index += 1; continue }
            let length = sequence(p + index, count - index)
            if length < 0 { return false }
            index += length
        }
        return true
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
    public struct Outcome: Sendable, Equatable {
        public var length: Int
        public var invalidSequences: Int
        public var nulBytes: Int
    }

    /// The largest output `repair` can write for `count` input bytes (each
    /// invalid byte may become the three bytes of U+FFFD).
    @inlinable
    public static func repairedCapacity(_ count: Int) -> Int { count * 3 }

    /// Copies `p[0..<count]` to `out`, replacing each maximal invalid subpart
    /// with U+FFFD (EF BF BD) and dropping NUL bytes. `out` must hold
    /// `repairedCapacity(count)` bytes.
    public static func repair(_ p: UnsafePointer<UInt8>, _ count: Int, into out: UnsafeMutablePointer<UInt8>) -> Outcome {
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
