import EPFCatalog
import EPFSynthetic
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Kills `epf import` with SIGKILL at random moments and at each named
/// phase (test-only fault points: after a checkpoint, before the index
/// build, inside the apply transaction, after it), then runs the same
/// import again. Every time: readers of the killed catalog see a whole
/// catalog (the old one or a newer one, never half of a swap), the second
/// run finishes, and the catalog equals that of an uninterrupted import.
@Suite("Crash and resume")
struct CrashResumeTests {
    /// Small chunks and checkpoints, so a 4 MB file has a dozen commits.
    static let hooks = ["EPF_TEST_CHUNK_BYTES": "131072", "EPF_TEST_CHECKPOINT_BYTES": "262144"]

    /// The feeds: day 1 (FULL) is in the baseline catalog; the import under
    /// test applies day 2 (FULL, more applications) and day 3 (INCREMENTAL,
    /// rewriting the first 800 applications).
    final class Fixture: @unchecked Sendable {
        let cli: CLIRunner
        let baseline: String
        let days: [String]
        let reference: Snapshot
        /// How long the uninterrupted import of days 2 and 3 took.
        let duration: Duration

        init() throws {
            cli = try CLIRunner()
            let day1 = cli.path("itunes20261201")
            let day2 = cli.path("itunes20261202")
            let day3 = cli.path("itunes20261203")
            for (folder, rows, seed) in [(day1, 1500, 1), (day2, 2000, 2), (day3, 800, 3)] {
                let generated = try cli.run(["generate", "--out", folder, "--rows", "\(rows)", "--seed", "\(seed)", "--storefronts", "2"])
                #expect(generated.status == 0, "\(generated.stderr)")
            }
            try CrashResumeTests.makeIncremental(day3)
            days = [day2, day3]
            baseline = cli.path("baseline.sqlite")
            let first = try cli.run(["import", "--db", baseline, day1])
            #expect(first.status == 0, "\(first.stderr)")

            let referencePath = try CrashResumeTests.copy(baseline, to: cli.path("reference.sqlite"))
            let clock = ContinuousClock.now
            let uninterrupted = try cli.run(["import", "--db", referencePath] + days, environment: CrashResumeTests.hooks)
            duration = ContinuousClock.now - clock
            #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
            reference = try Snapshot(referencePath)
        }
    }

    /// What a catalog holds, compared between runs: every row of the EPF
    /// tables in key order, the search index's entries, what the importer
    /// knows of each table, and the applied files of the journal.
    struct Snapshot: Equatable {
        var application: [[SQLValue]]
        var prices: [[SQLValue]]
        var searchEntries: [[SQLValue]]
        var tableInfo: [[SQLValue]]
        var applied: [[SQLValue]]

        /// What differs, for a failure message.
        func differences(from other: Snapshot) -> String {
            var parts: [String] = []
            if application != other.application {
                parts.append("application (\(application.count) rows against \(other.application.count); first different: \(zip(application, other.application).first { $0 != $1 }.map { "\($0.0) vs \($0.1)" } ?? "-"))")
            }
            if prices != other.prices { parts.append("application_price (\(prices.count) rows against \(other.prices.count))") }
            if searchEntries != other.searchEntries { parts.append("search entries (\(searchEntries.count) against \(other.searchEntries.count))") }
            if tableInfo != other.tableInfo { parts.append("table info \(tableInfo) against \(other.tableInfo)") }
            if applied != other.applied { parts.append("journal \(applied) against \(other.applied)") }
            return parts.joined(separator: "; ")
        }

        init(_ path: String) throws {
            let database = try SQLiteDatabase(path: path, readOnly: true)
            application = try database.rows("SELECT * FROM application ORDER BY application_id")
            prices = try database.rows("SELECT * FROM application_price ORDER BY application_id, storefront_id")
            searchEntries = try database.rows(
                "SELECT rowid FROM epf_search_application WHERE epf_search_application MATCH 'chess OR puzzle OR pro' ORDER BY rowid")
            tableInfo = try database.rows(
                "SELECT table_name, feed, export_mode, export_date, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name")
            applied = try database.rows(
                "SELECT feed_date, table_name, mode, rows, source_path FROM epf_journal WHERE status = 'applied' ORDER BY feed_date, table_name")
        }
    }

    static let fixture = Result { try Fixture() }

    /// Day 3's application table as an INCREMENTAL file.
    static func makeIncremental(_ folder: String) throws {
        let path = (folder as NSString).appendingPathComponent("application")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let mode = try #require(bytes.range(of: Data("#exportMode:FULL".utf8)))
        bytes.replaceSubrange(mode, with: Data("#exportMode:INCREMENTAL".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent("application_price"))
    }

    static func copy(_ catalog: String, to path: String) throws -> String {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
            if FileManager.default.fileExists(atPath: catalog + suffix) {
                try FileManager.default.copyItem(atPath: catalog + suffix, toPath: path + suffix)
            }
        }
        return path
    }

    enum Moment: CustomStringConvertible {
        /// At a fault point (`EPF_TEST_FAULT`).
        case at(String)
        /// After this share of an uninterrupted import's time.
        case after(Double)

        var description: String {
            switch self {
            case .at(let point): "at \(point)"
            case .after(let share): "after \(Int(share * 100))% of the import's time"
            }
        }
    }

    /// The trials: every fault point, then random moments (a fixed seed,
    /// so a failure can be run again).
    static var trials: [Moment] {
        let points = [
            "checkpoint:1", "checkpoint:4", "checkpoint:9", "checkpoint:14", "before-index:1", "before-index:2", "before-index:3",
            "in-apply:1", "in-apply:2", "after-apply:1",
        ]
        var random = SplitMix64(seed: 20_261_123)
        let randoms = (0..<12).map { _ in Moment.after(0.05 + Double(random.next() % 850) / 1000) }
        return points.map(Moment.at) + randoms
    }

    @Test func killedImportsResumeToTheCatalogOfAnUninterruptedOne() throws {
        let fixture = try Self.fixture.get()
        let cli = fixture.cli
        var killed = 0
        var resumedLoads = 0
        for (number, moment) in Self.trials.enumerated() {
            let catalog = try Self.copy(fixture.baseline, to: cli.path("trial.sqlite"))
            let process = Process()
            process.executableURL = try CLIRunner.executable
            process.arguments = ["import", "--db", catalog] + fixture.days
            process.currentDirectoryURL = cli.folder
            var environment = ProcessInfo.processInfo.environment.merging(Self.hooks) { $1 }
            environment.removeValue(forKey: "EPF_DB")
            var delay: Duration?
            switch moment {
            case .at(let point): environment["EPF_TEST_FAULT"] = point
            case .after(let share): delay = fixture.duration * share
            }
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            if let delay {
                Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let wasKilled = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
            if wasKilled { killed += 1 }
            if case .at = moment { #expect(wasKilled, "trial \(number) (\(moment)): the fault point was not reached") }

            // A reader of the killed catalog sees a whole catalog.
            let search = try cli.run(["search", "--db", catalog, "chess", "--limit", "5", "--format", "csv"])
            #expect(search.status == 0, "trial \(number) (\(moment)): a search after the kill failed: \(search.stderr)")
            let database = try SQLiteDatabase(path: catalog, readOnly: true)
            let rows = try database.scalar("SELECT count(*) FROM application")?.integerValue
            let indexed = try database.scalar("SELECT count(*) FROM epf_search_application")?.integerValue
            #expect([1500, 2000].contains(rows), "trial \(number) (\(moment)): \(rows.map(String.init) ?? "no") applications")
            #expect(indexed == rows, "trial \(number) (\(moment)): \(indexed ?? -1) search entries for \(rows ?? -1) applications")

            // The same import again finishes it.
            let again = try cli.run(["import", "--db", catalog] + fixture.days, environment: Self.hooks)
            #expect(again.status == 0, "trial \(number) (\(moment)): \(again.stderr)")
            if again.stderr.contains("resuming ") { resumedLoads += 1 }
            let result = try Snapshot(catalog)
            #expect(result == fixture.reference, "trial \(number) (\(moment)): the catalog differs from an uninterrupted import: \(result.differences(from: fixture.reference))")
            #expect(try SQLiteDatabase(path: catalog, readOnly: true).scalar("SELECT count(*) FROM epf_checkpoint") == .integer(0))
        }
        #expect(killed >= 20, "only \(killed) of \(Self.trials.count) imports were killed before they finished")
        #expect(resumedLoads >= 5, "only \(resumedLoads) runs resumed a load")
    }
}
