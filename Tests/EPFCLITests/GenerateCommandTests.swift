import EPFTestSupport
import Foundation
import Testing

/// `epf generate --all-tables`: the feed set in its feed folders, which
/// `epf import` takes in date order and answers lookups from.
@Suite("epf generate --all-tables")
struct GenerateCommandTests {
    @Test func writesEveryFeedFolderAndImportsInDateOrder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let out = cli.path("feeds")
        let generated = try cli.run(["generate", "--all-tables", "--rows", "300", "--days", "2", "--storefronts", "3", "--out", out])
        #expect(generated.status == 0, "\(generated.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(
            folders == [
                "itunes20261101", "itunes20261102", "itunes20261103", "popularity20261101", "popularity20261102",
                "popularity20261103", "pricing20261101", "pricing20261102", "pricing20261103",
            ])
        #expect(generated.stderr.contains("wrote \(out)/itunes20261101/application_detail: "))
        #expect(generated.stderr.contains("wrote \(out)/pricing20261101/application_price: 900 rows"), "\(generated.stderr)")
        let imported = try cli.run(["import", "--db", cli.path("c.sqlite"), out])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("file(s) applied, 0 failed"))
        // Day 2 repeats day 1's changes: those rows are not written, and
        // the closing line says how many.
        let unchanged = try #require(
            imported.stderr.firstMatch(of: #/ \(([0-9,]+) the same as the catalog's but for export_date: not written\)/#),
            "\(imported.stderr)")
        #expect(Int(unchanged.1.replacing(",", with: "")) ?? 0 > 0)
        // The first application, in Japan, with its details and charts.
        let lookup = try cli.run(["lookup", "--db", cli.path("c.sqlite"), "--country", "JP", "300000000"])
        #expect(
            lookup.status == 0 && lookup.stdout.contains("\"currency\":\"JPY\"") && lookup.stdout.contains("\"languageCodesISO2A\":["),
            "\(lookup.stdout)")
        let prices = try cli.run(["sql", "--db", cli.path("c.sqlite"), "--format", "csv", "SELECT count(*) FROM application_price"])
        #expect(prices.stdout.hasPrefix("count(*)\n") && Int(prices.stdout.split(separator: "\n")[1]) ?? 0 >= 900)
        // One day alone: the same bytes as in the whole set.
        let alone = cli.path("alone")
        let day = try cli.run(["generate", "--all-tables", "--rows", "300", "--only-day", "2", "--storefronts", "3", "--out", alone])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: alone).sorted() == [
                "itunes20261103", "popularity20261103", "pricing20261103",
            ])
        for table in ["itunes20261103/application", "pricing20261103/application_price"] {
            #expect(FileManager.default.contentsEqual(atPath: "\(alone)/\(table)", andPath: "\(out)/\(table)"), "\(table)")
        }
    }

    @Test func optionsThatDoNotGoTogetherExit64() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        for arguments in [
            ["--days", "2"], ["--only-day", "1"], ["--all-tables", "--days", "2", "--only-day", "1"], ["--all-tables", "--catalog-tables"],
            ["--all-tables", "--incremental"], ["--all-tables", "--storefronts", "0"],
        ] {
            let result = try cli.run(["generate", "--out", cli.path("x")] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path("x")))
    }

    /// An --out that cannot be written is named, with why and what to do.
    @Test func aFileAsTheOutputFolderIsNamed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        #expect(FileManager.default.createFile(atPath: cli.path("notes.txt"), contents: Data("x".utf8)))
        for mode in [["--all-tables"], []] {
            let result = try cli.run(["generate", "--rows", "10", "--out", cli.path("notes.txt")] + mode)
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            #expect(
                result.stderr.contains("cannot write the feed into \(cli.path("notes.txt")): it is a file, not a folder"),
                "\(result.stderr)")
        }
    }
}
