import EPFCatalog
import EPFSQLite
import Foundation
import Testing

/// The importer's own tables: made by `CatalogMigration` steps, recorded in
/// `epf_schema`, older catalogs upgraded on open, newer ones refused.
@Suite("Catalog migrations")
struct MigrationTests {
    /// A catalog path in a folder of its own, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("epf-migrations-\(UUID().uuidString)")
        var catalog: String { url.appendingPathComponent("catalog.sqlite").path }
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let everyStep = CatalogMigration.allCases.map(\.rawValue)

    /// The identifiers `epf_schema` records, in the order recorded.
    static func recorded(_ database: SQLiteDatabase) throws -> [String] {
        try database.rows("SELECT identifier FROM epf_schema ORDER BY rowid").compactMap { $0.first?.textValue }
    }

    /// Everything that says what the catalog's tables are and which steps it
    /// has had: equal before and after an open that changes nothing.
    static func shape(of path: String) throws -> [[SQLValue]] {
        let database = try SQLiteDatabase(path: path)
        return try database.rows("SELECT type, name, sql FROM sqlite_schema ORDER BY name")
            + database.rows("SELECT identifier, applied_at FROM epf_schema ORDER BY identifier")
    }

    /// The journal and table info as the first catalogs had them, with two
    /// journal rows and one table.
    static func makeFirstVersionCatalog(at path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE epf_journal (
                id INTEGER PRIMARY KEY, feed TEXT, feed_date TEXT, table_name TEXT NOT NULL, export_date INTEGER,
                mode TEXT, rows INTEGER NOT NULL, repaired_rows INTEGER NOT NULL, skipped_rows INTEGER NOT NULL,
                source_path TEXT NOT NULL, source_size INTEGER, started_at TEXT NOT NULL, finished_at TEXT NOT NULL,
                status TEXT NOT NULL, message TEXT, details TEXT);
            CREATE TABLE epf_table_info (
                table_name TEXT PRIMARY KEY, feed TEXT, export_mode TEXT NOT NULL, export_date INTEGER,
                columns TEXT NOT NULL, primary_key TEXT NOT NULL, source_path TEXT, applied_at TEXT NOT NULL);
            CREATE TABLE genre (genre_id INTEGER, name TEXT);
            INSERT INTO genre VALUES (1, 'Games');
            INSERT INTO epf_journal (feed, feed_date, table_name, export_date, mode, rows, repaired_rows, skipped_rows,
                source_path, started_at, finished_at, status)
            VALUES ('itunes', '20261101', 'genre', 1, 'FULL', 1, 0, 0, '/feeds/itunes20261101/genre',
                    '2026-11-22T08:00:00Z', '2026-11-22T08:00:01Z', 'applied'),
                   ('itunes', '20261102', 'genre', 2, 'INCREMENTAL', 0, 0, 0, '/feeds/itunes20261102/genre',
                    '2026-11-22T09:00:00Z', '2026-11-22T09:00:01Z', 'failed');
            INSERT INTO epf_table_info VALUES ('genre', 'itunes', 'FULL', 1, '["genre_id","name"]', '["genre_id"]',
                '/feeds/itunes20261101/genre', '2026-11-22T08:00:01Z');
            """)
    }

    @Test func aNewCatalogRecordsEveryStepInOrder() throws {
        let folder = try Folder()
        let store = try SQLiteCatalogStore(path: folder.catalog)
        #expect(try Self.recorded(store.database) == Self.everyStep)
        let journal = try store.database.columnNames(of: CatalogTables.journal)
        #expect(journal.suffix(4) == ["origin_size", "origin_md5", "origin_mtime", "origin_hash"])
        #expect(try store.database.tableExists("epf_checkpoint"))
        #expect(try store.database.tableExists(CatalogTables.tableInfo))
    }

    @Test func aFirstVersionCatalogIsUpgradedOnOpenKeepingItsRows() throws {
        let folder = try Folder()
        try Self.makeFirstVersionCatalog(at: folder.catalog)

        var store: SQLiteCatalogStore? = try SQLiteCatalogStore(path: folder.catalog)
        let database = try #require(store?.database)
        #expect(try Self.recorded(database) == Self.everyStep)
        #expect(
            Set(try database.columnNames(of: "epf_journal")).isSuperset(of: ["origin_size", "origin_md5", "origin_hash", "origin_mtime"]))
        #expect(try database.tableExists("epf_checkpoint"))
        // The rows are kept, and the importer reads them as before.
        #expect(try database.scalar("SELECT count(*) FROM epf_journal") == .integer(2))
        #expect(try database.scalar("SELECT name FROM genre") == .text("Games"))
        let applied = try #require(try store?.appliedFiles())
        #expect(applied.map(\.feedDate) == ["20261101"])
        #expect(applied.first?.originSize == nil && applied.first?.originHash == nil)
        #expect(try SQLiteCatalogAdmin(path: folder.catalog).tables().map(\.name) == ["genre"])

        // Opening again changes nothing.
        store = nil
        let before = try Self.shape(of: folder.catalog)
        store = try SQLiteCatalogStore(path: folder.catalog)
        #expect(try Self.shape(of: folder.catalog) == before)
    }

    @Test func aCatalogMadeBeforeTheSchemaTableHasItsStepsRecordedWithoutRunning() throws {
        // As the last version without epf_schema left a catalog: every
        // column there (running a step again would fail: duplicate column),
        // and a load in progress. Only the steps it lacks run: the
        // checkpoint table takes the shared form, its row kept, and the
        // table info gets its row count.
        let folder = try Folder()
        do {
            let database = try SQLiteDatabase(path: folder.catalog)
            try database.execute(
                """
                CREATE TABLE epf_journal (id INTEGER PRIMARY KEY, feed TEXT, feed_date TEXT, table_name TEXT NOT NULL,
                    export_date INTEGER, mode TEXT, rows INTEGER NOT NULL, repaired_rows INTEGER NOT NULL,
                    skipped_rows INTEGER NOT NULL, source_path TEXT NOT NULL, source_size INTEGER, started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL, status TEXT NOT NULL, message TEXT, details TEXT, origin_size INTEGER,
                    origin_md5 TEXT, origin_hash TEXT, origin_mtime INTEGER);
                CREATE TABLE epf_table_info (table_name TEXT PRIMARY KEY, feed TEXT, export_mode TEXT NOT NULL,
                    export_date INTEGER, columns TEXT NOT NULL, primary_key TEXT NOT NULL, source_path TEXT,
                    applied_at TEXT NOT NULL);
                CREATE TABLE epf_checkpoint (staging_name TEXT PRIMARY KEY, table_name TEXT NOT NULL, source TEXT NOT NULL,
                    header TEXT NOT NULL, byte_offset INTEGER NOT NULL, records INTEGER NOT NULL, counts TEXT NOT NULL,
                    first_export_date INTEGER, phase TEXT NOT NULL, key_index TEXT, updated_at TEXT NOT NULL);
                INSERT INTO epf_checkpoint VALUES ('epf_stage_genre', 'genre', '{"path":"/feeds/genre"}', 'genre_id,name|x', 120,
                    7, '{"rowsRead":7}', 1, 'loading', NULL, '2026-11-22T08:00:00Z');
                CREATE TABLE epf_stage_genre (genre_id INTEGER, name TEXT);
                """)
        }
        let tablesBefore = try SQLiteDatabase(path: folder.catalog).rows(
            "SELECT name, sql FROM sqlite_schema WHERE name LIKE 'epf%' AND name NOT IN ('epf_checkpoint', 'epf_table_info') ORDER BY name")
        let store = try SQLiteCatalogStore(path: folder.catalog)
        #expect(try Self.recorded(store.database) == Self.everyStep)
        #expect(store.resumableLoads.map(\.table) == ["genre"])
        #expect(
            try store.database.rows(
                "SELECT name, sql FROM sqlite_schema WHERE name LIKE 'epf%' AND name NOT IN ('epf_schema', 'epf_checkpoint', 'epf_table_info', 'epf_row_digest', 'epf_price_change', 'epf_app_change', 'epf_application_digest') AND tbl_name NOT IN ('epf_price_change', 'epf_app_change') ORDER BY name"
            )
                == tablesBefore)
        #expect(try store.database.columnNames(of: "epf_table_info").suffix(2) == ["applied_at", "row_count"])
        #expect(
            try store.database.rows("SELECT load_id, staging_name, table_name, byte_offset, records, phase, updated_at FROM epf_checkpoint")
                == [
                    [
                        .integer(1), .text("epf_stage_genre"), .text("genre"), .integer(120), .integer(7), .text("loading"),
                        .text("2026-11-22T08:00:00Z"),
                    ]
                ])
    }

    @Test func aCatalogBetweenVersionsGetsOnlyTheStepsItLacks() throws {
        // Journals from before downloads were known by content: origin_mtime
        // but no origin_hash.
        let folder = try Folder()
        try Self.makeFirstVersionCatalog(at: folder.catalog)
        try SQLiteDatabase(path: folder.catalog).execute(
            """
            ALTER TABLE epf_journal ADD COLUMN origin_size INTEGER;
            ALTER TABLE epf_journal ADD COLUMN origin_md5 TEXT;
            ALTER TABLE epf_journal ADD COLUMN origin_mtime INTEGER;
            UPDATE epf_journal SET origin_mtime = 1700000000;
            """)
        let store = try SQLiteCatalogStore(path: folder.catalog)
        // Recognised first, then the rest in order.
        #expect(
            try Self.recorded(store.database)
                == [
                    "journal-and-table-info", "journal-origin-size-md5", "journal-origin-mtime", "checkpoints",
                    "checkpoint-resume-columns", "journal-origin-hash", "checkpoints-shared", "table-info-row-count", "row-digests",
                    "change-log", "application-digests",
                ])
        #expect(try store.database.columnNames(of: "epf_journal").last == "origin_hash")
        #expect(try store.appliedFiles().first?.originModified == 1_700_000_000)
    }

    @Test func aCatalogWithAStepUnknownToThisVersionIsRefusedAndLeftAlone() throws {
        let folder = try Folder()
        do {
            let store = try SQLiteCatalogStore(path: folder.catalog)
            try store.database.execute(
                """
                INSERT INTO epf_schema VALUES ('journal-origin-colour', '2030-01-01T00:00:00Z');
                CREATE TABLE genre (genre_id INTEGER, name TEXT);
                """)
        }
        let before = try Self.shape(of: folder.catalog)
        let error = try #require(throws: CatalogError.self) { try SQLiteCatalogStore(path: folder.catalog) }
        #expect(
            error.description
                == "\(folder.catalog) was written by a newer version of epf (schema step journal-origin-colour unknown to this one); use that version or newer"
        )
        #expect(try Self.shape(of: folder.catalog) == before)
        // Readers only read: they go on reading what they know of it.
        #expect(try SQLiteCatalogAdmin(path: folder.catalog).tables().map(\.name) == ["genre"])
    }
}
