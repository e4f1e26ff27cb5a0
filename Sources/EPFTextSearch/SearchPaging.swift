/// The paging of a search: whole-word matches first, then the matches
/// where some word is only a prefix, each in the index's order
/// (`SearchOrder`). The chart's matches come before both (`SearchRanking`,
/// which pages these after them).
@usableFromInline
package enum SearchPaging {
    /// The Apple IDs of results `offset ..< offset + limit` (`limit` > 0).
    ///
    /// - Parameters:
    ///   - wordMatches: whole-word matches `(limit, offset)`, in order.
    ///   - wordMatchCount: how many whole-word matches there are (asked
    ///     only when the page starts past them).
    ///   - prefixOnlyMatches: matches that are not whole-word matches
    ///     `(limit, offset)`, in order (`limit` > 0).
    @usableFromInline
    package static func ids<Failure: Error>(
        limit: Int, offset: Int, wordMatches: (Int, Int) throws(Failure) -> [Int64], wordMatchCount: () throws(Failure) -> Int,
        prefixOnlyMatches: (Int, Int) throws(Failure) -> [Int64]
    ) throws(Failure) -> [Int64] {
        var ids = try wordMatches(limit, offset)
        guard ids.count < limit else { return ids }
        let words = ids.isEmpty && offset > 0 ? try wordMatchCount() : offset + ids.count
        ids += try prefixOnlyMatches(limit - ids.count, max(0, offset - words))
        return ids
    }
}
