@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// `epf import --lake` of a generated FULL day and an INCREMENTAL day (256
/// KB row groups: the application files have a dozen), killed with SIGKILL
/// at fault points (a row group written, inside an apply) and at random
/// moments of an uninterrupted import's time. After each kill, DuckDB reads
/// the lake: every file its `*.parquet` glob finds is whole (its partition
/// holds the uninterrupted import's rows), and the views run. The same
/// import again leaves no temporary file and a lake that shows DuckDB what
/// the uninterrupted one does: every partition's rows and every view's rows.
@Suite(.enabled(if: ReaderPython.available, ReaderPython.skipReason), .serialized)
struct LakeCrashTests {
    /// 256 KB row groups, 128 KB chunks.
    static let hooks = ["EPF_TEST_CHECKPOINT_BYTES": "262144", "EPF_TEST_CHUNK_BYTES": "131072"]

    let folder: URL

    init() throws { folder = try TemporaryFolder.create("epf-lake-crash") }

    /// Fault points, then random moments (a fixed seed, so a failure can be
    /// run again).
    static var trials: [KillMoment] {
        var random = SplitMix64(seed: 20_261_125)
        let randoms = (0..<6).map { _ in KillMoment.after(0.05 + Double(random.next() % 900) / 1000) }
        return ["checkpoint:5", "in-apply:1", "in-apply:2"].map(KillMoment.at) + randoms
    }

    @Test(.timeLimit(.minutes(5)))
    func killedAtRandomMomentsTheRerunCompletesTheLake() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let days = try [LakeFeedDay(day: "2026-12-01", rows: 2000), LakeFeedDay(day: "2026-12-02", rows: 600, incremental: true)]
            .map { try $0.generate(in: folder) }
        let reference = folder.appendingPathComponent("reference").path
        let clock = ContinuousClock.now
        let uninterrupted = try EPFRunner.run(["import", "--lake", reference] + days, in: folder, environment: Self.hooks)
        let duration = ContinuousClock.now - clock
        #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
        let expected = try LakeReaders.sight(lake: reference)
        #expect(expected.partitionRows.count == 18 && expected.current.count == 9)
        #expect(expected.partitionRows["application/export_date=2026-12-01/mode=FULL"] == 2000)

        var killed = 0
        var short = 0  // kills that left the lake without some of the days
        for (number, moment) in Self.trials.enumerated() {
            let trial = "trial \(number) (\(moment))"
            let lake = folder.appendingPathComponent("lake").path
            try? FileManager.default.removeItem(atPath: lake)
            let wasKilled = try moment.run(["import", "--lake", lake] + days, in: folder, environment: Self.hooks, uninterrupted: duration)
            if wasKilled { killed += 1 }
            if case .at = moment { #expect(wasKilled, "\(trial): the fault point was not reached") }

            let seen = try LakeReaders.sight(lake: lake)
            if seen.partitionRows.count < expected.partitionRows.count { short += 1 }
            for (partition, rows) in seen.partitionRows {
                #expect(expected.partitionRows[partition] == rows, "\(trial): \(partition) shows \(rows) rows")
            }

            let again = try EPFRunner.run(["import", "--lake", lake] + days, in: folder)
            #expect(again.status == 0, "\(trial): \(again.stderr)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: lake)
            #expect(!files.contains { $0.hasSuffix(".tmp") }, "\(trial): \(files.filter { $0.hasSuffix(".tmp") })")
            #expect(try LakeReaders.sight(lake: lake) == expected, "\(trial): the lake differs from the uninterrupted import's")
            #expect(try LakeReaders.journal(lake).count == 18, "\(trial)")
        }
        #expect(killed >= 5, "only \(killed) of \(Self.trials.count) imports were killed before they finished")
        #expect(short >= 4, "only \(short) kills left the lake short of a day")
    }
}
