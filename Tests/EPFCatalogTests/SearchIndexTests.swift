import EPFCatalog
import EPFFormat
import EPFSQLite
import EPFTextSearch
import Testing

@Suite("Full-text search index")
struct SearchIndexTests {
    static func apps(_ mode: String = "FULL", columns: [String] = ["application_id", "title", "version"], rows: [[String]]) -> TableBytes {
        let types = columns.map { $0 == "application_id" ? "INTEGER" : "VARCHAR(1000)" }
        return TableBytes(columns: columns, types: types, key: ["application_id"], mode: mode, rows: rows)
    }

    static let titles: [[String]] = [
        ["1", "Chess Garden", "1.0"],
        ["2", "Café Puzzle", "1.0"],
        ["3", "国际象棋游戏", "1.0"],
        ["4", "WEATHER pro", "1.0"],
        ["5", "", "1.0"],
        ["6", "パズルと体스 체스게임", "1.0"],
    ]

    /// The ids of `table` whose search entries match what a user typed,
    /// in id order.
    static func search(_ catalog: TemporaryCatalog, _ text: String, in table: String = "application") throws -> [Int64] {
        guard let expression = SearchQuery.matchExpression(text) else { return [] }
        let search = quoteIdentifier(SearchIndex.tableName(for: table))
        return try catalog.store.database.rows(
            """
            SELECT t.application_id FROM \(search) JOIN \(quoteIdentifier(table)) AS t ON t.rowid = \(SearchIndex.tableRowid("\(search).rowid"))
            WHERE \(search) MATCH ? ORDER BY t.application_id
            """, [.text(expression)]
        ).compactMap { $0.first?.integerValue }
    }

    static func integrityCheck(_ catalog: TemporaryCatalog, _ table: String = "application") throws {
        let search = quoteIdentifier(SearchIndex.tableName(for: table))
        try catalog.store.database.execute("INSERT INTO \(search) (\(search)) VALUES ('integrity-check')")
    }

    // MARK: What a search finds

    @Test func aFullImportIndexesTheTitle() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        #expect(try Self.search(catalog, "chess") == [1])
        #expect(try Self.search(catalog, "garden chess") == [1])
        #expect(try Self.search(catalog, "chess puzzle") == [])
        // Every title has an entry; an empty field is NULL and has none.
        #expect(try catalog.rows("SELECT count(*) FROM epf_search_application") == [[.integer(5)]])
        try Self.integrityCheck(catalog)
    }

    @Test func caseDiacriticsAndPrefixesAreFolded() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        #expect(try Self.search(catalog, "cafe") == [2])
        #expect(try Self.search(catalog, "CAFÉ") == [2])
        #expect(try Self.search(catalog, "CHESS") == [1])
        #expect(try Self.search(catalog, "che") == [1])
        #expect(try Self.search(catalog, "weather") == [4])
        #expect(try Self.search(catalog, "puz") == [2])
    }

    @Test func cjkWordsMatchInsideTitlesWithoutSpaces() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        #expect(try Self.search(catalog, "象棋") == [3])
        #expect(try Self.search(catalog, "国际象棋游戏") == [3])
        #expect(try Self.search(catalog, "棋") == [3])
        // The characters must be next to each other and in order.
        #expect(try Self.search(catalog, "棋象") == [])
        #expect(try Self.search(catalog, "国象") == [])
        #expect(try Self.search(catalog, "パズル") == [6])
        #expect(try Self.search(catalog, "체스") == [6])
        #expect(try Self.search(catalog, "ズ") == [6])
    }

    @Test func rowidOrderIsSearchOrderWithoutOurCode() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(
            Self.apps(rows: [
                ["1", "Chess Garden Puzzle Tiles Daily", "1"], ["2", "Chess Kingdom", "1"], ["3", "Chess", "1"], ["4", "Chess Pro", "1"],
            ]),
            as: "application")
        let ordered = try catalog.store.database.rows(
            "SELECT rowid & 1099511627775 FROM epf_search_application WHERE epf_search_application MATCH ? ORDER BY rowid",
            [.text(SearchQuery.matchExpression("chess")!)])
        // Fewer words first, then fewer bytes; the live rowid in the low 40 bits.
        #expect(ordered == [[.integer(3)], [.integer(4)], [.integer(2)], [.integer(1)]])
        let rowid = try catalog.store.database.scalar("SELECT epf_search_rowid(4, 'Chess Pro')")
        #expect(rowid == .integer(SearchOrder.key("Chess Pro") << 40 | 4))
        #expect(SearchOrder.key("Chess Pro") == 2 << 12 | 9)
        #expect(SearchOrder.key("国际象棋") == 4 << 12 | 12)
        #expect(SearchOrder.key("Café, Échecs & 2 more!") == 4 << 12 | 24)
        #expect(SearchOrder.key("") == 0)
    }

    @Test func userTextCannotBreakTheMatchExpression() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles + [["7", "Don't \"Quote\" OR NEAR me", "1"]]), as: "application")
        let hostile = [
            "\"", "\"chess", "chess\"", "ch\"ess", "*", "chess*", "**chess", "OR", "chess OR", "OR chess", "AND", "NOT chess",
            "NEAR(", "NEAR(chess garden)", "chess NEAR/2 garden", "title:chess", "{title}:chess", "^chess", "-chess",
            "+chess", "(chess", "chess)", "'", "chess'; DROP TABLE application; --", "\\", "\u{0}", "🎲", "a\u{301}",
        ]
        for text in hostile {
            _ = try Self.search(catalog, text)
        }
        #expect(try Self.search(catalog, "\"chess") == [1])
        #expect(try Self.search(catalog, "chess*") == [1])
        #expect(try Self.search(catalog, "title:chess") == [])  // the words "title" and "chess", not a column filter
        #expect(try Self.search(catalog, "don't") == [7])
        #expect(try Self.search(catalog, "\"quote\" or near") == [7])
        #expect(try Self.search(catalog, "chess OR weather") == [])  // OR is a word: every word must match
        #expect(try catalog.rows("SELECT count(*) FROM application") == [[.integer(7)]])
    }

    // MARK: Keeping the index with the table

    @Test func anIncrementalReindexesTheRowsItChanges() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        let incremental = Self.apps(
            "INCREMENTAL", rows: [["1", "Checkers Garden", "2.0"], ["8", "Ocean Chess", "1.0"], ["5", "Sky", "2"], ["3", "国际跳棋", "2"]])
        try catalog.apply(incremental, as: "application")
        #expect(try Self.search(catalog, "chess") == [8])
        #expect(try Self.search(catalog, "checkers") == [1])
        #expect(try Self.search(catalog, "garden") == [1])
        #expect(try Self.search(catalog, "sky") == [5])
        #expect(try Self.search(catalog, "象棋") == [])
        #expect(try Self.search(catalog, "跳棋") == [3])
        #expect(try Self.search(catalog, "国际") == [3])
        #expect(try Self.search(catalog, "weather") == [4])
        #expect(try catalog.rows("SELECT count(*) FROM epf_search_application") == [[.integer(7)]])
        try Self.integrityCheck(catalog)
    }

    @Test func anIncrementalUpdatesTheIndexInPlace() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        // An entry no live row has: a rebuild would lose it, an update keeps it.
        try catalog.store.database.execute("INSERT INTO epf_search_application (rowid, title) VALUES (1 << 50, 'sentinel')")
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["2", "Café Puzzle Deluxe", "2"]]), as: "application")
        #expect(
            try catalog.rows("SELECT rowid FROM epf_search_application WHERE epf_search_application MATCH 'sentinel'") == [
                [.integer(1 << 50)]
            ])
        #expect(try Self.search(catalog, "deluxe") == [2])
    }

    @Test func anIncrementalWithoutTheColumnKeepsTheEntries() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        try catalog.apply(
            Self.apps("INCREMENTAL", columns: ["application_id", "version"], rows: [["1", "3.0"], ["9", "1.0"]]), as: "application")
        #expect(try Self.search(catalog, "chess") == [1])
        #expect(try catalog.rows("SELECT count(*) FROM epf_search_application") == [[.integer(5)]])
        try Self.integrityCheck(catalog)
    }

    @Test func rowsMissingFromANewFullLeaveTheIndex() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        try catalog.apply(Self.apps(rows: [["3", "国际象棋游戏", "2"], ["10", "Chess Kingdom", "1"]]), as: "application")
        #expect(try Self.search(catalog, "chess") == [10])
        #expect(try Self.search(catalog, "cafe") == [])
        #expect(try Self.search(catalog, "象棋") == [3])
        #expect(try catalog.rows("SELECT count(*) FROM epf_search_application") == [[.integer(2)]])
        // The staging table's index was renamed into place with its shadow tables.
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE name LIKE '%stage%'").isEmpty)
        try Self.integrityCheck(catalog)
    }

    @Test func anIncrementalThatCreatesTheTableIndexesIt() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["1", "Chess", "1"], ["2", "象棋", "1"]]), as: "application")
        #expect(try Self.search(catalog, "chess") == [1])
        #expect(try Self.search(catalog, "象棋") == [2])
    }

    @Test func aCatalogWithoutTheIndexGetsItAtTheNextApply() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        // As a catalog made before the index existed.
        try catalog.store.database.execute("DROP TABLE epf_search_application")
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["8", "Ocean Chess", "1"]]), as: "application")
        #expect(try Self.search(catalog, "chess") == [1, 8])
        #expect(try Self.search(catalog, "象棋") == [3])
    }

    @Test func anIndexOfAnotherVersionIsRebuilt() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        // As if built by another version of the spacing: CJK not spaced.
        try catalog.store.database.execute(
            """
            DROP TABLE epf_search_application;
            CREATE VIRTUAL TABLE epf_search_application USING fts5(/* epf search text v0 */ title, content='', tokenize='unicode61 remove_diacritics 2');
            INSERT INTO epf_search_application (rowid, title) SELECT rowid, title FROM application;
            """)
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["8", "Ocean Chess", "1"]]), as: "application")
        #expect(try Self.search(catalog, "象棋") == [3])
        let declaration = try catalog.rows("SELECT sql FROM sqlite_schema WHERE name = 'epf_search_application'")
        #expect(declaration.first?.first?.textValue?.contains("epf search v\(SearchIndex.version) ") == true)
        try Self.integrityCheck(catalog)
    }

    @Test func prefixedTablesAreIndexed() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "p1_application")
        #expect(try Self.search(catalog, "chess", in: "p1_application") == [1])
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["1", "Go", "2"]]), as: "p1_application")
        #expect(try Self.search(catalog, "chess", in: "p1_application") == [])
        #expect(try Self.search(catalog, "go", in: "p1_application") == [1])
    }

    @Test func onlyTablesWithTheColumnAndKeyAreIndexed() throws {
        let catalog = try TemporaryCatalog()
        // The application table without a title column.
        try catalog.apply(Self.apps(columns: ["application_id", "version"], rows: [["1", "1.0"]]), as: "application")
        #expect(try !catalog.store.database.tableExists("epf_search_application"))
        // A table that is not indexed, though it has a title.
        try catalog.apply(Self.apps(rows: Self.titles), as: "game")
        // A table whose name ends like an indexed one, with another key.
        let pairs = TableBytes(
            columns: ["artist_id", "application_id", "title"], types: ["INTEGER", "INTEGER", "VARCHAR(10)"],
            key: ["artist_id", "application_id"], rows: [["1", "2", "Chess"]])
        try catalog.apply(pairs, as: "artist_application")
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'epf_search%'").isEmpty)
        // The artist table is indexed by name.
        let artists = TableBytes(
            columns: ["artist_id", "name"], types: ["INTEGER", "VARCHAR(1000)"], key: ["artist_id"], rows: [["5", "Échecs Studio"]])
        try catalog.apply(artists, as: "artist")
        #expect(
            try catalog.rows("SELECT rowid & 1099511627775 FROM epf_search_artist WHERE epf_search_artist MATCH 'echecs'") == [
                [.integer(1)]
            ])
    }

    @Test func aFullWithoutTheColumnDropsTheOldIndex() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        try catalog.apply(Self.apps(columns: ["application_id", "version"], rows: [["1", "1.0"]]), as: "application")
        #expect(try !catalog.store.database.tableExists("epf_search_application"))
    }

    @Test func searchTablesAreNotListedAsCatalogTables() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        #expect(try SQLiteCatalogAdmin(path: catalog.path).tables().map(\.name) == ["application"])
    }

    @Test func stagedIndexesDisappearWithTheirStagingTables() throws {
        let catalog = try TemporaryCatalog()
        let staged = try catalog.stage(Self.apps(rows: Self.titles), as: "application")
        #expect(try catalog.store.database.tableExists("epf_search_epf_stage_application"))
        catalog.store.discard([staged])
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'epf\\_s%' ESCAPE '\\' AND name <> 'epf_schema'").isEmpty)
        // A killed import's staged table is kept to resume, or dropped with restart.
        _ = try catalog.stage(Self.apps(rows: Self.titles), as: "application")
        #expect(try catalog.reopen().resumableLoads.map(\.staging) == ["epf_stage_application"])
        let reopened = try catalog.reopen(restart: true)
        #expect(reopened.droppedLeftovers == ["epf_stage_application"])
        #expect(
            try reopened.database.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'epf\\_s%' ESCAPE '\\' AND name <> 'epf_schema'")
                .isEmpty)
    }

    @Test func aFailedApplyLeavesTheIndexAsItWas() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: Self.titles), as: "application")
        let good = try catalog.stage(Self.apps("INCREMENTAL", rows: [["1", "Checkers", "2"]]), as: "application")
        try catalog.store.database.execute("CREATE TABLE dup (id BIGINT, title TEXT); INSERT INTO dup VALUES (1,'a'),(1,'b')")
        let bad = try catalog.stage(ApplyTests.apps("INCREMENTAL", rows: [["1", "c", "3"]]), as: "dup")
        #expect(throws: CatalogError.self) { try catalog.store.apply([good, bad], journal: []) }
        #expect(try Self.search(catalog, "chess") == [1])
        #expect(try Self.search(catalog, "checkers") == [])
        try Self.integrityCheck(catalog)
    }

    // MARK: The text in SQL

    @Test func theSQLFunctionSpacesLikeSwift() throws {
        let catalog = try TemporaryCatalog()
        for text in ["国际象棋游戏", "Pro象棋X 2", "Café", "", "パズル・체스 🎲", "a\u{FFFD}b象"] {
            let spaced = try catalog.store.database.scalar("SELECT epf_search_text(?)", [.text(text)])
            #expect(spaced == .text(SearchText.prepare(text)), "\(text)")
        }
        #expect(try catalog.store.database.scalar("SELECT epf_search_text(NULL)") == .null)
    }
}
