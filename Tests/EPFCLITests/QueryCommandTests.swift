import EPFTestSupport
import Foundation
import Testing

@Suite("epf tables and epf lookup")
struct QueryCommandTests {
    @Test func tablesListsRowCountsAndLastImport() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["tables", "--db", db, "--format", "json"])
        #expect(result.status == 0)
        let tables = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(tables.count == 11)
        let application = try #require(tables.first { $0["table"] as? String == "application" })
        #expect(application["rows"] as? Int == 27)
        #expect(application["last_mode"] as? String == "INCREMENTAL")
        #expect(application["export_date"] as? Int == 1_793_577_600_000)
        let price = try #require(tables.first { $0["table"] as? String == "application_price" })
        #expect(price["rows"] as? Int == 175)
        #expect(!tables.contains { ($0["table"] as? String)?.hasPrefix("epf_") == true })
    }

    /// A table and CSV show `export_date` as a date (JSON keeps EPF's epoch
    /// milliseconds, above).
    @Test func tablesShowsTheExportDateAsADate() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let csv = try cli.run(["tables", "--db", db, "--format", "csv"])
        #expect(csv.status == 0)
        let application = try #require(csv.stdout.split(separator: "\n").first { $0.hasPrefix("application,") })
        #expect(application.contains(",2026-11-02T00:00:00Z,"), "\(application)")
        let table = try cli.run(["tables", "--db", db])
        let lines = table.stdout.split(separator: "\n")
        let header = try #require(lines.first)
        let column = header.distance(from: header.startIndex, to: try #require(header.range(of: "export_date")).lowerBound)
        let row = try #require(lines.first { $0.hasPrefix("application ") })
        #expect(row.dropFirst(column).hasPrefix("2026-11-02T00:00:00Z  "), "\(row)")
        #expect(!table.stdout.contains("1793577600000"))
    }

    @Test func tablesOnAMissingCatalogExitsOne() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["tables", "--db", cli.path("none.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no catalog there"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite")))
    }

    /// A folder is not a catalog: said so, and what to give instead (SQLite
    /// itself said "disk I/O error").
    @Test func aFolderAsCatalogSaysSo() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        for command in [["tables"], ["lookup", "364709193"], ["search", "chess"], ["history"]] {
            let result = try cli.run(command + ["--db", cli.folder.path])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(cli.folder.path) is a folder, not a catalog"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--db"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("disk I/O error"), "\(command): \(result.stderr)")
        }
    }

    /// A file that is not a catalog is refused, and no `.lock` is left
    /// beside it.
    @Test func importIntoATextFileLeavesNoLockBehind() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let notes = cli.path("notes.txt")
        try Data(String(repeating: "shopping list: milk, eggs, bread\n", count: 200).utf8).write(to: URL(fileURLWithPath: notes))
        let result = try cli.run(["import", "--db", notes, SampleFeeds.path("itunes20261101")])
        #expect(result.status != 0, "\(result.stderr)")
        #expect(result.stderr.contains(notes), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: notes + ".lock"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)).count == 6_600, "the file was changed")
    }

    @Test func lookupPrintsTheApplicationAsJSON() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["lookup", "--db", db, "553910284"])
        #expect(result.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["resultCount"] as? Int == 1)
        let app = try #require((document["results"] as? [[String: Any]])?.first)
        #expect(app["trackId"] as? Int == 553_910_284)
        #expect(app["trackName"] as? String == "Puzzle Box Deluxe")
        #expect(app["wrapperType"] as? String == "software")
        #expect((app["description"] as? String)?.contains("Tip:\u{1}press") == true)
        #expect(result.stdout.contains("\"trackId\":553910284"))
    }

    /// `epf lookup` of every sample application, US and JP: a client's
    /// model of Apple's Lookup response (`AppleLookupResponse`) decodes
    /// it all; the two applications no storefront sells are left out.
    @Test func everyLookupDecodesWithAClientsModel() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let listed = try cli.run(["sql", "--db", db, "SELECT application_id FROM application ORDER BY application_id", "--format", "csv"])
        let ids = listed.stdout.split(separator: "\n").dropFirst().map(String.init)
        #expect(ids.count == 27)
        for country in ["US", "JP"] {
            let result = try cli.run(["lookup", "--db", db, "--country", country] + ids)
            #expect(result.status == 0)
            let response = try JSONDecoder().decode(AppleLookupResponse.self, from: Data(result.stdout.utf8))
            #expect(response.resultCount == 25 && response.results.count == 25, "\(country)")
            #expect(result.stderr.contains("no application with Apple ID 638402717 sold in this storefront"))
        }
    }

    @Test func lookupOfAnUnknownIDIsEmptyWithAMessage() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["lookup", "--db", db, "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "{\"resultCount\":0,\"results\":[]}\n")
        #expect(result.stderr.contains("no application with Apple ID 1"))
    }

    @Test func lookupRejectsWhatIsNotAnID() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["lookup", "abc"])
        #expect(result.status == 64)
    }
}
