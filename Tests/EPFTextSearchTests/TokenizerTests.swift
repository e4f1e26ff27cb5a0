import EPFTextSearch
import Testing

/// `SearchTokenizer` on its own: a search's words, and the longest token.
/// (That its tokens are SQLite's, for every scalar: EPFCatalogTests'
/// `SearchTokenizerTests`.)
@Suite("Search tokens without a database (SearchTokenizer)")
struct TokenizerTests {
    @Test("A search's words: phrases of tokens; nil when nothing can match, as SearchQuery")
    func queryWords() throws {
        let tokenizer = SearchTokenizer()
        #expect(tokenizer.queryWords("CAFÉ 象棋") == [["cafe"], ["象", "棋"]])
        #expect(tokenizer.queryWords("foo-bar  x") == [["foo", "bar"], ["x"]])
        #expect(tokenizer.queryWords("chess -") == [["chess"]])
        for nothing in ["", "  ", "- \"", "🎲"] {
            #expect(tokenizer.queryWords(nothing) == nil, "\(nothing)")
            #expect(SearchQuery.matchExpression(nothing) == nil, "\(nothing)")
        }
    }

    @Test("A token longer than a tsvector lexeme is cut at a character boundary")
    func longToken() throws {
        let tokenizer = SearchTokenizer()
        let tokens = tokenizer.tokens(String(repeating: "é", count: 1500))
        #expect(tokens.count == 1)
        #expect(tokens[0].utf8.count <= SearchTokenizer.maximumTokenBytes)
        #expect(tokens[0] == String(repeating: "e", count: 1500))
        let wide = tokenizer.tokens(String(repeating: "ж", count: 1500))[0]
        #expect(wide.utf8.count == 2046)
        #expect(wide == String(repeating: "ж", count: 1023))
    }
}
