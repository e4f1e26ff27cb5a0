import EPFCatalog
import EPFSQLite
import EPFTestSupport
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

    /// Every Unicode scalar, in blocks: each between two letters (`a` +
    /// scalar + `b`: one token, with what it folds to, or two) and before
    /// a letter (a token may start with it), the blocks' words apart.
    static func scalarBlocks() -> [(first: UInt32, between: String, before: String)] {
        let scalars = (0...0x10FFFF).compactMap(Unicode.Scalar.init(_:) as (UInt32) -> Unicode.Scalar?)
        return stride(from: 0, to: scalars.count, by: 512).map { start in
            let block = scalars[start..<min(start + 512, scalars.count)]
            var between = ""
            var before = ""
            for scalar in block {
                between.unicodeScalars.append(contentsOf: ["a", scalar, "b", " "])
                before.unicodeScalars.append(contentsOf: [" ", scalar, "b"])
            }
            return (block.first!.value, between, before)
        }
    }

    @Test(
        "unicode61 in Swift is SQLite's, for every scalar: whether it is part of a token, what it folds to, whether a token starts with it")
    func everyScalar() throws {
        let sqlite = try SQLiteUnicode61()
        let tokenizer = SearchTokenizer()
        var differences: [String] = []
        for block in Self.scalarBlocks() {
            for text in [block.between, block.before] where tokenizer.tokenize(text) != sqlite.tokens(text) {
                // The scalar that differs, for the message.
                for scalar in text.unicodeScalars where scalar != " " && scalar != "a" && scalar != "b" {
                    for word in ["a\(scalar)b", "\(scalar)b"] where tokenizer.tokenize(word) != sqlite.tokens(word) {
                        differences.append(
                            "U+\(String(scalar.value, radix: 16, uppercase: true)) in \(word.debugDescription): \(tokenizer.tokenize(word)), SQLite \(sqlite.tokens(word))"
                        )
                    }
                }
                if differences.isEmpty { differences.append("the block from U+\(String(block.first, radix: 16))") }
                break
            }
            if differences.count > 20 { break }
        }
        #expect(
            differences.isEmpty,
            "the Swift tables differ from this SQLite's unicode61 (scripts/search-token-tables.c makes them): \(differences.prefix(20))")
    }

    @Test("unicode61 in Swift is SQLite's for random text of every script, mark, space and symbol")
    func randomText() throws {
        let sqlite = try SQLiteUnicode61()
        let tokenizer = SearchTokenizer()
        // Scalars of every kind: ASCII, Latin with diacritics, combining
        // marks, CJK, Hangul, Arabic, Devanagari, emoji, spaces, private
        // use, supplementary planes, unassigned.
        let pool: [ClosedRange<UInt32>] = [
            0x00...0x7F, 0xA0...0x24F, 0x300...0x36F, 0x370...0x52F, 0x590...0x6FF, 0x900...0x97F, 0x1E00...0x1FFF,
            0x2000...0x206F, 0x3000...0x30FF, 0x4E00...0x4E80, 0xAC00...0xAC80, 0xE000...0xE010, 0xFB00...0xFB4F,
            0xFE00...0xFE0F, 0xFF00...0xFFEF, 0xFFF0...0xFFFF, 0x10400...0x1044F, 0x1D400...0x1D4FF, 0x1F300...0x1F64F,
            0x20000...0x20010, 0xE0000...0xE007F, 0x10FFF0...0x10FFFF,
        ]
        var random = SeededGenerator(seed: 61)
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &random) {
                let range = pool.randomElement(using: &random)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { text.unicodeScalars.append(scalar) }
            }
            #expect(tokenizer.tokens(text) == sqlite.tokens(SearchText.prepare(text)), "\(text.debugDescription)")
        }
    }

    @Test("The tokens are the FTS5 index's, for every script, mark and separator")
    func sameAsFTS5() throws {
        let tokenizer = SearchTokenizer()
        let expected = try Self.indexedTokens(Self.titles)
        for (title, tokens) in zip(Self.titles, expected) {
            #expect(tokenizer.tokens(title) == tokens, "\(title)")
        }
        #expect(tokenizer.tokens("Échecs Café") == ["echecs", "cafe"])
        #expect(tokenizer.tokens("国际象棋游戏") == ["国", "际", "象", "棋", "游", "戏"])
        #expect(tokenizer.tokens("Version 2.0 foo-bar") == ["version", "2", "0", "foo", "bar"])
    }

    @Test("A search's words match a title in Swift exactly when FTS5 matches it (SearchWords, for popular-first search)")
    func wordsMatchAsFTS5Does() throws {
        let tokenizer = SearchTokenizer()
        let titles =
            Self.titles + [
                "Chessboard", "Chess", "Puzzle Chess Pro", "ChessChess", "chess-master 2", "象棋大师", "国际象棋", "Café de Flore",
                "ECOLE", "école", "Tiles Mahjong", "🎲 Dice", "Star Maps Star", "Maps",
            ]
        var terms = [
            "chess", "che", "CHESS", "chess pro", "pro chess", "ches puz", "象棋", "象", "棋游", "际象棋游戏", "cafe", "café", "ecole",
            "e\u{301}cole", "foo-bar", "foo-ba", "bar-foo", "2.0", "2.", "mah ti", "star star", "maps", "m", "🎲 dice", "ß", "ss",
            "o'brien", "brien's quest", "ｆｕｌｌ", "full wid", "istanbul", "ǆemal", "x", "y", "xy",
        ]
        // Every word of every title, its first letters, and pairs of them.
        for title in titles {
            let words = title.split(whereSeparator: \.isWhitespace).map(String.init)
            terms += words + words.map { String($0.prefix(2)) } + zip(words, words.dropFirst()).map { "\($1) \($0)" }
        }
        let database = try SQLiteDatabase(path: ":memory:")
        try database.execute("CREATE VIRTUAL TABLE s USING fts5(t, tokenize='unicode61 remove_diacritics 2')")
        for (index, title) in titles.enumerated() {
            try database.execute("INSERT INTO s (rowid, t) VALUES (?, ?)", [.integer(Int64(index)), .text(SearchText.prepare(title))])
        }
        var checked = 0
        for term in Set(terms) {
            guard let expression = SearchQuery.matchExpression(term), let words = tokenizer.queryWords(term) else { continue }
            let fts5 = Set(
                try database.rows("SELECT rowid FROM s WHERE s MATCH ?", [.text(expression)]).compactMap { row -> Int? in
                    if case .integer(let id) = row[0] { Int(id) } else { nil }
                })
            for (index, title) in titles.enumerated() {
                #expect(
                    SearchWords(words).match(tokenizer.tokens(title)) == fts5.contains(index),
                    "\(term.debugDescription) in \(title.debugDescription): FTS5 says \(fts5.contains(index))")
                checked += 1
            }
        }
        #expect(checked > 5000)
        #expect(SearchWords([["chess"]]).match(["kids", "chess", "academy"]))
        #expect(SearchWords([["che"], ["aca"]]).match(["kids", "chess", "academy"]))
        #expect(!SearchWords([["chess", "kids"]]).match(["kids", "chess", "academy"]))
        #expect(SearchWords([["象", "棋"]]).match(["国", "际", "象", "棋", "游", "戏"]))
        #expect(!SearchWords([["象", "游"]]).match(["国", "际", "象", "棋", "游", "戏"]))
    }
}
