/// Popular first: how a search puts the applications of a storefront's
/// chart before the others.
///
/// Among the applications that match a search, those with a rank in the
/// storefront's overall chart (`application_popularity_per_genre`, genre
/// 36: the whole App Store) come first, by that rank, 1 first; the others
/// follow in the index's order (whole words first, then fewer words, then
/// shorter titles). The storefront is the one asked for, so the same term
/// in JP follows JP's chart.
///
/// The chart holds a few hundred applications a storefront, and the index
/// may hold tens of thousands of matches for a word: so the chart's
/// applications are read apart, by rank, with their titles
/// (`CatalogSearchQueries.rankedCandidates`), and each title is matched here
/// against the term's words (`SearchWords`), cut by the same tokenizer as
/// the index (`CatalogReadSource.searchTokens`). The pages of the index
/// leave the chart's applications out, and are paged after them.
@usableFromInline
package enum SearchRanking {
    /// The popularity feed's table of ranks.
    package static let chartTable = "application_popularity_per_genre"
    /// The chart of the whole App Store: genre 36.
    package static let overallGenre = 36

    /// The Apple IDs of results `offset ..< offset + limit` (`limit` > 0):
    /// `ranked` (the chart's matches, by rank) first, then the index's
    /// matches from `rest(limit, offset)`, which leaves `ranked` out.
    @inlinable
    package static func ids<Failure: Error>(
        ranked: [Int64], limit: Int, offset: Int, rest: (Int, Int) throws(Failure) -> [Int64]
    ) throws(Failure) -> [Int64] {
        guard offset < ranked.count else { return try rest(limit, offset - ranked.count) }
        let end = ranked.count - offset > limit ? offset + limit : ranked.count
        let ids = Array(ranked[offset..<end])
        return ids.count < limit ? ids + (try rest(limit - ids.count, 0)) : ids
    }
}

/// The words of a search, each as the index's tokens, matched against the
/// tokens of one title in Swift: what the index answers for the search's
/// match (every word, as a phrase of its tokens, the last token of each a
/// prefix: `SearchQuery`, `PostgresSearchIndex.query`), for titles the
/// engine has in hand (`SearchRanking`).
@usableFromInline
package struct SearchWords: Sendable, Equatable {
    /// Each word of the search as its tokens (`象棋` is `["象", "棋"]`).
    @usableFromInline
    package var words: [[String]]

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
