import EPFCatalogCore
import EPFTextSearch

/// How a backend's search index is read in SQL (`CatalogReadSource`): the
/// engine adds its filters (sold in a storefront, made for a device) and
/// its paging around these pieces.
@usableFromInline
package struct SearchRowsSQL: Sendable {
    /// The matching rows, as the text after `FROM`, with the `WHERE`
    /// condition on the match: `"epf_search_application" AS s ... WHERE
    /// s.words @@ $1::tsquery`.
    package var from: String
    /// The Apple ID of a matching row: `s.application_id`.
    package var applicationID: String
    /// The search order, after `ORDER BY`: `s.rowid`.
    package var order: String
    /// `from` as a walk of the order's index reads it (`SearchPlan.walk`):
    /// PostgreSQL writes the match so that the GIN index cannot take it.
    package var walkedFrom: String
    /// `order` as the matches are sorted in (`SearchPlan.sort`): PostgreSQL
    /// writes an order no index gives, so that GIN finds the matches.
    package var sortedOrder: String

    /// The pieces, as `CatalogReadSource.searchRows` spells them; a
    /// backend with one plan (SQLite) leaves the last two out.
    package init(from: String, applicationID: String, order: String, walkedFrom: String? = nil, sortedOrder: String? = nil) {
        self.from = from
        self.applicationID = applicationID
        self.order = order
        self.walkedFrom = walkedFrom ?? from
        self.sortedOrder = sortedOrder ?? order
    }
}

/// How a page of search matches is read (`CatalogReadSource.searchPage`).
@usableFromInline
package enum SearchPlan: Sendable {
    /// Walk the rows in search order and keep the matches, stopping after
    /// the page: fast for a term many titles hold.
    case walk
    /// Find every match through the match index, then sort them: fast for
    /// a term few titles hold.
    case sort
}

/// What a search asks the index (`CatalogReadSource.searchMatch`): the
/// value of the match parameter for the whole-word matches, and for the
/// matches where some word is only a prefix (and that are not whole-word
/// matches), each in the backend's query language (an FTS5 expression, a
/// `tsquery`); and the words as tokens.
@usableFromInline
package struct SearchMatch: Sendable, Equatable {
    /// Every word as a whole word.
    @usableFromInline
    package var words: String
    /// Every word as a word or a prefix, but not every one as a whole word.
    @usableFromInline
    package var prefixOnly: String
    /// The words as the index's tokens, for the titles the engine matches
    /// itself (`SearchRanking`): the same match as `words` and `prefixOnly`
    /// together.
    @usableFromInline
    package var tokens: SearchWords

    /// The two values, in the backend's query language, and the words.
    package init(words: String, prefixOnly: String, tokens: SearchWords) {
        self.words = words
        self.prefixOnly = prefixOnly
        self.tokens = tokens
    }
}
