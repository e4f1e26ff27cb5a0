/// The order in which search results come: titles with fewer words first,
/// then shorter ones. The search index stores each entry under this key
/// (`SearchIndex`), so that the best matches of a query are the first ones
/// FTS5 meets in rowid order and a search stops after `limit` of them.
///
/// Why this order: for a title, where a word is rarely repeated, bm25 (the
/// FTS5 rank) scores every match of an AND query by the title's length in
/// tokens, fewer first; the byte length then puts `Chess Pro` before
/// `Chess Kingdom`. Like `SearchText`, the key must come out the same for
/// the same text forever, or an INCREMENTAL import cannot delete the entry
/// it made: change it only with `SearchIndex.version`.
package enum SearchOrder {
    /// The most words the key tells apart (more count as this many).
    package static let maximumWords = 2047
    /// The most bytes the key tells apart.
    package static let maximumBytes = 4095

    /// The key of the `count` UTF-8 bytes at `bytes`: the word count above
    /// 12 bits of byte length (23 bits in all). A word is a run of letters
    /// and digits, as `unicode61` cuts tokens: ASCII letters and digits, and
    /// every other character but the punctuation and symbols of
    /// `isSeparator` (fixed ranges, not the Unicode tables of the running
    /// Swift, which change between versions); every CJK character that
    /// `SearchText` spaces is a word of its own.
    package static func key(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int64 {
        var words = 0
        var inWord = false
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                let isWordByte = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                if isWordByte && !inWord { words += 1 }
                inWord = isWordByte
                index += 1
                continue
            }
            var length = 1
            var scalar: UInt32 = 0
            if byte >= 0xC2 && byte <= 0xDF && index + 1 < count {
                length = 2
                scalar = UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            } else if byte >= 0xE0 && byte <= 0xEF && index + 2 < count {
                length = 3
                scalar = UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            } else if byte >= 0xF0 && byte <= 0xF4 && index + 3 < count {
                length = 4
                scalar =
                    UInt32(byte & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                    | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
            }
            if length > 1 && SearchText.isSeparateToken(scalar) {
                words += 1
                inWord = false
            } else if length > 1 && isSeparator(scalar) {
                inWord = false
            } else {
                if !inWord { words += 1 }
                inWord = true
            }
            index += length
        }
        return Int64(min(words, maximumWords)) << 12 | Int64(min(count, maximumBytes))
    }

    /// Whether `scalar` (not ASCII) is punctuation or a symbol that
    /// separates words: Latin-1 punctuation and signs, general punctuation
    /// (dashes, quotes, bullets, zero-width joiners), arrows, mathematical
    /// and technical symbols, box drawing, dingbats, CJK punctuation,
    /// variation selectors, full-width punctuation, and the emoji and
    /// symbol blocks of plane 1.
    static func isSeparator(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x80...0xBF, 0xD7, 0xF7: true
        case 0x2000...0x206F: true  // General Punctuation
        case 0x20A0...0x20CF: true  // Currency Symbols
        case 0x2100...0x214F: true  // Letterlike Symbols
        case 0x2190...0x2BFF: true  // Arrows ... Miscellaneous Symbols and Arrows
        case 0x3000...0x3004, 0x3008...0x303F: true  // CJK Symbols and Punctuation (not 々 〆 〇)
        case 0xFE00...0xFE0F: true  // Variation Selectors
        case 0xFE30...0xFE4F: true  // CJK Compatibility Forms
        case 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65: true  // Full-width punctuation
        case 0x1F000...0x1FAFF: true  // Mahjong ... Symbols and Pictographs Extended-A
        default: false
        }
    }

    /// The key of `text`.
    package static func key(_ text: String) -> Int64 {
        var text = text
        return text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return key(base, buffer.count)
        }
    }
}
