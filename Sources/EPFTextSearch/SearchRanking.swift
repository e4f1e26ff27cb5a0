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
/// (EPFCatalogRead's `CatalogSearchQueries.rankedCandidates`), and each
/// title is matched here against the term's words (`SearchWords`), cut by
/// the same tokenizer as the index (`CatalogReadSource.searchTokens`).
/// The pages of the index leave the chart's applications out, and are
/// paged after them.
///
/// The whole order of a search, and where each step is decided (a change
/// to the ranking starts here):
///
/// 1. The chart's matches, by rank: this type, over the SQL of
///    EPFCatalogRead's `CatalogSearchQueries` (`rankedCandidates`, and the
///    filter that leaves the chart out of the index's pages).
/// 2. Then the titles that hold every word as a whole word, then those
///    where some word is only a prefix: `SearchPaging`, over the two match
///    values each backend writes for a term (`SearchQuery`'s FTS5
///    expressions; EPFPostgresReader's `tsquery`s).
/// 3. Within each, fewer words, then fewer bytes: `SearchOrder`, the key
///    each backend's index stores its entries under, so that a page is
///    read in order and no match is scored. A change to it changes the
///    index: raise `SearchIndex.version`.
///
/// EPFCatalogRead's `CatalogReadEngine.search` pages the three as one
/// order.
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
