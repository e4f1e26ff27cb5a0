import EPFTextSearch
import Testing

/// `SearchText`: the text the index holds for a name, each CJK character
/// spaced apart. (That the SQL function of the SQLite index spaces alike:
/// EPFCatalogTests' `SearchIndexTests`.)
@Suite("Search text: CJK characters spaced apart (SearchText)")
struct SpacingTests {
    @Test func cjkCharactersAreSpacedApart() {
        #expect(SearchText.prepare("国际象棋游戏") == "国 际 象 棋 游 戏 ")
        #expect(SearchText.prepare("Pro象棋X 2") == "Pro 象 棋 X 2")
        #expect(SearchText.prepare("パズル・체스") == "パ ズ ル ・ 체 스 ")
        #expect(SearchText.prepare("Café Échecs 🎲") == "Café Échecs 🎲")
        #expect(SearchText.prepare("𠀀𪚥") == "𠀀 𪚥 ")  // plane 2
        #expect(SearchText.prepare("") == "")
    }
}
