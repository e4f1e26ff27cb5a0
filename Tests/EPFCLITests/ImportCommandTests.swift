import EPFTestSupport
import Foundation
import Testing

@Suite("epf import")
struct ImportCommandTests {
    @Test func importsTheSampleFeedsWithASummaryOnStandardError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import"] + SampleFeeds.pathsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("14 file(s) applied, 0 failed"))
        #expect(result.stderr.contains("1 row(s) had a stray field separator (0x01; a tab in flat files) in free text"))
        #expect(FileManager.default.fileExists(atPath: cli.path("catalog.sqlite")))
    }

    /// Each file's line says where the whole run is: file N of all of
    /// them, and the bytes done of all of them.
    @Test func progressSaysWhereTheWholeRunIs() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import"] + SampleFeeds.pathsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        let reading = result.stderr.split(separator: "\n").filter { $0.contains(": reading ") }
        #expect(reading.count == 14, "\(result.stderr)")
        let total = SampleFeeds.pathsInOrder.flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: folder))?.map { folder + "/" + $0 } ?? []
        }.reduce(Int64(0)) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int64) ?? 0) }
        let totalText = String(format: "%.1f KB", Double(total) / 1000)
        for (index, line) in reading.enumerated() {
            #expect(line.contains(" · file \(index + 1) of 14, "), "\(line)")
            #expect(line.contains(" of \(totalText) ("), "\(line)")
        }
        #expect(reading.first?.contains("· file 1 of 14, 0 B of \(totalText) (0%)") == true, "\(reading)")
        // A plan of one file says nothing of the whole: the file's line is all.
        let one = try cli.run(["import", "--db", cli.path("one.sqlite"), SampleFeeds.path("itunes20261101") + "/genre"])
        #expect(one.status == 0 && one.stderr.contains("genre: reading ") && !one.stderr.contains(" · file "), "\(one.stderr)")
    }

    @Test func jsonSummaryGoesToStandardOutput() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--format", "json", SampleFeeds.path("itunes20261101")])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["applied"] as? Int == 9)
        #expect(document["failed"] as? Int == 0)
        let files = try #require(document["files"] as? [[String: Any]])
        let application = try #require(files.first { $0["table"] as? String == "application" })
        #expect(application["rows"] as? Int == 25)
        #expect(application["repaired"] as? Int == 1)
        #expect(application["mode"] as? String == "FULL")
        #expect(application["feed"] as? String == "itunes")
        #expect(application["feedDate"] as? String == "2026-11-01")
    }

    @Test func csvSummaryHasOneLinePerFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--format", "csv", SampleFeeds.path("pricing20261101")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("table,mode,status,rows"))
        #expect(lines[1].hasPrefix("application_price,FULL,applied,175,0,0,"))
    }

    @Test func includeAndExcludeMatchWholeTableNames() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let result = try cli.run([
            "import", "--db", db, "--include", "application.*", "--exclude", "application_device_type",
            "--format", "csv", SampleFeeds.path("itunes20261101"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let tables = result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(tables == ["application", "application_detail"])
    }

    @Test func tablePrefixNamesTheTables() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        #expect(try cli.run(["import", "--db", db, "--table-prefix", "epf1_", SampleFeeds.path("pricing20261101")]).status == 0)
        let tables = try cli.run(["tables", "--db", db, "--format", "csv"])
        #expect(tables.stdout.contains("epf1_application_price,175,"))
    }

    @Test func damagedFileExitsOneAndNamesFileRecordAndByte() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let folder = cli.path("itunes20261101")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/storefront"))
        bytes.removeLast(20)  // cuts the footer and part of the last row
        try bytes.write(to: URL(fileURLWithPath: folder + "/storefront"))
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(folder)/storefront"))
        #expect(result.stderr.contains("record "))
        #expect(result.stderr.contains("byte "))
        #expect(result.stderr.contains("the catalog is unchanged"))
    }

    @Test func missingPathExitsOne() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), cli.path("nowhere")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no such file or folder"))
    }

    @Test func downloadFolderImportsOnceThenNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let samples = SampleFeeds.folder.path
        let first = try cli.run(["import", "--db", cli.path("c.sqlite"), samples])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("14 file(s) applied, 0 failed"))
        #expect(first.stderr.contains("README.md: not a table file or archive: ignored") == false)

        let dryRun = try cli.run(["import", "--db", cli.path("c.sqlite"), "--dry-run", "--format", "csv", samples])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        let lines = dryRun.stdout.split(separator: "\n")
        #expect(lines.first == "action,feed,date,mode,files,path,reason")
        #expect(lines.count == 5)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("skip,") && $0.contains("already applied") })

        // The sample week's day 2 (itunes20261102) after its FULL: its
        // price and application changes are in the log.
        let logged = try RawSQLiteReader(path: cli.path("c.sqlite")).rows("SELECT count(*) FROM epf_app_change")
        #expect(logged.first?.first.map { if case .integer(let count) = $0 { count > 0 } else { false } } == true)

        let second = try cli.run(["import", "--db", cli.path("c.sqlite"), samples])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("nothing to import"))
        #expect(second.stderr.contains("skipped: \(samples)/itunes20261102: already applied"))
    }

    @Test func dryRunChangesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let samples = SampleFeeds.folder.path
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--dry-run", samples])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).prefix(4).joined(separator: " ")
        }
        #expect(
            lines == [
                "action feed date mode", "import itunes 2026-11-01 FULL", "import popularity 2026-11-01 FULL",
                "import pricing 2026-11-01 FULL", "import itunes 2026-11-02 INCREMENTAL",
            ])
        #expect(!FileManager.default.fileExists(atPath: cli.path("c.sqlite")))
    }

    @Test(arguments: [
        ["import"],
        ["import", "--format", "xml", "x"],
        ["import", "--include", "(", "x"],
        ["import", "--table-prefix", "a-b", "x"],
        ["import", "--keep-history", "-1", "x"],
        ["sync", "--keep-history", "many", "x"],
        ["frobnicate"],
    ])
    func usageErrorsExitSixtyFour(_ arguments: [String]) throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func environmentNamesTheCatalog() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("from-env.sqlite")
        let result = try cli.run(["import", SampleFeeds.path("pricing20261101")], environment: ["EPF_DB": db])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: db))
        #expect(!FileManager.default.fileExists(atPath: cli.path("catalog.sqlite")))
    }

    @Test func aFileThatCannotFitOnTheDiskIsRefusedBeforeLoading() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let result = try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261101")], environment: ["EPF_TEST_FREE_BYTES": "1000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not enough free disk space to load application: about"), "\(result.stderr)")
        #expect(result.stderr.contains("0.0 MB free where the catalog is. Free space, or import into a catalog on a larger disk (--db)"))
        let tables = try cli.run(["tables", "--db", db, "--format", "csv"])
        #expect(tables.stdout == "table,rows,last_mode,last_import,export_date,source,storefronts\n", "\(tables.stdout)")
    }

    /// Runs `chattr FLAG PATH`; false where the file system or the user
    /// cannot (not root, not ext4/xfs/btrfs).
    static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test func anUnwritableCatalogIsAClearErrorAndStaysAsItWas() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let before = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*), sum(application_id) FROM application"])
        // An immutable file: not even root may write it (as a read-only mount or a locked-down file would be).
        guard Self.chattr("+i", db) else {
            print("skipped: chattr +i is not available here")
            return
        }
        defer { _ = Self.chattr("-i", db) }
        let feed = cli.path("itunes20261201")
        #expect(try cli.run(["generate", "--out", feed, "--rows", "50", "--storefronts", "0"]).status == 0)
        let result = try cli.run(["import", "--db", db, feed])
        #expect(result.status == 1)
        #expect(result.stderr.contains("readonly database"), "\(result.stderr)")
        #expect(result.stderr.contains("Check that the catalog's folder and file are writable"))
        let after = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*), sum(application_id) FROM application"])
        #expect(after.stdout == before.stdout)
    }
}
