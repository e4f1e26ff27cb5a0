import EPFCatalog
import EPFSQLite
import EPFTextSearch
import Testing

@Suite("Search tokens outside SQLite (SearchTokenizer)")
struct SearchTokenizerTests {
    static let titles = [
        "Chess Master Classic", "Échecs Café", "国际象棋游戏", "将棋", "ことばパズル", "체스 퍼즐 천국", "Dice Chess 🎲♟️",
        "Tide & Weather Almanac", "Version 2.0 foo-bar", "ÀÉÎÕÜ àéîõü ß Æsir Øre Łódź", "e\u{301}cole", "Mahjong Tiles 麻将",
        "O'Brien's \"Quest\"", "ＦＵＬＬ ｗｉｄｔｈ １２", "tab\there\nnewline", "", "---", "İstanbul ǅemal", "x\u{E000}y",
    ]

    /// What the FTS5 index of `SearchIndex` holds for `titles`: each
    /// title's tokens in order, read back through `fts5vocab`.
    static func indexedTokens(_ titles: [String]) throws -> [[String]] {
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE VIRTUAL TABLE s USING fts5(t, tokenize='unicode61 remove_diacritics 2')")
        try database.execute("CREATE VIRTUAL TABLE v USING fts5vocab(s, 'instance')")
        for (index, title) in titles.enumerated() {
            try database.execute(
                "INSERT INTO s (rowid, t) VALUES (?, ?)", [.integer(Int64(index + 1)), .text(SearchText.prepare(title))])
        }
        var tokens = Array(repeating: [String](), count: titles.count)
        for row in try database.rows("SELECT doc, term FROM v ORDER BY doc, offset") {
            guard case .integer(let doc) = row[0], let term = row[1].textValue else { continue }
            tokens[Int(doc) - 1].append(term)
        }
        return tokens
    }

    @Test("The tokens are the FTS5 index's, for every script, mark and separator")
    func sameAsFTS5() throws {
        let tokenizer = try SearchTokenizer()
        let expected = try Self.indexedTokens(Self.titles)
        for (title, tokens) in zip(Self.titles, expected) {
            #expect(tokenizer.tokens(title) == tokens, "\(title)")
        }
        #expect(tokenizer.tokens("Échecs Café") == ["echecs", "cafe"])
        #expect(tokenizer.tokens("国际象棋游戏") == ["国", "际", "象", "棋", "游", "戏"])
        #expect(tokenizer.tokens("Version 2.0 foo-bar") == ["version", "2", "0", "foo", "bar"])
    }

    @Test("A search's words: phrases of tokens; nil when nothing can match, as SearchQuery")
    func queryWords() throws {
        let tokenizer = try SearchTokenizer()
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
        let tokenizer = try SearchTokenizer()
        let tokens = tokenizer.tokens(String(repeating: "é", count: 1500))
        #expect(tokens.count == 1)
        #expect(tokens[0].utf8.count <= SearchTokenizer.maximumTokenBytes)
        #expect(tokens[0] == String(repeating: "e", count: 1500))
        let wide = tokenizer.tokens(String(repeating: "ж", count: 1500))[0]
        #expect(wide.utf8.count == 2046)
        #expect(wide == String(repeating: "ж", count: 1023))
    }
}
