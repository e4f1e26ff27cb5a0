/// The tokens the search index holds for a text: SQLite's FTS5 tokenizer
/// `unicode61 remove_diacritics 2` (the one `SearchIndex` declares) after
/// `SearchText` spacing, cut by the same rules in Swift (`Unicode61`).
///
/// Why SQLite's tokenizer and not PostgreSQL's parser: a store that keeps
/// its search index elsewhere (the PostgreSQL store's `tsvector` column)
/// must cut and fold words exactly as the SQLite index does, or the two
/// catalogs answer a search differently. PostgreSQL's text-search parser
/// makes one token of `2.0`, `foo-bar` (and its parts), e-mail addresses
/// and paths; its `lower()` and its notion of a letter follow the
/// database's locale (in the C locale, `É` stays `É` and every non-ASCII
/// character is a letter); and folding diacritics needs the `unaccent`
/// extension, whose rules are not `remove_diacritics 2`'s. Cutting with
/// unicode61's own rules and tables gives the same tokens for the same
/// text, whatever the server's locale or extensions, and links no SQLite.
package struct SearchTokenizer: Sendable {
    /// The longest token kept, in bytes: PostgreSQL's limit for a
    /// `tsvector` lexeme is 2047 bytes. Longer tokens (a run of 2048
    /// letters without a space) are cut at a character boundary, on the
    /// indexed side and the query side alike.
    package static let maximumTokenBytes = 2047

    /// A tokenizer: it holds no state, so one may be shared by threads.
    package init() {}

    /// The tokens of `text` as the index holds them: spaced by `SearchText`,
    /// cut and folded by `unicode61 remove_diacritics 2`, in order (a word
    /// repeated is repeated).
    package func tokens(_ text: String) -> [String] {
        tokenize(SearchText.prepare(text))
    }

    /// The words of a search, each as its tokens (`象棋` is `["象", "棋"]`,
    /// `foo-bar` is `["foo", "bar"]`: a phrase), the same words
    /// `SearchQuery.matchExpression` quotes for FTS5. Nil when the search
    /// finds nothing: no word to search for, or a word FTS5 would make an
    /// empty phrase of (which matches nothing).
    package func queryWords(_ text: String) -> [[String]]? {
        var words: [[String]] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            let prepared = SearchText.prepare(String(word))
            guard prepared.unicodeScalars.contains(where: SearchQuery.isTokenCharacter) else { continue }
            let tokens = tokenize(prepared)
            guard !tokens.isEmpty else { return nil }
            words.append(tokens)
        }
        return words.isEmpty ? nil : words
    }

    /// `text` (already spaced) cut into tokens by `unicode61 remove_diacritics 2`.
    package func tokenize(_ text: String) -> [String] {
        var text = text
        return text.withUTF8 { Unicode61.tokens($0, maximumBytes: Self.maximumTokenBytes) }
    }
}
