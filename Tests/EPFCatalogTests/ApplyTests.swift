import EPFCatalog
import EPFFormat
import EPFSQLite
import Testing

@Suite("Applying staged tables")
struct ApplyTests {
    static func apps(_ mode: String = "FULL", columns: [String] = ["id", "title", "size"], rows: [[String]]) -> TableBytes {
        let types = columns.map { $0 == "id" || $0 == "size" ? "BIGINT" : "VARCHAR(100)" }
        return TableBytes(columns: columns, types: types, key: ["id"], mode: mode, rows: rows)
    }

    @Test func fullReplacesTheTableAndAlternatesKeyIndexNames() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: [["1", "one", "10"], ["2", "two", "20"]]), as: "app")
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'app'") == [[.text("app_key")]])
        let outcome = try catalog.apply(Self.apps(rows: [["2", "two!", "21"], ["3", "three", "30"]]), as: "app")
        #expect(outcome.rowsAfter == 2)
        #expect(
            try catalog.rows("SELECT id, title, size FROM app ORDER BY id") == [
                [.integer(2), .text("two!"), .integer(21)], [.integer(3), .text("three"), .integer(30)],
            ])
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'app'") == [[.text("app_key2")]])
        try catalog.apply(Self.apps(rows: [["4", "four", "40"]]), as: "app")
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'app'") == [[.text("app_key")]])
        // No staging table is left behind.
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'epf_stage%'").isEmpty)
    }

    @Test func duplicateKeysInAFullFileKeepTheLastRow() throws {
        let catalog = try TemporaryCatalog()
        let staged = try catalog.stage(
            Self.apps(rows: [["1", "first", "1"], ["2", "b", "2"], ["1", "second", "3"], ["1", "third", "4"]]), as: "app")
        #expect(staged.counts.duplicateKeys == 2)
        #expect(staged.counts.skippedRows == 2)
        _ = try catalog.store.apply([staged], journal: [])
        #expect(try catalog.rows("SELECT id, title FROM app ORDER BY id") == [[.integer(1), .text("third")], [.integer(2), .text("b")]])
    }

    @Test func incrementalUpsertsByNameAddsColumnsAndKeepsOthers() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: [["1", "one", "10"], ["2", "two", "20"]]), as: "app")
        // Columns in another order, one column missing (size), one new (rating).
        let incremental = TableBytes(
            columns: ["rating", "title", "id"], types: ["INTEGER", "VARCHAR(100)", "BIGINT"], key: ["id"],
            mode: "INCREMENTAL", rows: [["5", "two v2", "2"], ["4", "three", "3"]])
        let outcome = try catalog.apply(incremental, as: "app")
        #expect(outcome.inserted == 1)
        #expect(outcome.updated == 1)
        #expect(outcome.addedColumns == ["rating"])
        #expect(outcome.rowsAfter == 3)
        #expect(
            try catalog.rows("SELECT id, title, size, rating FROM app ORDER BY id") == [
                [.integer(1), .text("one"), .integer(10), .null],
                [.integer(2), .text("two v2"), .integer(20), .integer(5)],
                [.integer(3), .text("three"), .null, .integer(4)],
            ])
    }

    @Test func theRowCountIsKeptNotCountedAfterAnIncremental() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: [["1", "one", "10"], ["2", "two", "20"], ["3", "three", "30"]]), as: "app")
        #expect(try catalog.rows("SELECT row_count FROM epf_table_info WHERE table_name = 'app'") == [[.integer(3)]])
        var statements: [String] = []
        catalog.store.database.traceStatements { statements.append($0) }
        let outcome = try catalog.apply(
            Self.apps("INCREMENTAL", rows: [["2", "two v2", "21"], ["4", "four", "40"], ["5", "five", "50"]]), as: "app")
        catalog.store.database.traceStatements(nil)
        #expect([outcome.rowsAfter, outcome.inserted, outcome.updated] == [5, 2, 1])
        #expect(
            try catalog.rows("SELECT row_count, (SELECT count(*) FROM app) FROM epf_table_info WHERE table_name = 'app'") == [
                [.integer(5), .integer(5)]
            ])
        // Neither the load nor the apply counted the live table: its rows are
        // the kept count and the rows the upsert added above the largest rowid.
        #expect(statements.filter { $0.contains("count(*) FROM \"app\"") && !$0.contains("WHERE rowid >") }.isEmpty)
        #expect(try catalog.store.rowCount(of: "app") == 5)
        #expect(try catalog.store.hasTable("app") && !catalog.store.hasTable("nothing"))

        // A catalog from before the count was kept counts once, then keeps it.
        try catalog.store.database.execute("UPDATE epf_table_info SET row_count = NULL")
        let next = try catalog.apply(Self.apps("INCREMENTAL", rows: [["6", "six", "60"]]), as: "app")
        #expect([next.rowsAfter, next.inserted, next.updated] == [6, 1, 0])
        #expect(try catalog.rows("SELECT row_count FROM epf_table_info WHERE table_name = 'app'") == [[.integer(6)]])
    }

    @Test func incrementalForANewTableCreatesItWithAKey() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps("INCREMENTAL", rows: [["7", "seven", "70"], ["7", "seven again", "71"]]), as: "fresh")
        #expect(try catalog.rows("SELECT id, title, size FROM fresh") == [[.integer(7), .text("seven again"), .integer(71)]])
        #expect(try catalog.rows("SELECT count(*) FROM pragma_index_list('fresh') WHERE \"unique\" = 1") == [[.integer(1)]])
    }

    @Test func tablesOfOneApplyGoLiveTogetherOrNotAtAll() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.apps(rows: [["1", "one", "10"]]), as: "app")
        try catalog.apply(Self.apps(rows: [["1", "x", "1"]]), as: "other")
        let good = try catalog.stage(Self.apps(rows: [["9", "nine", "90"]]), as: "app")
        // An INCREMENTAL whose live table has repeated keys cannot be applied.
        try catalog.store.database.execute(
            "CREATE TABLE dup (id BIGINT, title TEXT, size BIGINT); INSERT INTO dup VALUES (1,'a',1),(1,'b',2)")
        let bad = try catalog.stage(Self.apps("INCREMENTAL", rows: [["1", "c", "3"]]), as: "dup")
        #expect(throws: CatalogError.self) { try catalog.store.apply([good, bad], journal: []) }
        #expect(try catalog.rows("SELECT id FROM app") == [[.integer(1)]])
        #expect(try catalog.rows("SELECT count(*) FROM dup") == [[.integer(2)]])
    }

    @Test func journalEntriesAreWrittenWithTheApply() throws {
        let catalog = try TemporaryCatalog()
        let staged = try catalog.stage(Self.apps(rows: [["1", "one", "10"]]), as: "app")
        let entry = JournalEntry(
            feed: "itunes", feedDate: "2026-11-01", table: "app", exportDate: 1_793_491_200_000, mode: "FULL", rows: 1,
            repairedRows: 0, skippedRows: 0, sourcePath: "itunes20261101/app", sourceSize: 99,
            startedAt: "2026-11-22T08:00:00Z", finishedAt: "2026-11-22T08:00:01Z", status: .applied, message: nil, details: "{}")
        _ = try catalog.store.apply([staged], journal: [entry])
        let rows = try catalog.rows("SELECT feed, feed_date, table_name, export_date, mode, rows, source_size, status FROM epf_journal")
        #expect(
            rows == [
                [
                    .text("itunes"), .text("2026-11-01"), .text("app"), .integer(1_793_491_200_000), .text("FULL"), .integer(1),
                    .integer(99), .text("applied"),
                ]
            ])
        let info = try catalog.rows("SELECT export_mode, primary_key FROM epf_table_info WHERE table_name = 'app'")
        #expect(info == [[.text("FULL"), .text("[\"id\"]")]])
    }

    @Test func leftoverStagingTablesAreDroppedOnOpen() throws {
        let catalog = try TemporaryCatalog()
        try catalog.store.database.execute("CREATE TABLE epf_stage_app (id INTEGER)")
        let reopened = try catalog.reopen()
        #expect(reopened.droppedLeftovers == ["epf_stage_app"])
        #expect(try !reopened.database.tableExists("epf_stage_app"))
    }

    @Test func newCatalogsUseSixteenKilobytePages() throws {
        let catalog = try TemporaryCatalog()
        #expect(try catalog.rows("PRAGMA page_size") == [[.integer(16_384)]])
    }

    /// Debian's SQLite zeroes freed pages by default (SQLITE_SECURE_DELETE),
    /// which made the drop of a replaced table cost about a fresh load.
    @Test func theImportConnectionDoesNotZeroFreedPages() throws {
        let catalog = try TemporaryCatalog()
        #expect(try catalog.rows("PRAGMA secure_delete") == [[.integer(0)]])
    }
}
