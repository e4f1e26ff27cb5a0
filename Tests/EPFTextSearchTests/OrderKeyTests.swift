import EPFTextSearch
import Testing

/// `SearchOrder`: the key the index orders its entries by, fewer words then
/// fewer bytes. (The order of results read through a catalog:
/// EPFCatalogTests' `SearchOrderTests`.)
@Suite("Search order: the key of a title (SearchOrder)")
struct OrderKeyTests {
    @Test func orderKeysCountWordsAsTheTokenizerDoes() {
        #expect(SearchOrder.key("Chess Pro") == 2 << 12 | 9)
        #expect(SearchOrder.key("国际象棋") == 4 << 12 | 12)
        #expect(SearchOrder.key("Café, Échecs & 2 more!") == 4 << 12 | 24)
        // Emoji, symbols and punctuation are not words.
        #expect(SearchOrder.key("Dice Chess 🎲♟️ — “Pro”") >> 12 == 3)
        #expect(SearchOrder.key("パズル体스") >> 12 == 5)
        #expect(SearchOrder.key("") == 0)
        #expect(SearchOrder.key(String(repeating: "a ", count: 5000)) == Int64(SearchOrder.maximumWords) << 12 | 4095)
    }
}
