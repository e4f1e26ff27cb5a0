/// Turns what a user typed into an FTS5 `MATCH` expression for the
/// catalog's search tables (`epf_search_<table>`, see `SearchIndex`).
///
/// Each whitespace-separated word becomes one quoted FTS5 string, spaced
/// like the indexed text (`SearchText`), and the words are joined with
/// `AND`: `Café 象棋` becomes `"Café"* AND "象 棋"*`. Inside a string FTS5
/// reads no syntax, so quotes, `*`, `OR`, `NEAR(`, `:` or `^` typed by a user
/// are only words or separators; the only operators in the expression are
/// the ones written here. A CJK word becomes a phrase of its characters,
/// which the index holds as separate tokens next to each other: `象棋`
/// finds `国际象棋游戏`. Case and diacritics are folded by the tokenizer
/// on both sides (`cafe` finds `Café`, `CHESS` finds `chess`).
package enum SearchQuery {
    /// The `MATCH` expression for `text`, or nil when it holds no word to
    /// search for (empty, or only punctuation), in which case nothing
    /// matches.
    ///
    /// - Parameter prefix: whether the last token of each word matches as a
    ///   prefix (`che` finds `Chess`). Each word, not only the last, so that
    ///   `che puz` finds `Chess Puzzle`.
    package static func matchExpression(_ text: String, prefix: Bool = true) -> String? {
        var terms: [String] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            let prepared = SearchText.prepare(String(word))
            // A word the tokenizer would make no token of (`-`, `"`, `*`):
            // an empty phrase would make the whole AND match nothing.
            guard prepared.unicodeScalars.contains(where: isTokenCharacter) else { continue }
            var term = "\""
            for character in prepared.trimmingSpaces {
                if character == "\"" { term.append("\"") }
                term.append(character)
            }
            term.append("\"")
            if prefix { term.append("*") }
            terms.append(term)
        }
        return terms.isEmpty ? nil : terms.joined(separator: " AND ")
    }

    /// Whether `unicode61` keeps `scalar` in a token: its default token
    /// categories are letters, numbers and private use (`L* N* Co`).
    package static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The text without the spaces `SearchText` put at its ends.
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
