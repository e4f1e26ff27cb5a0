import EPFTestSupport
import Foundation
import Testing

/// What a nightly job meets: days in the wrong order, files downloaded again
/// in place, a FULL that would empty a table, a folder with nothing in it.
@Suite("Nightly edges")
struct NightlyEdgeTests {
    /// A copy of SampleFeeds in the runner's folder, to change files in.
    static func copyOfSampleFeeds(_ cli: CLIRunner) throws -> String {
        let copy = cli.path("dl")
        try FileManager.default.copyItem(atPath: SampleFeeds.folder.path, toPath: copy)
        return copy
    }

    /// The rows of `epf sql QUERY --format csv`, header left out.
    static func rows(_ cli: CLIRunner, db: String, _ query: String) throws -> [String] {
        let result = try cli.run(["sql", "--db", db, query, "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        return Array(result.stdout.split(separator: "\n").dropFirst().map(String.init))
    }

    @Test("An INCREMENTAL day with no FULL behind it is refused, naming the FULL it needs; the FULL then applies, and the day after it")
    func incrementalBeforeFull() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let early = try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261102")])
        #expect(early.status == 1)
        #expect(early.stderr.contains("the catalog has no application table yet"), "\(early.stderr)")
        #expect(early.stderr.contains("Import the itunes FULL export dated 2026-11-02 or earlier"), "\(early.stderr)")
        #expect(early.stderr.contains("--force"))
        #expect(early.stderr.contains("0 file(s) applied, 3 failed"))

        let samples = SampleFeeds.folder.path
        let all = try cli.run(["import", "--db", db, samples])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(!all.stderr.contains("older than"), "\(all.stderr)")
        #expect(all.stderr.contains("14 file(s) applied, 0 failed"), "\(all.stderr)")
        #expect(try Self.rows(cli, db: db, "SELECT count(*) FROM application") == ["27"])
    }

    @Test("--force applies an INCREMENTAL day alone; the FULL before it is then skipped per table, and the message names those tables")
    func forcedIncrementalSaysWhichTablesAreSkipped() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let forced = try cli.run(["import", "--db", db, "--force", SampleFeeds.path("itunes20261102")])
        #expect(forced.status == 0, "\(forced.stderr)")
        let samples = SampleFeeds.folder.path
        let all = try cli.run(["import", "--db", db, samples])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(
            all.stderr.contains(
                "skipped: \(samples)/itunes20261101 (tables application, application_detail, genre_application): older than the itunes export of 2026-11-02"
            ), "\(all.stderr)")
        #expect(all.stderr.contains("skipped: \(samples)/itunes20261102: already applied"), "\(all.stderr)")
        #expect(all.stderr.contains("8 file(s) applied, 0 failed"), "\(all.stderr)")
    }

    @Test("A file downloaded again in place with the same size and new content is imported again; a file only touched is not")
    func sameSizeChangeIsImportedAgain() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let feeds = try Self.copyOfSampleFeeds(cli)
        #expect(try cli.run(["import", "--db", db, feeds]).status == 0)
        let artistTime = "SELECT origin_mtime FROM epf_journal WHERE table_name = 'artist'"
        let artistTimeBefore = try Self.rows(cli, db: db, artistTime)

        // Same size, one word changed; another file only touched.
        let genre = URL(fileURLWithPath: feeds + "/itunes20261101/genre")
        var bytes = try Data(contentsOf: genre)
        let word = try #require(bytes.range(of: Data("Games".utf8)))
        bytes.replaceSubrange(word, with: Data("GAMES".utf8))
        try bytes.write(to: genre)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: feeds + "/itunes20261101/artist")

        let second = try cli.run(["import", "--db", db, "--format", "csv", feeds])
        #expect(second.status == 0, "\(second.stderr)")
        let applied = second.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(3).joined(separator: ",") }
        #expect(applied == ["genre,FULL,applied"], "\(second.stdout)")
        #expect(try Self.rows(cli, db: db, "SELECT count(*) FROM genre WHERE name = 'GAMES'") == ["1"])
        // The touched file's md5 was the same: the journal took its new time, for the cheap check next time.
        let artistTimeAfter = try Self.rows(cli, db: db, artistTime)
        #expect(artistTimeAfter.count == 1 && artistTimeAfter != artistTimeBefore, "\(artistTimeBefore) \(artistTimeAfter)")

        let third = try cli.run(["import", "--db", db, feeds])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("nothing to import"), "\(third.stderr)")
        #expect(third.stderr.contains("0 file(s) applied, 0 failed"), "\(third.stderr)")
    }

    @Test("A FULL refused by the shrink guard says why on standard error: both row counts and --allow-shrink")
    func shrinkRefusalIsSaid() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        #expect(try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261101")]).status == 0)
        // The same FULL application file with 2 of its 25 rows.
        let original = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/application"))
        var records: [Data] = []
        var start = original.startIndex
        while let end = original[start...].range(of: Data([0x02, 0x0A])) {
            records.append(original[start..<end.upperBound])
            start = end.upperBound
        }
        let header = records.prefix { $0.first == UInt8(ascii: "#") }
        let rows = records.dropFirst(header.count).filter { $0.first != UInt8(ascii: "#") }.prefix(2)
        let folder = cli.path("itunes20261108")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (header.reduce(Data(), +) + rows.reduce(Data(), +) + Data("#recordsWritten:2\u{02}\n".utf8))
            .write(to: URL(fileURLWithPath: folder + "/application"))

        let refused = try cli.run(["import", "--db", db, folder])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "error: \(folder)/application: this FULL file has 2 rows but the live table application has 25"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-shrink"))
        #expect(try Self.rows(cli, db: db, "SELECT count(*) FROM application") == ["25"])
        let allowed = try cli.run(["import", "--db", db, "--allow-shrink", folder])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try Self.rows(cli, db: db, "SELECT count(*) FROM application") == ["2"])
    }

    @Test("An import with nothing to import creates nothing: no catalog, no lock file")
    func nothingToImportCreatesNothing() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let empty = cli.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), empty])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("nothing to import"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.folder.path) == ["empty"])
    }

    /// `--require-feeds`: a path with no feed at all fails the nightly job
    /// (exit 1, saying so), while feeds all applied already stay a success.
    @Test("--require-feeds: no feed at all exits 1; feeds already applied exit 0")
    func requireFeeds() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let empty = cli.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let db = cli.path("c.sqlite")
        let none = try cli.run(["import", "--db", db, "--require-feeds", empty])
        #expect(none.status == 1, "\(none.stderr)")
        #expect(none.stderr.contains("epf import: no table files or archives in \(empty) (--require-feeds: exit 1)"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        let first = try cli.run(["import", "--db", db, "--require-feeds", SampleFeeds.path("itunes20261101")])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try cli.run(["import", "--db", db, "--require-feeds", SampleFeeds.path("itunes20261101")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("nothing to import"), "\(again.stderr)")
    }
}
