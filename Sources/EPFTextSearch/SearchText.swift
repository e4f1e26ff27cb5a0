/// The text the full-text index holds for a name: the name with a space on
/// either side of every CJK character.
///
/// Why: SQLite's `unicode61` tokenizer splits words at spaces and
/// punctuation, and Chinese and Japanese titles have none, so `国际象棋游戏`
/// would be one token and a search for `象棋` would miss it. The `trigram`
/// tokenizer finds substrings but cannot remove diacritics and cannot match
/// fewer than three characters (`象棋` is two). Spacing the CJK characters
/// apart makes each one a token for `unicode61 remove_diacritics 2`, so a
/// search for `象棋` is the phrase `"象 棋"` (the two tokens next to each
/// other: a substring match), while Latin words keep whole-word tokens with
/// case and diacritics folded (`cafe` finds `Café`). Doing this in the text
/// rather than in a custom tokenizer keeps the index readable by any SQLite:
/// a reader (the `sqlite3` shell too) needs no code of ours, only a query
/// spaced the same way (`SearchQuery`).
///
/// The same bytes must come out for the same input forever, or the
/// contentless index cannot delete what it indexed: change the rule only
/// with `SearchIndex.version`.
package enum SearchText {
    /// Whether `scalar` is indexed as a token of its own: Han ideographs
    /// (all extensions, compatibility forms, planes 2 and 3), Hiragana,
    /// Katakana (with the half-width forms and Kana supplements), Bopomofo and
    /// Hangul (syllables and jamo). These scripts write words without
    /// spaces. (Thai, Lao, Khmer and Myanmar also do, but a character is not a
    /// useful unit there; they stay as `unicode61` cuts them.)
    @inlinable
    package static func isSeparateToken(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x1100...0x11FF: true  // Hangul Jamo
        case 0x3005...0x3007: true  // 々 〆 〇
        case 0x3040...0x30FF: true  // Hiragana, Katakana
        case 0x3100...0x312F: true  // Bopomofo
        case 0x3130...0x318F: true  // Hangul Compatibility Jamo
        case 0x31A0...0x31BF: true  // Bopomofo Extended
        case 0x31F0...0x31FF: true  // Katakana Phonetic Extensions
        case 0x3400...0x4DBF: true  // CJK Unified Ideographs Extension A
        case 0x4E00...0x9FFF: true  // CJK Unified Ideographs
        case 0xA960...0xA97F: true  // Hangul Jamo Extended-A
        case 0xAC00...0xD7FF: true  // Hangul Syllables, Hangul Jamo Extended-B
        case 0xF900...0xFAFF: true  // CJK Compatibility Ideographs
        case 0xFF66...0xFFDC: true  // Half-width Katakana and Hangul
        case 0x1B000...0x1B16F: true  // Kana Supplement, Kana Extended-A
        case 0x20000...0x3FFFF: true  // Planes 2 and 3: CJK Extensions B-H, compatibility supplement
        default: false
        }
    }

    /// The indexed form of `text`.
    package static func prepare(_ text: String) -> String {
        var text = text
        return text.withUTF8 { input in
            guard let base = input.baseAddress, needsSpacing(base, input.count) else { return String(decoding: input, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: maximumPreparedCount(input.count)) { output in
                prepare(base, input.count, into: output.baseAddress!)
            }
        }
    }

    /// The most bytes `prepare` writes for `count` input bytes: each spaced
    /// character (3 or 4 bytes) gains at most two spaces.
    @inlinable
    package static func maximumPreparedCount(_ count: Int) -> Int { count * 2 }

    /// Whether `prepare` would change the `count` UTF-8 bytes at `bytes`: a
    /// cheap scan for the lead bytes of U+1000...U+3FFFF (0xE1...0xF0),
    /// where every spaced script lies, so names in Latin script cost one
    /// pass and no copy.
    @inlinable
    package static func needsSpacing(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte >= 0xE1 && byte <= 0xF0 { return true }
            index += 1
        }
        return false
    }

    /// Writes the indexed form of the UTF-8 bytes at `bytes` to `output`,
    /// which must hold `maximumPreparedCount(count)` bytes, and returns the
    /// number of bytes written. Bytes that are not valid UTF-8 are copied as
    /// they are.
    package static func prepare(_ bytes: UnsafePointer<UInt8>, _ count: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var read = 0
        var written = 0
        while read < count {
            let lead = bytes[read]
            let length: Int
            var scalar: UInt32 = 0
            switch lead {
            case 0xE0...0xEF where read + 2 < count && isContinuation(bytes[read + 1]) && isContinuation(bytes[read + 2]):
                length = 3
                scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[read + 1] & 0x3F) << 6 | UInt32(bytes[read + 2] & 0x3F)
            case 0xF0...0xF4
            where read + 3 < count && isContinuation(bytes[read + 1]) && isContinuation(bytes[read + 2])
                && isContinuation(bytes[read + 3]):
                length = 4
                scalar =
                    UInt32(lead & 0x07) << 18 | UInt32(bytes[read + 1] & 0x3F) << 12
                    | UInt32(bytes[read + 2] & 0x3F) << 6 | UInt32(bytes[read + 3] & 0x3F)
            default:
                // ASCII, two-byte sequences and stray bytes: copied one by one.
                length = 1
            }
            let spaced = length > 1 && isSeparateToken(scalar)
            if spaced && written > 0 && output[written - 1] != 0x20 {
                output[written] = 0x20
                written += 1
            }
            for offset in 0..<length { output[written + offset] = bytes[read + offset] }
            written += length
            read += length
            if spaced {
                output[written] = 0x20
                written += 1
            }
        }
        return written
    }

    @inlinable
    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
