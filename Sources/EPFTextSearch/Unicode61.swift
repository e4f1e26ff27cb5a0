/// SQLite's FTS5 tokenizer `unicode61 remove_diacritics 2`, the one the
/// SQLite catalog's search index declares (`SearchIndex`), written in Swift
/// over tables read off SQLite itself (`Unicode61Tables.swift`, made by
/// `scripts/search-token-tables.c`), so that a backend without SQLite (the
/// PostgreSQL store) cuts and folds words exactly as the SQLite index does.
///
/// The rules, as unicode61 applies them: a token is a run of token
/// characters (letters, digits, private use, and the combining diacritics
/// that unicode61 folds away); every other character separates tokens.
/// Each token character is folded (ASCII and Unicode case, diacritics
/// removed) and the folded characters make the token; a token that folds
/// to nothing is not one. The test "unicode61 in Swift is SQLite's, for
/// every scalar" (EPFCatalogTests) holds the tables to the SQLite the tests
/// link.
enum Unicode61 {
    /// The tokens of the UTF-8 text `text`, each at most `maximumBytes`
    /// long (a longer one is cut before a character that would pass it).
    static func tokens(_ text: UnsafeBufferPointer<UInt8>, maximumBytes: Int) -> [String] {
        var tokens: [String] = []
        // The folded tokens, one after the other: a character folds to at
        // most twice its bytes (two to three, for a few), ASCII to one.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * text.count + 1) { folded in
            asciiFolds.withUnsafeBufferPointer { ascii in
                runStarts.withUnsafeBufferPointer { runs in
                    foldKeys.withUnsafeBufferPointer { keys in
                        foldValues.withUnsafeBufferPointer { values in
                            var index = 0
                            var start = 0  // where the token being folded starts
                            var end = 0  // where its next byte goes
                            while index < text.count {
                                let byte = text[index]
                                if byte < 0x80 {
                                    index += 1
                                    let lower = ascii[Int(byte)]
                                    if lower != 0 {
                                        folded[end] = lower
                                        end += 1
                                        continue
                                    }
                                } else {
                                    let (scalar, length) = decode(text, at: index)
                                    index += length
                                    if isTokenCharacter(scalar, runs: runs) {
                                        end = append(fold(scalar, keys: keys, values: values), to: folded, at: end)
                                        continue
                                    }
                                }
                                // A separator ends the token, if it has any bytes.
                                if end > start {
                                    tokens.append(token(folded, from: start, to: end, maximumBytes: maximumBytes))
                                    start = end
                                }
                            }
                            if end > start { tokens.append(token(folded, from: start, to: end, maximumBytes: maximumBytes)) }
                        }
                    }
                }
            }
        }
        return tokens
    }

    /// The token `bytes[start..<end]`, cut to at most `maximumBytes` before
    /// a character, never inside one.
    @inline(__always)
    static func token(_ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int, maximumBytes: Int) -> String {
        var length = min(end - start, maximumBytes)
        while length < end - start && length > 0 && bytes[start + length] & 0xC0 == 0x80 { length -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), as: UTF8.self)
    }

    /// Whether `scalar` is part of a token.
    static func isTokenCharacter(_ scalar: UInt32) -> Bool {
        runStarts.withUnsafeBufferPointer { isTokenCharacter(scalar, runs: $0) }
    }

    /// Whether `scalar` is part of a token, by `runs` (`runStarts`).
    @inline(__always)
    static func isTokenCharacter(_ scalar: UInt32, runs: UnsafeBufferPointer<UInt32>) -> Bool {
        // The number of runs that start at or before `scalar`; the runs
        // start with separators, so an odd run holds token characters.
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle] <= scalar { low = middle + 1 } else { high = middle }
        }
        return low % 2 == 0
    }

    /// What the token character `scalar` folds to; 0 for nothing.
    static func fold(_ scalar: UInt32) -> UInt32 {
        foldKeys.withUnsafeBufferPointer { keys in
            foldValues.withUnsafeBufferPointer { fold(scalar, keys: keys, values: $0) }
        }
    }

    /// What the token character `scalar` folds to, by `keys` and `values`
    /// (`foldKeys`, `foldValues`); 0 for nothing.
    @inline(__always)
    static func fold(_ scalar: UInt32, keys: UnsafeBufferPointer<UInt32>, values: UnsafeBufferPointer<UInt32>) -> UInt32 {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < scalar { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == scalar ? values[low] : scalar
    }

    /// Each ASCII byte folded, 0 for a separator (U+0000 is one).
    static let asciiFolds: [UInt8] = (0..<128).map { byte in
        isTokenCharacter(UInt32(byte)) ? UInt8(fold(UInt32(byte))) : 0
    }

    /// The scalar whose UTF-8 (valid: a Swift string's) starts at `index`,
    /// and its length in bytes.
    @inline(__always)
    static func decode(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let first = UInt32(text[index])
        if first < 0xE0 {
            return ((first & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F), 2)
        }
        if first < 0xF0 {
            return ((first & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F), 3)
        }
        return (
            (first & 0x07) << 18 | UInt32(text[index + 1] & 0x3F) << 12 | UInt32(text[index + 2] & 0x3F) << 6
                | UInt32(text[index + 3] & 0x3F), 4
        )
    }

    /// Writes the UTF-8 of `scalar` (nothing for 0) into `bytes` at `end`;
    /// returns where the next byte goes.
    @inline(__always)
    static func append(_ scalar: UInt32, to bytes: UnsafeMutableBufferPointer<UInt8>, at end: Int) -> Int {
        switch scalar {
        case 0:
            return end
        case ..<0x80:
            bytes[end] = UInt8(scalar)
            return end + 1
        case ..<0x800:
            bytes[end] = UInt8(0xC0 | scalar >> 6)
            bytes[end + 1] = UInt8(0x80 | scalar & 0x3F)
            return end + 2
        case ..<0x10000:
            bytes[end] = UInt8(0xE0 | scalar >> 12)
            bytes[end + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes[end + 2] = UInt8(0x80 | scalar & 0x3F)
            return end + 3
        default:
            bytes[end] = UInt8(0xF0 | scalar >> 18)
            bytes[end + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            bytes[end + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes[end + 3] = UInt8(0x80 | scalar & 0x3F)
            return end + 4
        }
    }
}
