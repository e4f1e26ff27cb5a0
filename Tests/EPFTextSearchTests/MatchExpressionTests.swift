import EPFTextSearch
import Testing

/// `SearchQuery`: what a user typed as an FTS5 `MATCH` expression. (What
/// FTS5 finds with them: EPFCatalogTests' `SearchIndexTests`.)
@Suite("Search query: FTS5 match expressions (SearchQuery)")
struct MatchExpressionTests {
    @Test func matchExpressions() {
        #expect(SearchQuery.matchExpression("Café 象棋") == "\"Café\"* AND \"象 棋\"*")
        #expect(SearchQuery.matchExpression("chess", prefix: false) == "\"chess\"")
        #expect(SearchQuery.matchExpression("  say \"hi\"  ") == "\"say\"* AND \"\"\"hi\"\"\"*")
        #expect(SearchQuery.matchExpression("NEAR(a") == "\"NEAR(a\"*")
        #expect(SearchQuery.matchExpression("") == nil)
        #expect(SearchQuery.matchExpression(" \t\n") == nil)
        #expect(SearchQuery.matchExpression("* \" - ()") == nil)
    }
}
