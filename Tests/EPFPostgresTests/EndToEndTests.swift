import EPFCatalog
import EPFFormat
import EPFImport
import EPFPostgres
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// The same imports into SQLite and into PostgreSQL, compared value by
/// value (through `CanonicalCatalog`), with their journals.
@Suite("PostgreSQL against SQLite, end to end", .enabled(if: TestServer.available, TestServer.skipReason))
struct EndToEndTests {
    @Test("Sample feeds: every table equals SQLite's after each feed", arguments: 1...4)
    func sampleFeeds(feedCount: Int) throws {
        let paths = SampleFeeds.pathsInOrder.prefix(feedCount)
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let run = try importIntoBoth(Array(paths), folder: folder, database: database)
            #expect(run.postgresReports.allSatisfy { $0.status == .applied }, "\(run.postgresReports.compactMap(\.error))")
            #expect(run.sqliteReports.map(\.rows) == run.postgresReports.map(\.rows))
            #expect(run.sqliteReports.map(\.counts) == run.postgresReports.map(\.counts))
            #expect(run.sqliteReports.map(\.outcome) == run.postgresReports.map(\.outcome))
            let sqlite = try CanonicalCatalog(sqlite: run.sqlite)
            let connection = try database.connect()
            let postgres = try CanonicalCatalog(postgres: connection)
            #expect(!sqlite.tables.isEmpty)
            sqlite.expectEqual(to: postgres)
            #expect(try journalSummary(sqlite: run.sqlite) == journalSummary(postgres: connection))
            // Nothing of the loads is left behind.
            #expect(try connection.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
            #expect(try connection.scalar("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'epf_stage_%'") == "0")
        }
    }

    /// A generated week's second INCREMENTAL day repeats the first's
    /// changes: both stores leave out the same rows (the same counts of
    /// inserted, updated and unchanged rows per file) and end with the same
    /// tables, `export_date` included.
    @Test("Change detection: both stores write only what changed, and agree")
    func changeDetection() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let feeds = folder.appendingPathComponent("feeds")
            let generated = try EPFRunner.run(
                ["generate", "--all-tables", "--rows", "2000", "--storefronts", "2", "--days", "2", "--out", feeds.path], in: folder)
            try #require(generated.status == 0, "\(generated.stderr)")
            let run = try importIntoBoth([feeds.path], folder: folder, database: database)
            #expect(run.postgresReports.allSatisfy { $0.status == .applied }, "\(run.postgresReports.compactMap(\.error))")
            #expect(run.sqliteReports.map(\.outcome) == run.postgresReports.map(\.outcome))
            let day2 = run.sqliteReports.filter { $0.feedDate == "2026-11-03" }
            // Day 2 repeats day 1's rows: both stores kept day 1's digests
            // and left the same rows out.
            let known = { (reports: [FileReport]) in reports.filter { $0.feedDate == "2026-11-03" }.map(\.counts.knownRows) }
            #expect(known(run.sqliteReports) == known(run.postgresReports))
            #expect(known(run.postgresReports).reduce(0, +) > 0)
            for table in ["application", "application_detail", "application_price"] {
                let outcome = try #require(day2.first { $0.table == table }?.outcome, "day 2 of \(table)")
                let rows = try #require(day2.first { $0.table == table }?.rows)
                #expect(outcome.unchanged > 0, "\(table): \(outcome)")
                #expect(outcome.inserted + outcome.updated + outcome.unchanged == rows, "\(table): \(outcome), \(rows) rows")
            }
            let sqlite = try CanonicalCatalog(sqlite: run.sqlite)
            sqlite.expectEqual(to: try CanonicalCatalog(postgres: try database.connect()))
            // The same change log on both, prices compared as numbers.
            let connection = try database.connect()
            for (sql, prices) in [
                ("SELECT application_id, kind, value_before, value_after, export_date FROM epf_app_change", false),
                ("SELECT application_id, storefront_id, price_before, price_after, export_date FROM epf_price_change", true),
            ] {
                func number(_ text: String) -> String { Double(text).map { String(format: "%.3f", $0) } ?? text }
                let fromSQLite = try RawSQLiteReader(path: run.sqlite).rows(sql).map { row in
                    row.enumerated().map { column, value -> String in
                        switch value {
                        case .integer(let integer): prices && (2...3).contains(column) ? number(String(integer)) : String(integer)
                        case .real(let real): number(String(real))
                        case .null: "NULL"
                        default: value.string ?? value.description
                        }
                    }
                }
                let fromPostgres = try connection.query(sql).map { row in
                    row.enumerated().map { column, value in
                        value.map { prices && (2...3).contains(column) ? number($0) : $0 } ?? "NULL"
                    }
                }
                let order = { (left: [String], right: [String]) in left.joined(separator: "|") < right.joined(separator: "|") }
                #expect(fromSQLite.sorted(by: order) == fromPostgres.sorted(by: order), "\(sql)")
                #expect(!fromSQLite.isEmpty, "\(sql)")
            }
        }
    }

    @Test("Running the same import again imports nothing")
    func rerun() throws {
        let database = try TestDatabase()
        let paths = SampleFeeds.pathsInOrder
        let first = try runImport(paths, into: try database.store())
        #expect(first.allSatisfy { $0.status == .applied })
        let store = try database.store()
        let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter())
        let schedule = ImportSchedule(plan: plan, applied: try store.appliedFiles(), force: false)
        #expect(schedule.units.isEmpty)
        #expect(try PostgresCatalogStore.appliedFiles(at: database.target).count == first.count)
    }

    @Test(
        "A generated feed of two tables, loaded at once, each over one or three COPY connections, equals SQLite's",
        arguments: [(1, 1), (2, 1), (2, 3)])
    func generatedFeed(parallelTables: Int, copyStreams: Int) throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let feed = folder.appendingPathComponent("feed")
            try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
            let generator = FeedGenerator(rows: 3_000, seed: 7, storefronts: 4)
            try generator.writeApplication(to: feed.path)
            try generator.writePrices(to: feed.path)
            // Small chunks and commits: many batches, several COPY commits.
            let run = try importIntoBoth(
                [feed.path], folder: folder, database: database, options: ImportOptions(chunkSize: 1 << 20),
                parallelTables: parallelTables,
                postgresOptions: PostgresStoreOptions(
                    commitBytes: 1 << 20, flushBytes: 64 << 10, copyStreams: copyStreams, parallelCopyBytes: 0))
            #expect(run.postgresReports.map(\.status) == [.applied, .applied])
            #expect(run.postgresReports.map(\.rows) == [3_000, 12_000])
            try CanonicalCatalog(sqlite: run.sqlite).expectEqual(to: CanonicalCatalog(postgres: database.connect()))
        }
    }

    @Test("UNLOGGED staging gives the same catalog, and logged live tables")
    func unloggedStaging() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let run = try importIntoBoth(
                SampleFeeds.pathsInOrder, folder: folder, database: database,
                postgresOptions: PostgresStoreOptions(unloggedStaging: true))
            #expect(run.postgresReports.allSatisfy { $0.status == .applied })
            let connection = try database.connect()
            try CanonicalCatalog(sqlite: run.sqlite).expectEqual(to: CanonicalCatalog(postgres: connection))
            let unlogged = try connection.scalar(
                "SELECT count(*) FROM pg_class WHERE relpersistence = 'u' AND relkind = 'r' AND relnamespace = 'public'::regnamespace")
            #expect(unlogged == "0")
        }
    }

    /// Every kind of value, fitting and not, and text that needs escaping
    /// or repair.
    static let typedColumns = ["id", "n", "flag", "price", "released", "day", "name", "notes"]
    static let typedTypes = ["BIGINT", "INTEGER", "BOOLEAN", "DECIMAL(9,3)", "DATETIME", "DATE", "VARCHAR(10)", "LONGTEXT"]

    static func typedRows() -> [[[UInt8]]] {
        let rows: [[String]] = [
            ["1", "+7", "1", "2.990", "2012 03 06", "2012 03 06", "tab\there", "line\none\r\nback\\slash"],
            ["2", "007", "true", "12345678901.000", "2012 03 06 10 00 00", "2012-03-06 00:00:00", "", ""],
            ["3", "12.5", "yes", "n/a", "1999", "2012 02 31", "\\N", "\\."],
            ["4", "99999999999999999999", "FALSE", ".5", "2005-09-06-00:00:00-Etc/GMT", "2012 03 06 10 00 00", "\u{7}bell", "日本語 🎉"],
            ["5", "-9223372036854775808", "0", "-0.000", "2012 06 30 23 59 60", "0001 01 01", "x", "1.5e3"],
            ["6", "", "", "", "", "", "", ""],
        ]
        var raw = rows.map { $0.map { Array($0.utf8) } }
        // Invalid UTF-8 and NUL bytes in text.
        raw.append([Array("7".utf8), Array("1".utf8), [], [], [], [], [0x61, 0x80, 0x62], [0x63, 0x00, 0x64, 0xE6, 0x97]])
        return raw
    }

    @Test("Values of every type, fitting or not, as SQLite reads them; unfit ones NULL, counted and kept")
    func typedValues() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let feed = folder.appendingPathComponent("itunes20261101")
            try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
            try Data(
                tableFileBytes(columns: Self.typedColumns, types: Self.typedTypes, key: ["id"], mode: "FULL", rawRows: Self.typedRows())
            )
            .write(to: feed.appendingPathComponent("typed"))
            let run = try importIntoBoth([feed.path], folder: folder, database: database)
            let report = try #require(run.postgresReports.first)
            #expect(report.status == .applied, "\(report.error ?? "")")
            // The same counters as SQLite, except what PostgreSQL cannot
            // hold: the leap second and the DATE with a time of day, which
            // SQLite keeps as normalised text.
            var expected = try #require(run.sqliteReports.first).counts
            expected.unparsedDates += 2
            #expect(report.counts == expected)
            #expect(report.counts.nulBytes == 1 && report.counts.invalidUTF8Sequences == 2)
            let connection = try database.connect()
            try CanonicalCatalog(sqlite: run.sqlite).expectEqual(to: CanonicalCatalog(postgres: connection), compareUnfit: false)
            let kept = try connection.query(
                "SELECT record::text, column_name, declared_type, value FROM epf_unfit_values ORDER BY record, column_name")
            #expect(
                kept.map { $0.map { $0 ?? "NULL" } } == [
                    ["3", "day", "DATE", "2012 02 31"], ["3", "flag", "BOOLEAN", "yes"], ["3", "n", "INTEGER", "12.5"],
                    ["3", "price", "DECIMAL(9,3)", "n/a"], ["3", "released", "DATETIME", "1999"],
                    ["4", "day", "DATE", "2012 03 06 10 00 00"], ["4", "n", "INTEGER", "99999999999999999999"],
                    ["5", "released", "DATETIME", "2012 06 30 23 59 60"],
                ])
            // The stored forms themselves.
            let stored = try connection.query(
                "SELECT id::text, n::text, flag::text, price::text, released::text, day::text, name, notes FROM typed ORDER BY id")
            #expect(stored[0] == ["1", "7", "true", "2.990", "2012-03-06 00:00:00", "2012-03-06", "tab\there", "line\none\r\nback\\slash"])
            #expect(stored[1] == ["2", "7", "true", "12345678901.000", "2012-03-06 10:00:00", "2012-03-06", nil, nil])
            #expect(stored[2] == ["3", nil, nil, nil, nil, nil, "\\N", "\\."])
            #expect(stored[3] == ["4", nil, "false", "0.5", "2005-09-06 00:00:00", nil, "\u{7}bell", "日本語 🎉"])
            #expect(stored[4] == ["5", "-9223372036854775808", "false", "0.000", nil, "0001-01-01", "x", "1.5e3"])
            #expect(stored[5] == ["6", nil, nil, nil, nil, nil, nil, nil])
            #expect(stored[6] == ["7", "1", nil, nil, nil, nil, "a\u{FFFD}b", "cd\u{FFFD}"])
            let types = try connection.query(
                "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'typed'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum"
            )
            #expect(
                types.map { $0[0] ?? "" } == [
                    "bigint", "bigint", "boolean", "numeric", "timestamp without time zone", "date", "text", "text",
                ])
        }
    }

    @Test("--strict refuses a row with NUL bytes, as SQLite does")
    func strict() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("typed")
            try Data(
                tableFileBytes(columns: Self.typedColumns, types: Self.typedTypes, key: ["id"], mode: "FULL", rawRows: Self.typedRows())
            )
            .write(to: file)
            let run = try importIntoBoth([file.path], folder: folder, database: database, options: ImportOptions(strict: true))
            #expect(run.postgresReports.map(\.status) == [.failed])
            #expect(run.postgresReports.map(\.error) == run.sqliteReports.map(\.error))
            #expect(try database.connect().scalar("SELECT to_regclass('typed') IS NULL") == "t")
        }
    }

    @Test("INCREMENTAL: repeated keys keep the last row, upserted by key, as in SQLite")
    func incrementalUpsert() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let columns = ["export_date", "id", "storefront", "name", "price"]
            let types = ["BIGINT", "INTEGER", "INTEGER", "VARCHAR(100)", "DECIMAL(9,3)"]
            let full = folder.appendingPathComponent("pricing20261101")
            let day = folder.appendingPathComponent("pricing20261102")
            for folder in [full, day] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            try Data(
                tableFileBytes(
                    columns: columns, types: types, key: ["id", "storefront"], mode: "FULL",
                    rows: [
                        ["1", "10", "1", "a", "1.00"], ["1", "10", "2", "b", "2.00"], ["1", "11", "1", "c", "3.00"],
                        ["1", "10", "1", "a2", "1.50"],
                    ])
            ).write(to: full.appendingPathComponent("price"))
            try Data(
                tableFileBytes(
                    columns: columns + ["extra"], types: types + ["VARCHAR(10)"], key: ["id", "storefront"], mode: "INCREMENTAL",
                    rows: [
                        ["2", "10", "1", "first", "9.00", "x"], ["2", "12", "1", "new", "4.00", "y"],
                        ["2", "10", "1", "last", "9.50", "z"],
                        ["2", "", "1", "empty key", "0", ""], ["2", "", "1", "empty key again", "0", ""],
                    ])
            ).write(to: day.appendingPathComponent("price"))
            let run = try importIntoBoth([full.path, day.path], folder: folder, database: database)
            #expect(run.postgresReports.map(\.status) == [.applied, .applied], "\(run.postgresReports.compactMap(\.error))")
            #expect(run.postgresReports.map(\.counts.duplicateKeys) == [1, 2])
            #expect(run.sqliteReports.map(\.outcome) == run.postgresReports.map(\.outcome))
            let connection = try database.connect()
            try CanonicalCatalog(sqlite: run.sqlite).expectEqual(to: CanonicalCatalog(postgres: connection))
            #expect(try connection.query("SELECT name, price::text FROM price WHERE id = 10 AND storefront = 1") == [["last", "9.50"]])
            // The empty key field is NULL in a BIGINT column; NULLS NOT
            // DISTINCT makes it one key, as SQLite's '' is.
            #expect(try connection.query("SELECT name FROM price WHERE id IS NULL") == [["empty key again"]])
        }
    }

    @Test("A feed with a failing file applies nothing, like SQLite, and leaves no staging")
    func failingFeed() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let feed = folder.appendingPathComponent("itunes20261101")
            try FileManager.default.copyItem(atPath: SampleFeeds.path("itunes20261101"), toPath: feed.path)
            // Cut the footer off one file.
            let storefront = feed.appendingPathComponent("storefront")
            var bytes = [UInt8](try Data(contentsOf: storefront))
            bytes.removeLast(30)
            try Data(bytes).write(to: storefront)
            let run = try importIntoBoth([feed.path], folder: folder, database: database)
            #expect(run.postgresReports.map(\.status) == run.sqliteReports.map(\.status))
            #expect(run.postgresReports.contains { $0.status == .failed })
            let connection = try database.connect()
            #expect(
                try connection.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'epf\\_%'") == "0")
            #expect(try connection.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
            #expect(
                try journalSummary(sqlite: run.sqlite).map { $0.prefix(6) } == journalSummary(postgres: connection).map { $0.prefix(6) })
        }
    }
}
