import EPFCatalog
import EPFPostgres
import EPFSQLite
import Foundation
import Testing

/// The importer's own tables in PostgreSQL: made by `CatalogMigration`
/// steps, recorded in `epf_schema`, older catalogs upgraded on open, newer
/// ones refused.
@Suite("Catalog migrations against a server", .enabled(if: TestServer.available, TestServer.skipReason))
struct PostgresMigrationTests {
    static let everyStep = CatalogMigration.allCases.map(\.rawValue)

    /// The identifiers `epf_schema` records, in the order recorded.
    static func recorded(_ connection: PostgresConnection) throws -> [String] {
        try connection.query("SELECT identifier FROM epf_schema ORDER BY ctid").compactMap { $0.first ?? nil }
    }

    static func columns(of table: String, _ connection: PostgresConnection) throws -> [String] {
        try connection.query(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", [table]
        ).compactMap { $0.first ?? nil }
    }

    /// The importer's tables, their columns, and the steps recorded: equal
    /// before and after an open that changes nothing.
    static func shape(_ database: TestDatabase) throws -> [[String?]] {
        let connection = try database.connect()
        return try connection.query(
            """
            SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """) + connection.query("SELECT identifier, applied_at FROM epf_schema ORDER BY identifier")
    }

    @Test("A new catalog records every step, in order")
    func aNewCatalogRecordsEveryStep() throws {
        let database = try TestDatabase()
        _ = try database.store()
        let connection = try database.connect()
        #expect(try Self.recorded(connection) == Self.everyStep)
        #expect(try Self.columns(of: "epf_journal", connection).suffix(4) == ["origin_size", "origin_md5", "origin_mtime", "origin_hash"])
        #expect(
            Set(try Self.columns(of: "epf_checkpoint", connection)).isSuperset(of: [
                "source", "header", "counts", "first_export_date", "key_index",
            ]))
        #expect(try connection.scalar("SELECT to_regclass('epf_unfit_values') IS NOT NULL") == "t")
    }

    @Test("A catalog of the first PostgreSQL version is upgraded on open, its rows kept; opening again changes nothing")
    func theFirstVersionIsUpgraded() throws {
        let database = try TestDatabase()
        do {
            // The tables as the first PostgreSQL store made them.
            let connection = try database.connect()
            try connection.execute(
                """
                CREATE TABLE epf_journal (
                    id BIGSERIAL PRIMARY KEY, feed TEXT, feed_date TEXT, table_name TEXT NOT NULL, export_date BIGINT,
                    mode TEXT, rows BIGINT NOT NULL, repaired_rows BIGINT NOT NULL, skipped_rows BIGINT NOT NULL,
                    source_path TEXT NOT NULL, source_size BIGINT, started_at TEXT NOT NULL, finished_at TEXT NOT NULL,
                    status TEXT NOT NULL, message TEXT, details TEXT, origin_size BIGINT, origin_md5 TEXT);
                CREATE TABLE epf_table_info (
                    table_name TEXT PRIMARY KEY, feed TEXT, export_mode TEXT NOT NULL, export_date BIGINT,
                    columns TEXT NOT NULL, primary_key TEXT NOT NULL, source_path TEXT, applied_at TEXT NOT NULL);
                CREATE TABLE epf_checkpoint (
                    load_id BIGSERIAL PRIMARY KEY, table_name TEXT NOT NULL, staging_name TEXT NOT NULL,
                    source_path TEXT NOT NULL, export_mode TEXT NOT NULL, byte_offset BIGINT NOT NULL, rows BIGINT NOT NULL,
                    phase TEXT NOT NULL, started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
                    updated_at TIMESTAMPTZ NOT NULL DEFAULT now());
                CREATE TABLE epf_unfit_values (
                    load_id BIGINT NOT NULL, table_name TEXT NOT NULL, source_path TEXT NOT NULL, record BIGINT NOT NULL,
                    column_name TEXT NOT NULL, declared_type TEXT NOT NULL, value TEXT NOT NULL);
                CREATE TABLE genre (genre_id BIGINT PRIMARY KEY, name TEXT);
                INSERT INTO genre VALUES (1, 'Games');
                INSERT INTO epf_journal (feed, feed_date, table_name, export_date, mode, rows, repaired_rows, skipped_rows,
                    source_path, started_at, finished_at, status, origin_size, origin_md5)
                VALUES ('itunes', '20261101', 'genre', 1, 'FULL', 1, 0, 0, '/feeds/itunes20261101/genre',
                        '2026-11-23T05:00:00Z', '2026-11-23T05:00:01Z', 'applied', 805, NULL),
                       ('itunes', '20261102', 'genre', 2, 'INCREMENTAL', 0, 0, 0, '/feeds/itunes20261102/genre',
                        '2026-11-23T06:00:00Z', '2026-11-23T06:00:01Z', 'failed', NULL, NULL);
                INSERT INTO epf_table_info VALUES ('genre', 'itunes', 'FULL', 1, '["genre_id","name"]', '["genre_id"]',
                    '/feeds/itunes20261101/genre', '2026-11-23T05:00:01Z');
                INSERT INTO epf_checkpoint (table_name, staging_name, source_path, export_mode, byte_offset, rows, phase)
                VALUES ('genre', 'epf_stage_genre', '/feeds/itunes20261102/genre', 'FULL', 300, 2, 'loading');
                INSERT INTO epf_unfit_values VALUES (1, 'genre', '/feeds/itunes20261102/genre', 2, 'genre_id', 'INTEGER', 'x');
                """)
        }
        // --dry-run reads the old journal as it is, migrating nothing.
        #expect(try PostgresCatalogStore.appliedFiles(at: database.target).map(\.originSize) == [805])
        #expect(try database.connect().scalar("SELECT to_regclass('epf_schema') IS NULL") == "t")

        var store: PostgresCatalogStore? = try database.store()
        let connection = try database.connect()
        // What it had is recognised, then the rest applied in order.
        #expect(
            try Self.recorded(connection)
                == [
                    "journal-and-table-info", "journal-origin-size-md5", "checkpoints", "checkpoint-resume-columns",
                    "journal-origin-mtime", "journal-origin-hash", "checkpoints-shared", "table-info-row-count", "row-digests",
                    "change-log", "application-digests",
                ])
        #expect(Set(try Self.columns(of: "epf_journal", connection)).isSuperset(of: ["origin_hash", "origin_mtime"]))
        #expect(Set(try Self.columns(of: "epf_checkpoint", connection)).isSuperset(of: ["source", "header", "key_index"]))
        #expect(try connection.scalar("SELECT count(*) FROM epf_journal") == "2")
        // The first version's checkpoint says nothing a load resumes from:
        // it goes with its unfit values; the table has the shared form.
        #expect(try connection.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
        #expect(try connection.scalar("SELECT count(*) FROM epf_unfit_values") == "0")
        #expect(
            try Self.columns(of: "epf_checkpoint", connection)
                == [
                    "load_id", "table_name", "staging_name", "byte_offset", "records", "phase", "updated_at", "source", "header", "counts",
                    "first_export_date", "key_index",
                ])
        let applied = try #require(try store?.appliedFiles())
        #expect(applied.map(\.feedDate) == ["20261101"] && applied.map(\.originSize) == [805])
        #expect(try PostgresCatalogAdmin(target: database.target).tables().map(\.name) == ["genre"])

        store = nil
        let before = try Self.shape(database)
        store = try database.store()
        #expect(try Self.shape(database) == before)
    }

    @Test("A load in progress when epf was upgraded keeps its checkpoint, load id and unfit values")
    func aCheckpointSurvivesTheSharedForm() throws {
        let database = try TestDatabase()
        _ = try database.store()
        // Back to the table as it was before the shared form, with a load.
        try database.connect().execute(
            """
            DELETE FROM epf_schema WHERE identifier = 'checkpoints-shared';
            DROP TABLE epf_checkpoint;
            \(PostgresCheckpointTable.createSQL);
            \(PostgresCheckpointTable.resumeColumnsSQL);
            SELECT setval('epf_checkpoint_load_id_seq', 40);
            INSERT INTO epf_checkpoint (table_name, staging_name, source_path, export_mode, byte_offset, rows, phase, updated_at,
                source, header, counts, first_export_date)
            VALUES ('genre', 'epf_stage_genre', '/feeds/genre', 'FULL', 300, 2, 'loading', '2026-11-23 06:07:08+00',
                '{"path":"/feeds/genre"}', 'genre_id,name|x', '{"rowsRead":2}', 1);
            INSERT INTO epf_unfit_values VALUES (41, 'genre', '/feeds/genre', 2, 'genre_id', 'INTEGER', 'x');
            CREATE TABLE epf_stage_genre (genre_id BIGINT, name TEXT, epf_record BIGINT NOT NULL);
            INSERT INTO epf_stage_genre VALUES (1, 'Games', 1), (2, 'Books', 2);
            """)
        let store = try database.store()
        let connection = try database.connect()
        #expect(try Self.recorded(connection).last == "checkpoints-shared")
        #expect(store.resumableLoads == [ResumableLoad(staging: "epf_stage_genre", table: "genre", records: 2)])
        #expect(
            try connection.query("SELECT load_id::text, records::text, byte_offset::text, updated_at FROM epf_checkpoint")
                == [["41", "2", "300", "2026-11-23T06:07:08Z"]])
        #expect(try connection.scalar("SELECT load_id::text FROM epf_unfit_values") == "41")
        // New loads are numbered after it.
        #expect(try connection.scalar("SELECT nextval('epf_checkpoint_load_id_seq')") == "42")
    }

    @Test("A catalog that records a step unknown to this version is refused and left alone; readers read it")
    func aNewerCatalogIsRefused() throws {
        let database = try TestDatabase()
        _ = try database.store()
        try database.connect().execute(
            """
            INSERT INTO epf_schema VALUES ('journal-origin-colour', '2030-01-01T00:00:00Z');
            CREATE TABLE genre (genre_id BIGINT PRIMARY KEY, name TEXT);
            """)
        let before = try Self.shape(database)
        let error = try #require(throws: CatalogError.self) { try database.store() }
        #expect(
            error.description
                == "\(database.target.redacted) was written by a newer version of epf (schema step journal-origin-colour unknown to this one); use that version or newer"
        )
        #expect(try Self.shape(database) == before)
        #expect(try PostgresCatalogAdmin(target: database.target).tables().map(\.name) == ["genre"])
    }
}
