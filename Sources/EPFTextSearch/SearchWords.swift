/// The words of a search, each as the index's tokens, matched against the
/// tokens of one title in Swift: what the index answers for the search's
/// match (every word, as a phrase of its tokens, the last token of each a
/// prefix: `SearchQuery`, EPFPostgresReader's `PostgresSearchIndex.query`),
/// for titles the read engine has in hand (`SearchRanking`).
@usableFromInline
package struct SearchWords: Sendable, Equatable {
    /// Each word of the search as its tokens (`象棋` is `["象", "棋"]`).
    @usableFromInline
    package var words: [[String]]

    /// The words `words`, each as its tokens in order
    /// (`SearchTokenizer.queryWords`).
    package init(_ words: [[String]]) { self.words = words }

    /// Whether `tokens` (a title's, in order) hold every word: its tokens
    /// next to each other, the last one as a prefix of a token. Compared
    /// byte by byte, as the index compares them (Swift's `==` on strings
    /// would take `é` and `e` + U+0301 for the same).
    @usableFromInline
    package func match(_ tokens: [String]) -> Bool {
        words.allSatisfy { word in
            guard let last = word.last, tokens.count >= word.count else { return false }
            return (0...(tokens.count - word.count)).contains { start in
                zip(word.dropLast(), tokens[start...]).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
                    && tokens[start + word.count - 1].utf8.starts(with: last.utf8)
            }
        }
    }
}
