import EPFTestSupport
import Foundation
import Testing

/// `epf sync` imports each feed day as soon as its files are in, while
/// the later files still download: the fault server answers the last
/// day's file 4 s late, and the FULL day is applied before that file is.
@Suite("epf sync imports while downloading", .enabled(if: FaultServer.available, FaultServer.skipReason), .timeLimit(.minutes(2)))
struct SyncImportsWhileDownloadingTests {
    static let late = "/days/current/incremental/current/itunes20261204/application.tbz"

    @Test func theFullDayIsAppliedBeforeTheLastDownloadEnds() throws {
        let setup = try SyncDaysTests.FaultSetup(faults: [Self.late: ["slow:4000"]])
        defer { setup.cleanUp() }
        let (folder, environment) = (setup.folder, setup.environment)
        let sync = setup.sync("synced") + ["--jobs", "2"]
        let first = try EPFRunner.run(sync, in: folder, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stderr.split(separator: "\n").map(String.init)
        let applied = lines.firstIndex { $0.hasPrefix("epf sync: synced-dl/itunes20261201: 2 file(s) applied, 0 failed, while ") }
        let lastFetched = lines.firstIndex { $0.hasPrefix("fetched: synced-dl/incremental/current/itunes20261204/application.tbz ") }
        #expect(applied != nil && lastFetched != nil, "\(first.stderr)")
        if let applied, let lastFetched { #expect(applied < lastFetched, "\(first.stderr)") }
        // Day 4 came last: imported by the last pass, after the download.
        #expect(!first.stderr.contains("epf sync: synced-dl/incremental/current/itunes20261204: "), "\(first.stderr)")
        // One summary, of every file imported.
        #expect(first.stderr.contains("5 file(s) applied, 0 failed"), "\(first.stderr)")

        let whole = try EPFRunner.run(["import", "--db", "whole.sqlite", setup.tree.path], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try SyncDaysTests.rows("synced.sqlite", in: folder) == SyncDaysTests.rows("whole.sqlite", in: folder))

        let second = try EPFRunner.run(sync, in: folder, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("epf sync: 0 file(s) downloaded (0 bytes), 5 already there, 0 failed"), "\(second.stderr)")
        #expect(second.stderr.contains("epf sync: nothing to import"), "\(second.stderr)")
        #expect(second.stderr.contains("0 file(s) applied, 0 failed"), "\(second.stderr)")
    }
}
