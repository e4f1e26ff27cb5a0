import EPFCatalog
import EPFTestSupport
import Foundation
import Testing

/// `epf compact`: a FULL re-import leaves the replaced tables' pages free
/// inside a SQLite catalog; compacting gives them back to the disk, while
/// readers keep answering.
@Suite("epf compact")
struct CompactCommandTests {
    /// A generated feed of `rows` applications (with the catalog's other
    /// tables), imported into `c.sqlite` and imported again with `--force`:
    /// the catalog a weekly FULL leaves. Also imported once into
    /// `fresh.sqlite`, whose size a compacted catalog should have.
    struct ReimportedCatalog {
        let db: String
        let freshBytes: Int64
        let reimportedBytes: Int64
        let feed: String
    }

    static func reimportedCatalog(_ cli: CLIRunner, rows: Int) throws -> ReimportedCatalog {
        let feed = cli.path("itunes20261101")
        let generated = try cli.run(["generate", "--out", feed, "--rows", "\(rows)", "--storefronts", "2", "--catalog-tables"])
        try #require(generated.status == 0, "\(generated.stderr)")
        let fresh = cli.path("fresh.sqlite")
        try #require(try cli.run(["import", "--db", fresh, feed]).status == 0)
        let db = cli.path("c.sqlite")
        try #require(try cli.run(["import", "--db", db, feed]).status == 0)
        let again = try cli.run(["import", "--db", db, "--force", feed])
        try #require(again.status == 0, "\(again.stderr)")
        return ReimportedCatalog(db: db, freshBytes: diskBytes(fresh), reimportedBytes: diskBytes(db), feed: feed)
    }

    /// The catalog file and its write-ahead log.
    static func diskBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(0) { total, file in
            total + (((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? Int64) ?? 0)
        }
    }

    /// Questions whose answers must not change: lookups of a few
    /// applications, a search, the tables.
    static func answers(_ cli: CLIRunner, _ db: String) throws -> [String] {
        let questions = [
            ["lookup", "--db", db, "--format", "json", "300000000", "448760260", "555929431"],
            ["search", "--db", db, "--format", "csv", "--limit", "25", "chess"],
            ["sql", "--db", db, "--format", "csv", "SELECT count(*), sum(application_id) FROM application"],
        ]
        return try questions.map { question in
            let result = try cli.run(question)
            #expect(result.status == 0, "\(question): \(result.stderr)")
            return result.stdout
        }
    }

    static func report(_ stdout: String) throws -> [String: Any] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
        return try #require(rows.first)
    }

    @Test func aReimportedCatalogShrinksToTheSizeOfAFreshImport() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let catalog = try Self.reimportedCatalog(cli, rows: 8_000)
        #expect(catalog.reimportedBytes > catalog.freshBytes * 3 / 2, "a FULL re-import keeps the old tables' pages: \(catalog)")
        let before = try Self.answers(cli, catalog.db)

        let result = try cli.run(["compact", "--db", catalog.db, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = Self.diskBytes(catalog.db)
        #expect(after <= catalog.freshBytes + catalog.freshBytes / 20, "compacted \(after), fresh \(catalog.freshBytes)")
        let report = try Self.report(result.stdout)
        #expect(report["catalog"] as? String == catalog.db)
        #expect((report["bytes_before"] as? NSNumber)?.int64Value == catalog.reimportedBytes)
        #expect((report["bytes_after"] as? NSNumber)?.int64Value == after)
        #expect((report["bytes_returned"] as? NSNumber)?.int64Value == catalog.reimportedBytes - after)
        #expect(report["seconds"] is Double)
        #expect(result.stderr.contains("returned to the disk in"), "\(result.stderr)")
        #expect(try Self.answers(cli, catalog.db) == before)
        #expect(!FileManager.default.fileExists(atPath: catalog.db + ".compact"), "the compact copy is removed")
        // Still in WAL mode (the file format bytes 18 and 19 are 2).
        let header = try #require(FileHandle(forReadingAtPath: catalog.db)).readData(ofLength: 20)
        #expect(Array(header.suffix(2)) == [2, 2])

        // Once compacted, there is nothing more to return: said, exit 0.
        let again = try cli.run(["compact", "--db", catalog.db, "--format", "csv"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("no free pages: nothing to return to the disk"), "\(again.stderr)")
        let row = try #require(again.stdout.split(separator: "\n").dropFirst().first)
        #expect(row.hasPrefix("\(catalog.db),\(after),\(after),0,"), "\(again.stdout)")
    }

    /// Lookups, each a process of its own, run one after another while
    /// `epf compact` runs (slowed between its write back's steps, so that
    /// they surely ask while the write is open): every one answers, with
    /// the catalog's answer.
    @Test func lookupsAnswerDuringTheCompaction() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let catalog = try Self.reimportedCatalog(cli, rows: 8_000)
        let lookup = ["lookup", "--db", catalog.db, "--format", "json", "448760260", "555929431"]
        let expected = try cli.run(lookup)
        try #require(
            expected.status == 0 && expected.stdout.contains("\"resultCount\" : 2") || expected.stdout.contains("\"resultCount\":2"))

        let compaction = try EPFRunner.process(
            ["compact", "--db", catalog.db], in: cli.folder, environment: ["EPF_TEST_COMPACT_STEP_MS": "3000"])
        let log = cli.path("compact.log")
        let logHandle = try EPFRunner.sendOutput(of: compaction, to: URL(fileURLWithPath: log))
        try compaction.run()
        var during = 0
        var failures: [String] = []
        while compaction.isRunning {
            let answer = try cli.run(lookup)
            if answer.status != 0 || answer.stdout != expected.stdout { failures.append("\(answer.status): \(answer.stderr)") }
            if compaction.isRunning { during += 1 }
        }
        compaction.waitUntilExit()
        try logHandle.close()
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(compaction.terminationStatus == 0, "\(output)")
        #expect(output.contains("writing the compact copy back"), "\(output)")
        #expect(failures.isEmpty, "lookups failed during the compaction: \(failures)")
        // On a loaded machine (the whole suite on two cores) a lookup, a
        // process of its own, can take a second: at least one overlapped.
        #expect(during >= 1, "no lookup ran while the compaction did")
        #expect(Self.diskBytes(catalog.db) <= catalog.freshBytes + catalog.freshBytes / 20)
        #expect(try cli.run(lookup).stdout == expected.stdout)
    }

    @Test func anImportHoldingTheCatalogStopsTheCompaction() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let size = Self.diskBytes(db)
        do {
            let lock = try ImportLock(catalogPath: db)
            let result = try cli.run(["compact", "--db", db])
            #expect(result.status == 1)
            #expect(result.stderr.contains("an epf import (pid \(getpid()), since 20"), "\(result.stderr)")
            #expect(result.stderr.contains("epf compact does not run during an import"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            withExtendedLifetime(lock) {}
        }
        #expect(Self.diskBytes(db) == size)
        // And an import started while a compaction holds the catalog is
        // told what it waits for.
        let compacting = try ImportLock(catalogPath: db, for: .compacting)
        let result = try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261101")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("epf compact (pid \(getpid()), since 20"), "\(result.stderr)")
        #expect(result.stderr.contains("is compacting \(db)"), "\(result.stderr)")
        withExtendedLifetime(compacting) {}
    }

    @Test func tooLittleFreeSpaceIsRefusedBeforeAnythingIsWritten() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let catalog = try Self.reimportedCatalog(cli, rows: 1_000)
        let result = try cli.run(["compact", "--db", catalog.db], environment: ["EPF_TEST_FREE_BYTES": "1000000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not enough free disk space to compact \(catalog.db): about "), "\(result.stderr)")
        #expect(result.stderr.contains(" needed (a compact copy of its "), "\(result.stderr)")
        #expect(
            result.stderr.contains("1.0 MB free there. Free space on that disk and run epf compact again; nothing was changed"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(Self.diskBytes(catalog.db) == catalog.reimportedBytes)
        #expect(!FileManager.default.fileExists(atPath: catalog.db + ".compact"))
    }

    @Test func aMissingCatalogIsAnError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["compact", "--db", cli.path("none.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no catalog there"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite.lock")))
    }

    /// A FULL re-import builds the new table beside the old one, through
    /// the write-ahead log: a disk with room for the table alone (what the
    /// check used to ask) is refused before anything is loaded, and the
    /// error says why and what to do. The free pages a catalog holds count
    /// as room.
    @Test func aFullReimportWithoutRoomBesideTheOldTableIsRefusedUpFront() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = cli.path("itunes20261101")
        #expect(try cli.run(["generate", "--out", feed, "--rows", "2000", "--storefronts", "0"]).status == 0)
        let application = feed + "/application"
        let fileBytes = try #require((try FileManager.default.attributesOfItem(atPath: application)[.size]) as? Int64)
        let db = cli.path("c.sqlite")
        #expect(try cli.run(["import", "--db", db, application]).status == 0)

        // Room for the table and its indexes (1.25 times the file), not for
        // the write-ahead log beside it.
        let free = ["EPF_TEST_FREE_BYTES": "\(fileBytes * 18 / 10)"]
        let refused = try cli.run(["import", "--db", db, "--force", application], environment: free)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not enough free disk space to load application: about"), "\(refused.stderr)")
        #expect(refused.stderr.contains("built beside the application it replaces"), "\(refused.stderr)")
        #expect(refused.stderr.contains("of write-ahead log while it loads"), "\(refused.stderr)")
        #expect(refused.stderr.contains("epf compact gives the replaced tables' room back to the disk"), "\(refused.stderr)")
        let applied = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*) FROM epf_journal WHERE status = 'applied'"])
        #expect(applied.stdout == "count(*)\n1\n", "nothing more was applied: \(applied.stdout)")

        // With the room: applied; the catalog now holds the old table's
        // pages free, which the next re-import fills first, so the same
        // disk is enough for it.
        #expect(try cli.run(["import", "--db", db, "--force", application]).status == 0)
        let reused = try cli.run(["import", "--db", db, "--force", application], environment: free)
        #expect(reused.status == 0, "\(reused.stderr)")
    }
}
