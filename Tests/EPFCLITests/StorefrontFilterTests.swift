import EPFTestSupport
import Foundation
import Testing

/// `epf import --storefront`: the filter, the set the catalog remembers,
/// and what lookups say of a storefront that was not imported.
@Suite("epf import --storefront")
struct StorefrontFilterTests {
    static let us = "143441", jp = "143462"

    /// A generated pricing day (`epf generate`, `storefronts` storefronts,
    /// US and JP first) under `folder/name`, FULL or INCREMENTAL.
    static func pricingDay(
        _ cli: CLIRunner, _ name: String, rows: Int = 300, storefronts: Int = 6, seed: Int = 1, incremental: Bool = false
    )
        throws -> String
    {
        let path = cli.path(name)
        let generated = try cli.run([
            "generate", "--out", path, "--rows", "\(rows)", "--seed", "\(seed)", "--storefronts", "\(storefronts)",
        ])
        try #require(generated.status == 0, "\(generated.stderr)")
        try FileManager.default.removeItem(atPath: path + "/application")
        if incremental {
            let file = URL(fileURLWithPath: path + "/application_price")
            var bytes = try Data(contentsOf: file)
            let mode = try #require(bytes.range(of: Data("#exportMode:FULL".utf8)))
            bytes.replaceSubrange(mode, with: Data("#exportMode:INCREMENTAL".utf8))
            try bytes.write(to: file)
        }
        return path
    }

    /// A FULL pricing day, an INCREMENTAL day after it, and a FULL day
    /// after that (`pricingDay`, 300 applications x 6 storefronts each).
    static func threeDays(_ cli: CLIRunner) throws -> (full: String, incremental: String, nextFull: String) {
        (
            try pricingDay(cli, "pricing20261201"), try pricingDay(cli, "pricing20261202", seed: 2, incremental: true),
            try pricingDay(cli, "pricing20261203", seed: 3)
        )
    }

    func storefronts(_ cli: CLIRunner, _ db: String) throws -> [String] {
        let result = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT DISTINCT storefront_id FROM application_price ORDER BY 1"])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test("a filtered import equals a SQL filter of the unfiltered catalog: the sample feeds and a generated feed")
    func equalsTheFilteredCatalog() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let checked = try StorefrontEquality.check(
            feeds: SampleFeeds.pathsInOrder, ids: [143441, 143462], unfiltered: cli.path("all.sqlite"), filtered: cli.path("some.sqlite"),
            in: cli.folder)
        #expect(checked == ["application_popularity_per_genre", "application_price"])
        let generated = cli.path("generated")
        let made = try cli.run(["generate", "--out", generated, "--rows", "400", "--storefronts", "175", "--catalog-tables"])
        try #require(made.status == 0, "\(made.stderr)")
        let generatedChecked = try StorefrontEquality.check(
            feeds: [generated], ids: [143441, 143462, 143443], unfiltered: cli.path("gen-all.sqlite"),
            filtered: cli.path("gen-some.sqlite"),
            in: cli.folder)
        #expect(generatedChecked == ["application_price"])
    }

    @Test("the rows left out are counted in the summary; #recordsWritten still counts every record")
    func countsTheRowsLeftOut() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let day = try Self.pricingDay(cli, "pricing20261201")
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--storefront", "us,JPN", "--format", "json", day])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1200 row(s) of other storefronts left out (--storefront)"), "\(result.stderr)")
        #expect(result.stderr.contains("note: keeping only the storefronts US, JP; they become the catalog's set"), "\(result.stderr)")
        #expect(result.stdout.contains("\"rows\" : 600"), "\(result.stdout)")
        #expect(try storefronts(cli, cli.path("c.sqlite")) == [Self.us, Self.jp])
    }

    @Test("a killed filtered import's load is named with its set when an import without the option does not resume it")
    func killedFilteredLoadNamesItsSet() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let day = try Self.pricingDay(cli, "pricing20261201", rows: 3_000)
        let db = cli.path("c.sqlite")
        let hooks = ["EPF_TEST_CHUNK_BYTES": "16384", "EPF_TEST_CHECKPOINT_BYTES": "65536"]
        var killing = hooks
        killing["EPF_TEST_FAULT"] = "checkpoint:2"
        let killed = try cli.run(["import", "--db", db, "--storefront", "US,JP", day], environment: killing)
        #expect(killed.status != 0, "the fault point was not reached: \(killed.stderr)")

        // Without the option nothing was applied, so no set is remembered:
        // every storefront is loaded, and the note says why the
        // interrupted load was not resumed.
        let again = try cli.run(["import", "--db", db, day], environment: hooks)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stderr.contains("resumes if this import reads the same file with --storefront US,JP; --restart starts over"),
            "\(again.stderr)")
        #expect(!again.stderr.contains("resuming "), "\(again.stderr)")
        #expect(try storefronts(cli, db).count == 6)
    }

    @Test("an INCREMENTAL into a filtered catalog keeps the catalog's set without the option")
    func incrementalKeepsTheSet() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let full = try Self.pricingDay(cli, "pricing20261201")
        let day2 = try Self.pricingDay(cli, "pricing20261202", rows: 350, seed: 2, incremental: true)
        #expect(try cli.run(["import", "--db", db, "--storefront", "US,JP", full]).status == 0)
        let result = try cli.run(["import", "--db", db, day2])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: keeping only the catalog's storefronts: US, JP"), "\(result.stderr)")
        #expect(result.stderr.contains("1400 row(s) of other storefronts left out"), "\(result.stderr)")
        #expect(result.stderr.contains("700 rows in "), "\(result.stderr)")
        #expect(result.stderr.contains(" (1,400 rows of other storefronts left out: --storefront)"), "\(result.stderr)")
        #expect(try storefronts(cli, db) == [Self.us, Self.jp])
        let count = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*) FROM application_price"])
        #expect(count.stdout.hasSuffix("700\n"), "\(count.stdout)")
    }

    @Test("another set is refused without a FULL; --force or a FULL naming it replaces the set")
    func anotherSetTakesAFull() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let (full, day2, full3) = try Self.threeDays(cli)
        #expect(try cli.run(["import", "--db", db, "--storefront", "US,JP", full]).status == 0)

        let refused = try cli.run(["import", "--db", db, "--storefront", "US,DE", day2])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("--storefront asks for only US, DE, but the catalog holds only the storefronts US, JP"),
            "\(refused.stderr)")
        #expect(try storefronts(cli, db) == [Self.us, Self.jp])

        let forced = try cli.run(["import", "--db", db, "--storefront", "US,DE", "--force", day2])
        #expect(forced.status == 0, "\(forced.stderr)")
        let tables = try cli.run(["tables", "--db", db])
        #expect(tables.stdout.contains("US, DE"), "\(tables.stdout)")

        // A FULL naming the set replaces it, and is not "shrunk" for having fewer storefronts.
        let replaced = try cli.run(["import", "--db", db, "--storefront", "143462", full3])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try storefronts(cli, db) == [Self.jp])
        let json = try cli.run(["tables", "--db", db, "--format", "json"])
        #expect(json.stdout.contains("\"storefronts\":\"JP\"") || json.stdout.contains("\"storefronts\" : \"JP\""), "\(json.stdout)")
    }

    @Test("an unfiltered catalog stays unfiltered unless a FULL names a set, which is not refused as shrunk")
    func unfilteredCatalogTakesAFull() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let (full, day2, full3) = try Self.threeDays(cli)
        #expect(try cli.run(["import", "--db", db, full]).status == 0)
        let refused = try cli.run(["import", "--db", db, "--storefront", "US", day2])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("but the catalog holds every storefront"), "\(refused.stderr)")
        let tables = try cli.run(["tables", "--db", db, "--format", "csv"])
        #expect(tables.stdout.contains("application_price,1800,FULL"), "\(tables.stdout)")
        #expect(tables.stdout.contains(",all\n"), "\(tables.stdout)")

        let filtered = try cli.run(["import", "--db", db, "--storefront", "US", full3])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        #expect(try storefronts(cli, db) == [Self.us])
    }

    @Test("an unknown country exits 64 and lists the codes known")
    func unknownCountry() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--storefront", "US,XX", SampleFeeds.path("pricing20261101")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--storefront: unknown country 'XX'"), "\(result.stderr)")
        #expect(result.stderr.contains("the codes known are AE AF"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("c.sqlite")))
    }

    @Test("lookup and search in a storefront that was not imported say so (exit 1), never an empty answer")
    func queriesOfAnotherStorefront() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let imported = try cli.run(["import", "--db", db, "--storefront", "US,JP"] + SampleFeeds.pathsInOrder)
        try #require(imported.status == 0, "\(imported.stderr)")
        let message = "storefront DE was not imported into this catalog (it has US, JP)"
        for query in [
            ["lookup", "364709193", "--country", "DE"], ["search", "chess", "--country", "deu"],
            ["lookup", "364709193", "--country", "143443"],
        ] {
            let result = try cli.run(query + ["--db", db])
            #expect(result.status == 1, "\(query)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(message), "\(query): \(result.stderr)")
        }
        let japan = try cli.run(["lookup", "364709193", "--country", "JP", "--db", db])
        #expect(japan.status == 0, "\(japan.stderr)")
        #expect(japan.stdout.contains("\"resultCount\":1"), "\(japan.stdout)")
    }
}

extension StorefrontFilterTests {
    @Test("a lake remembers the set too: a later import into it keeps the set")
    func lakeKeepsTheSet() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let lake = cli.path("lake")
        let full = try Self.pricingDay(cli, "pricing20261201")
        let day2 = try Self.pricingDay(cli, "pricing20261202", seed: 2, incremental: true)
        let first = try cli.run(["import", "--lake", lake, "--storefront", "US,JP", full])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("1200 row(s) of other storefronts left out"), "\(first.stderr)")
        let second = try cli.run(["import", "--lake", lake, day2])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("note: keeping only the catalog's storefronts: US, JP"), "\(second.stderr)")
        let refused = try cli.run([
            "import", "--lake", lake, "--storefront", "DE", try Self.pricingDay(cli, "pricing20261203", seed: 3, incremental: true),
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("but the catalog holds only the storefronts US, JP"), "\(refused.stderr)")
    }
}
