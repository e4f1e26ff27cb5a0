/// How many terminal columns text takes, for `--format table`: a CJK
/// character or an emoji takes two, a combining mark none (it belongs to
/// the character before it), everything else one. (`String.count` counts
/// characters, so a column of Japanese titles pushed the next one right.)
package enum DisplayWidth {
    /// The columns `text` takes.
    package static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character takes: two when any of its scalars is
    /// wide (East Asian Wide or Fullwidth, or an emoji shown as one).
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { isWide($0) || $0.properties.isEmojiPresentation }) { return 2 }
        // A text-style symbol turned into an emoji by VS16 (U+FE0F).
        if scalars.contains(where: { $0.value == 0xFE0F }), scalars.first?.properties.isEmoji == true { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt,
    /// the blocks that hold them).
    package static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to `columns` display columns, the last one `…` when cut;
    /// nil columns: as it is. One column is left free: a terminal that
    /// wraps at the last column would start a new line.
    package static func fitted(_ text: String, columns: Int?) -> String {
        guard let columns, columns > 1, of(text) > columns - 1 else { return text }
        var out = ""
        var width = 0
        for character in text {
            let next = of(character)
            if width + next > columns - 2 { break }
            out.append(character)
            width += next
        }
        return out + "…"
    }
}
