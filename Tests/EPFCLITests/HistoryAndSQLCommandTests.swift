import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

@Suite("epf history and epf sql")
struct HistoryAndSQLCommandTests {
    /// Parses JSON output as an array of objects.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    // MARK: epf history

    @Test func historyListsEveryJournalRowNewestFirst() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["history", "--db", db, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.objects(result.stdout)
        #expect(rows.count == 14)
        let ids = rows.compactMap { $0["id"] as? Int }
        #expect(ids == Array((1...14).reversed()))
        let newest = try #require(rows.first)
        #expect(
            Set(newest.keys) == [
                "id", "started_at", "feed", "feed_date", "table_name", "mode", "status", "rows", "repaired_rows",
                "skipped_rows", "seconds", "source_path", "message",
            ])
        #expect(newest["feed"] as? String == "itunes")
        #expect(newest["feed_date"] as? String == "2026-11-02")
        #expect(newest["mode"] as? String == "INCREMENTAL")
        #expect(newest["status"] as? String == "applied")
        #expect(newest["rows"] is Int)
        // To the millisecond, as stored.
        #expect(newest["seconds"] is Double)
        let started = try #require(newest["started_at"] as? String)
        #expect(started.count == 24 && started.hasSuffix("Z") && Array(started)[19] == ".", "\(started)")
        #expect(newest["message"] is NSNull)
        #expect((newest["source_path"] as? String)?.contains("itunes20261102") == true)
    }

    @Test func historyTableFormatHasAHeaderAndOneLinePerRow() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["history", "--db", db])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 15)
        #expect(lines.first?.hasPrefix("id  started_at") == true)
    }

    /// A file's `seconds` in the journal is its load, as the import's
    /// summary says, not the time until its folder was applied: a small
    /// file read before a big one does not take the big one's time.
    @Test func historySecondsAreEachFilesOwnLoad() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = cli.path("feed")
        let generated = try cli.run(["generate", "--out", feed, "--rows", "40000", "--storefronts", "10"])
        #expect(generated.status == 0, "\(generated.stderr)")
        // A small `application` first, then 400,000 price rows.
        try FileManager.default.removeItem(atPath: feed + "/application")
        try FileManager.default.copyItem(atPath: SampleFeeds.path("itunes20261101") + "/application", toPath: feed + "/application")
        let imported = try cli.run(["import", "--db", cli.path("c.sqlite"), "--format", "json", feed])
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        let files = try #require(summary["files"] as? [[String: Any]])
        let history = try Self.objects(try cli.run(["history", "--db", cli.path("c.sqlite"), "--format", "json"]).stdout)
        #expect(files.count == 2 && history.count == 2)
        for file in files {
            let path = try #require(file["path"] as? String)
            let loaded = try #require(file["seconds"] as? Double)
            let row = try #require(history.first { $0["source_path"] as? String == path })
            let journaled = try #require(row["seconds"] as? Double)
            #expect(abs(journaled - loaded) < 0.005, "\(path): journal \(journaled) s, summary \(loaded) s")
        }
    }

    /// A table and CSV show seconds with two decimals and the start to the
    /// second; JSON has both to the millisecond (above).
    @Test func historyShowsSecondsWithTwoDecimals() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let csv = try cli.run(["history", "--db", db, "--format", "csv"])
        let rows = csv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 14)
        for row in rows {
            let seconds = String(row[10])
            #expect(seconds.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil, "\(seconds)")
            #expect(row[1].wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/) != nil, "\(row[1])")
        }
        let table = try cli.run(["history", "--db", db, "--limit", "1"]).stdout.split(separator: "\n")
        let header = try #require(table.first)
        let end = header.distance(from: header.startIndex, to: try #require(header.range(of: "seconds")).upperBound)
        // Right-aligned under its header, as numbers are: `0.01` ends where `seconds` does.
        let cell = table[1].prefix(end).split(separator: " ").last.map(String.init) ?? ""
        #expect(cell.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil, "\(table)")
    }

    @Test func historyFiltersByTableFeedStatusAndLimit() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()

        let application = try Self.objects(try cli.run(["history", "--db", db, "--table", "application", "--format", "json"]).stdout)
        #expect(application.count == 2)
        #expect(application.allSatisfy { $0["table_name"] as? String == "application" })
        #expect(application.map { $0["mode"] as? String } == ["INCREMENTAL", "FULL"])
        #expect(application.map { $0["feed_date"] as? String } == ["2026-11-02", "2026-11-01"])

        let pricing = try Self.objects(try cli.run(["history", "--db", db, "--feed", "pricing", "--format", "json"]).stdout)
        #expect(!pricing.isEmpty)
        #expect(pricing.allSatisfy { $0["feed"] as? String == "pricing" })

        let limited = try Self.objects(try cli.run(["history", "--db", db, "--limit", "3", "--format", "json"]).stdout)
        #expect(limited.compactMap { $0["id"] as? Int } == [14, 13, 12])

        let failed = try cli.run(["history", "--db", db, "--status", "failed", "--format", "csv"])
        #expect(failed.status == 0)
        #expect(failed.stdout.split(separator: "\n").count == 1)  // the header only
        #expect(failed.stderr.contains("no journal rows match"))
    }

    @Test func historyRejectsAnUnknownStatusListingTheValidOnes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["history", "--status", "done"])
        #expect(result.status == 64)
        for valid in ["applied", "failed", "not-applied", "blocked"] {
            #expect(result.stderr.contains("'\(valid)'"))
        }
    }

    @Test func historyOnAMissingCatalogExitsOne() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["history", "--db", cli.path("none.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no catalog there"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite")))
    }

    // MARK: epf sql

    @Test func sqlCountsInJSONCSVAndTable() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let json = try cli.run(["sql", "--db", db, "--format", "json", "SELECT count(*) FROM application"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout == "[{\"count(*)\":27}]\n")
        let csv = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*) AS n FROM application"])
        #expect(csv.status == 0)
        #expect(csv.stdout == "n\n27\n")
        let table = try cli.run(["sql", "--db", db, "SELECT count(*) AS n FROM application"])
        #expect(table.status == 0)
        // A number column is right-aligned, its header with it.
        #expect(table.stdout == " n\n27\n")
    }

    @Test func sqlKeepsValueTypesInJSON() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["sql", "--db", db, "--format", "json", "SELECT 1.5 AS r, 'a,b' AS t, NULL AS z, 7 AS i"])
        #expect(result.status == 0)
        #expect(result.stdout == "[{\"r\":1.5,\"t\":\"a,b\",\"z\":null,\"i\":7}]\n")
    }

    @Test(arguments: [
        "DELETE FROM application",
        "INSERT INTO application (application_id) VALUES (1)",
        "UPDATE application SET title = 'x'",
        "DROP TABLE application",
        "PRAGMA user_version = 7",
        "PRAGMA journal_mode = DELETE",
        "ATTACH 'other.sqlite' AS other",
        "VACUUM",
    ])
    func sqlRefusesWhatCouldWrite(statement: String) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let result = try cli.run(["sql", "--db", db, statement])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("epf sql only reads;"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(!FileManager.default.fileExists(atPath: cli.path("other.sqlite")))
        let count = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*) AS n FROM application"])
        #expect(count.stdout == "n\n27\n")
    }

    @Test func sqlRefusesSeveralStatements() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let result = try cli.run(["sql", "--db", db, "SELECT 1; DELETE FROM application"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("exactly one SQL statement"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        // A trailing semicolon or comment is still one statement.
        let one = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT 2 AS n; -- done"])
        #expect(one.status == 0)
        #expect(one.stdout == "n\n2\n")
    }

    @Test func sqlReportsSQLiteErrorsWithExitOne() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let syntax = try cli.run(["sql", "--db", db, "SELEC count(*) FROM application"])
        #expect(syntax.status == 1)
        #expect(syntax.stdout.isEmpty)
        #expect(syntax.stderr.contains("near \"SELEC\": syntax error"))
        let table = try cli.run(["sql", "--db", db, "SELECT * FROM nope"])
        #expect(table.status == 1)
        #expect(table.stderr.contains("no such table: nope"))
    }

    @Test func sqlOnAMissingCatalogExitsOneAndCreatesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["sql", "--db", cli.path("none.sqlite"), "SELECT 1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no catalog there"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite")))
    }
}
