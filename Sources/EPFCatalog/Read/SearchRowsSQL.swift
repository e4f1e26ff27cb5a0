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

    /// The pieces, as `CatalogReadSource.searchRows` spells them.
    package init(from: String, applicationID: String, order: String) {
        self.from = from
        self.applicationID = applicationID
        self.order = order
    }
}

/// What a search asks the index (`CatalogReadSource.searchMatch`): the
/// value of the match parameter for the whole-word matches, and for the
/// matches where some word is only a prefix (and that are not whole-word
/// matches), each in the backend's query language (an FTS5 expression, a
/// `tsquery`).
@usableFromInline
package struct SearchMatch: Sendable, Equatable {
    /// Every word as a whole word.
    @usableFromInline
    package var words: String
    /// Every word as a word or a prefix, but not every one as a whole word.
    @usableFromInline
    package var prefixOnly: String

    /// The two values, in the backend's query language.
    package init(words: String, prefixOnly: String) {
        self.words = words
        self.prefixOnly = prefixOnly
    }
}
