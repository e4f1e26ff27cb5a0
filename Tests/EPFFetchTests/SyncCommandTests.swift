import EPFImport
import EPFTestSupport
import Foundation
import Testing

@testable import EPFFetch

/// `epf sync` against the local nginx (`TestFeedServer`).
@Suite("epf sync", .enabled(if: TestFeedServer.available, TestFeedServer.skipReason), .timeLimit(.minutes(2)))
struct SyncCommandTests {
    typealias Setup = FetchCommandTests.Setup

    func sync(_ setup: Setup, _ tree: String = "v5", _ arguments: [String] = []) throws -> EPFRunner.Result {
        try setup.epf(["sync", "--to", "dl", "--db", "synced.sqlite", "--url", setup.server.url(tree)] + arguments)
    }

    /// Sync of the test tree = an import of the tree; the second run
    /// downloads and imports nothing.
    @Test func syncIsFetchThenImportAndASecondRunDoesNothing() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let first = try sync(setup)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("epf sync: 14 file(s) downloaded"), "\(first.stderr)")
        #expect(!first.stderr.contains("nothing to import"), "\(first.stderr)")
        #expect(!first.stderr.contains(TestFeedServer.password) && !first.stdout.contains(TestFeedServer.password))

        let source = try setup.epf(["import", setup.server.www.appendingPathComponent("v5/current").path, "--db", "source.sqlite"])
        #expect(source.status == 0, "\(source.stderr)")
        let synced = try setup.catalog("synced.sqlite")
        #expect(synced == (try setup.catalog("source.sqlite")))
        #expect(synced["application"]?.count ?? 0 > 1)

        let before = setup.server.requests.count
        let second = try sync(setup)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("epf sync: 0 file(s) downloaded (0 bytes), 14 already there, 0 failed"), "\(second.stderr)")
        #expect(second.stderr.contains("epf sync: nothing to import"), "\(second.stderr)")
        let again = setup.server.requests.dropFirst(before)
        #expect(!again.contains { $0.contains(".tbz ") }, "\(Array(again))")
        #expect(try setup.catalog("synced.sqlite") == synced)
    }

    /// `--require-feeds`: a server folder that lists no feed fails the
    /// nightly job (exit 1, saying so); without the option it is "nothing
    /// to fetch", exit 0.
    @Test func requireFeedsFailsOnAServerThatListsNoFeed() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        try FileManager.default.createDirectory(
            at: setup.server.www.appendingPathComponent("empty/current"), withIntermediateDirectories: true)
        let lenient = try sync(setup, "empty")
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("epf sync: nothing to fetch"), "\(lenient.stderr)")
        let strict = try sync(setup, "empty", ["--require-feeds"])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(
            strict.stderr.contains("epf sync: the server lists no feed at \(setup.server.url("empty")) (--require-feeds: exit 1)"),
            "\(strict.stderr)")
        let full = try sync(setup, "v5", ["--require-feeds"])
        #expect(full.status == 0, "\(full.stderr)")
    }

    /// A listed file that is not there: its feed is not imported (never
    /// half), the message says why, exit 1; no catalog table has its rows.
    @Test func aFeedThatDidNotDownloadWholeIsNotImported() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = try sync(setup, "missing")
        #expect(result.status == 1)
        #expect(result.stderr.contains("failed: dl/itunes20261101/ghost.tbz: "), "\(result.stderr)")
        #expect(result.stderr.contains("note: dl/itunes20261101: not imported: 1 of its file(s) did not download"), "\(result.stderr)")
        #expect(result.stderr.contains("epf sync: nothing to import: no complete feed in dl"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/application.tbz")))
        #expect(!FileManager.default.fileExists(atPath: setup.path("synced.sqlite")))
    }

    @Test func usageErrorsExit64() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        #expect(try setup.epf(["sync", "--db", "c.sqlite"]).status == 64)
        #expect(try setup.epf(["sync", "--to", "dl", "--url", "ftp://x/"]).status == 64)
        #expect(try setup.epf(["sync", "--to", "dl", "--table-prefix", "a-b"]).status == 64)
    }
}

/// Which feeds of a download folder `epf sync` withholds.
@Suite("incomplete feeds")
struct IncompleteFeedsTests {
    func file(_ feed: String, isFull: Bool = true) -> RemoteFile {
        RemoteFile(path: feed + "/genre.tbz", size: nil, md5Path: nil, feed: FeedName(feed)!, isFull: isFull, table: "genre")
    }

    @Test func aFeedWithAFailedFileAndItsLaterDaysAreWithheld() throws {
        let folder = try TemporaryFolder.create("epf-incomplete")
        defer { try? FileManager.default.removeItem(at: folder) }
        for feed in ["itunes20261101", "pricing20261101"] {
            try FileManager.default.copyItem(at: SampleFeeds.url(feed), to: folder.appendingPathComponent(feed))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("incremental"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SampleFeeds.url("itunes20261102"), to: folder.appendingPathComponent("incremental/itunes20261102"))
        let plan = try ImportPlanner.plan(paths: [folder.path], filter: TableFilter())
        func kept(_ failed: [String], feeds: Set<String>? = nil) -> ([String], [String]) {
            let (kept, notes) = IncompleteFeeds.withhold(plan, failed: failed.map { file($0) }, feeds: feeds)
            return (kept.units.compactMap { $0.feed.map { $0.feed + $0.date } }, notes)
        }
        #expect(kept([]).0 == ["itunes20261101", "pricing20261101", "itunes20261102"])
        let (fullMissing, notes) = kept(["itunes20261101"])
        #expect(fullMissing == ["pricing20261101"])
        #expect(notes.count == 2)
        #expect(notes.last?.hasSuffix("itunes20261102: not imported: it comes after itunes20261101, which did not download whole") == true)
        #expect(kept(["itunes20261102"]).0 == ["itunes20261101", "pricing20261101"])
        #expect(kept(["pricing20261101"]).0 == ["itunes20261101", "itunes20261102"])
        #expect(kept([], feeds: ["pricing"]).0 == ["pricing20261101"])

        // Still downloading: its day and the later days of its feed wait,
        // without a note; a FULL holds back its whole feed.
        func waiting(_ pending: [RemoteFile]) -> ([String], [String]) {
            let (kept, notes) = IncompleteFeeds.withhold(plan, failed: [], pending: pending, feeds: nil)
            return (kept.units.compactMap { $0.feed.map { $0.feed + $0.date } }, notes)
        }
        #expect(waiting([file("itunes20261102", isFull: false)]) == (["itunes20261101", "pricing20261101"], []))
        #expect(waiting([file("itunes20261101")]) == (["pricing20261101"], []))
        #expect(waiting([file("itunes20261105", isFull: false)]).0 == ["itunes20261101", "pricing20261101", "itunes20261102"])
        #expect(waiting([file("pricing20261101"), file("itunes20261102", isFull: false)]).0 == ["itunes20261101"])
    }
}
