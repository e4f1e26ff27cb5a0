import EPFCatalog
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// Kills `epf import` with SIGKILL at random moments and at each named
/// phase (test-only fault points: after a checkpoint, before the index
/// build, inside the apply transaction, after it), in each way a SQLite
/// import writes: a re-import in WAL mode, a re-import with `--exclusive`
/// (rollback journal), and the first import into a new catalog (rollback
/// journal too). After every kill, readers answer at once from the last
/// committed catalog (`epf tables`, `epf lookup`, `epf search`: the old
/// catalog or a newer whole one, never an error, never half of a swap),
/// even with a hot journal left or the WAL's `-shm` gone; then the same
/// import runs again and the catalog equals that of an uninterrupted one.
@Suite("Crash and resume", .serialized)
struct CrashResumeTests {
    /// Small chunks and checkpoints, so a 4 MB file has a dozen commits; a
    /// small page cache, so that transactions spill pages into the catalog
    /// (a killed rollback-journal import leaves a hot journal, a killed WAL
    /// import uncommitted frames) as a large import's do. 64 KiB is four
    /// 16 KiB pages (SQLite keeps ten at least): an apply dirties a dozen,
    /// so it spills with room to spare.
    static let hooks = ["EPF_TEST_CHUNK_BYTES": "131072", "EPF_TEST_CHECKPOINT_BYTES": "262144", "EPF_TEST_CACHE_KIB": "64"]

    /// An application in every state of the catalog, rewritten by day 3.
    static let appleID = "300000000"

    /// How the import under test writes.
    enum Mode: String, CustomStringConvertible {
        /// Days 2 and 3 into the day-1 catalog, in WAL mode.
        case wal
        /// The same with `--exclusive`: the rollback journal.
        case exclusive
        /// Days 1 to 3 into a new catalog (rollback journal until it ends).
        case firstImport

        var description: String { rawValue }

        /// The `epf` arguments of the import into `catalog`.
        func arguments(_ catalog: String, _ fixture: Fixture) -> [String] {
            switch self {
            case .wal: ["import", "--db", catalog] + fixture.days
            case .exclusive: ["import", "--exclusive", "--db", catalog] + fixture.days
            case .firstImport: ["import", "--db", catalog, fixture.day1] + fixture.days
            }
        }
    }

    /// The feeds: day 1 (FULL) is in the baseline catalog; the import under
    /// test applies day 2 (FULL, more applications) and day 3 (INCREMENTAL,
    /// rewriting the first 800 applications).
    final class Fixture: @unchecked Sendable {
        let cli: CLIRunner
        let day1: String
        let days: [String]
        let baseline: String
        /// Each mode's uninterrupted import: what it makes and how long it took.
        var references: [Mode: (snapshot: Snapshot, duration: Duration)] = [:]
        /// `epf lookup appleID` in each committed state: day 1, days 1-2, days 1-3.
        var lookups: Set<String> = []

        init() throws {
            cli = try CLIRunner()
            let generated = try GeneratedDays(in: cli.folder)
            day1 = generated.day1
            let day2 = generated.day2
            days = [day2, generated.day3]
            baseline = cli.path("baseline.sqlite")
            let first = try cli.run(["import", "--db", baseline, day1])
            #expect(first.status == 0, "\(first.stderr)")

            for mode in [Mode.wal, .exclusive, .firstImport] {
                let path = cli.path("reference-\(mode).sqlite")
                try CrashResumeTests.start(mode, at: path, from: baseline)
                let clock = ContinuousClock.now
                let uninterrupted = try cli.run(mode.arguments(path, self), environment: CrashResumeTests.hooks)
                let duration = ContinuousClock.now - clock
                #expect(uninterrupted.status == 0, "\(mode): \(uninterrupted.stderr)")
                references[mode] = (try Snapshot(path), duration)
                lookups.insert(try lookup(path))
            }
            let dayTwo = try CrashResumeTests.copy(baseline, to: cli.path("day2.sqlite"))
            #expect(try cli.run(["import", "--db", dayTwo, day2]).status == 0)
            lookups.insert(try lookup(baseline))
            lookups.insert(try lookup(dayTwo))
            #expect(lookups.count == 3, "day 1, days 1-2 and days 1-3 each answer one lookup")
        }

        private func lookup(_ catalog: String) throws -> String {
            let result = try cli.run(["lookup", "--db", catalog, CrashResumeTests.appleID])
            #expect(result.status == 0 && result.stdout.contains("\"resultCount\":1"), "\(result.stderr)")
            return result.stdout
        }
    }

    /// What a catalog holds, compared between runs: every row of the EPF
    /// tables in key order, the search index's entries, what the importer
    /// knows of each table, the applied files of the journal, and the page
    /// size and journal mode.
    struct Snapshot: Equatable {
        var settings: [SQLValue?]
        var application: [[SQLValue]]
        var prices: [[SQLValue]]
        var searchEntries: [[SQLValue]]
        var tableInfo: [[SQLValue]]
        var applied: [[SQLValue]]

        /// What differs, for a failure message.
        func differences(from other: Snapshot) -> String {
            var parts: [String] = []
            if application != other.application {
                parts.append(
                    "application (\(application.count) rows against \(other.application.count); first different: \(zip(application, other.application).first { $0 != $1 }.map { "\($0.0) vs \($0.1)" } ?? "-"))"
                )
            }
            if prices != other.prices { parts.append("application_price (\(prices.count) rows against \(other.prices.count))") }
            if searchEntries != other.searchEntries {
                parts.append("search entries (\(searchEntries.count) against \(other.searchEntries.count))")
            }
            if tableInfo != other.tableInfo { parts.append("table info \(tableInfo) against \(other.tableInfo)") }
            if applied != other.applied { parts.append("journal \(applied) against \(other.applied)") }
            if settings != other.settings { parts.append("page size and journal mode \(settings) against \(other.settings)") }
            return parts.joined(separator: "; ")
        }

        init(_ path: String) throws {
            let database = try SQLiteDatabase.openForReading(path: path)
            settings = [try database.scalar("PRAGMA page_size"), try database.scalar("PRAGMA journal_mode")]
            application = try database.rows("SELECT * FROM application ORDER BY application_id")
            prices = try database.rows("SELECT * FROM application_price ORDER BY application_id, storefront_id")
            searchEntries = try database.rows(
                "SELECT rowid FROM epf_search_application WHERE epf_search_application MATCH 'chess OR puzzle OR pro' ORDER BY rowid")
            tableInfo = try database.rows(
                "SELECT table_name, feed, export_mode, export_date, columns, primary_key, source_path FROM epf_table_info ORDER BY table_name"
            )
            applied = try database.rows(
                "SELECT feed_date, table_name, mode, rows, source_path FROM epf_journal WHERE status = 'applied' ORDER BY feed_date, table_name"
            )
        }
    }

    static let fixture = Result { try Fixture() }

    static let sideFiles = ["", "-wal", "-shm", "-journal"]

    static func copy(_ catalog: String, to path: String) throws -> String {
        for suffix in sideFiles {
            try? FileManager.default.removeItem(atPath: path + suffix)
            if FileManager.default.fileExists(atPath: catalog + suffix) {
                try FileManager.default.copyItem(atPath: catalog + suffix, toPath: path + suffix)
            }
        }
        return path
    }

    /// The catalog at `path` as `mode`'s import finds it: a copy of the
    /// baseline, or none.
    static func start(_ mode: Mode, at path: String, from baseline: String) throws {
        if mode == .firstImport {
            for suffix in sideFiles { try? FileManager.default.removeItem(atPath: path + suffix) }
        } else {
            _ = try copy(baseline, to: path)
        }
    }

    /// Whether `path` is a hot rollback journal: it begins with the magic
    /// SQLite writes once the journal holds pages the catalog must get back.
    static func isHotJournal(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let magic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
        return (try? handle.read(upToCount: 8)).map { [UInt8]($0) == magic } ?? false
    }

    /// The trials of `mode`: fault points, then random moments (a fixed
    /// seed, so a failure can be run again).
    static func trials(_ mode: Mode) -> [KillMoment] {
        let points: [String]
        let randomCount: Int
        switch mode {
        case .wal:
            points = [
                "checkpoint:1", "checkpoint:4", "checkpoint:9", "checkpoint:14", "before-index:1", "before-index:2", "before-index:3",
                "in-apply:1", "in-apply:2", "after-apply:1",
            ]
            randomCount = 6
        case .exclusive:
            points = ["checkpoint:4", "before-index:1", "before-index:3", "in-apply:1", "in-apply:2", "after-apply:1"]
            randomCount = 4
        case .firstImport:
            // Day 1 is two files and one apply; days 2 and 3 as above.
            points = ["checkpoint:2", "before-index:2", "in-apply:1", "before-index:3", "in-apply:2", "in-apply:3", "after-apply:2"]
            randomCount = 4
        }
        var random = SplitMix64(seed: 20_261_123 &+ UInt64(mode.rawValue.utf8.count))
        let randoms = (0..<randomCount).map { _ in KillMoment.after(0.05 + Double(random.next() % 850) / 1000) }
        return points.map(KillMoment.at) + randoms
    }

    // Minimum kills: every fault point, and one random moment (on a busy
    // machine a random moment may come after the run has finished).
    @Test("WAL re-imports killed at every phase and at random moments")
    func walReimport() throws { try killAndResume(.wal, minimumKills: 11, minimumResumed: 5) }

    @Test("--exclusive re-imports killed: readers roll the hot journal back")
    func exclusiveReimport() throws { try killAndResume(.exclusive, minimumKills: 7, minimumResumed: 2, minimumHotJournals: 2) }

    @Test("First imports into a new catalog killed: readers roll the hot journal back")
    func firstImport() throws { try killAndResume(.firstImport, minimumKills: 8, minimumResumed: 2, minimumHotJournals: 2) }

    @Test("A first import killed before its first commit leaves an empty file: the next import makes a new catalog of it")
    func emptyCatalogFileIsNew() throws {
        let fixture = try Self.fixture.get()
        let catalog = fixture.cli.path("empty.sqlite")
        try Self.start(.firstImport, at: catalog, from: fixture.baseline)
        #expect(FileManager.default.createFile(atPath: catalog, contents: nil))
        let tables = try fixture.cli.run(["tables", "--db", catalog])
        #expect(tables.status == 0 && tables.stderr.contains("no tables yet"), "\(tables.stderr)")
        let imported = try fixture.cli.run(Mode.firstImport.arguments(catalog, fixture))
        #expect(imported.status == 0, "\(imported.stderr)")
        let reference = try #require(fixture.references[.firstImport]).snapshot
        let result = try Snapshot(catalog)
        #expect(result == reference, "\(result.differences(from: reference))")
    }

    /// Kills `mode`'s import at each of its trials, checks the readers of
    /// the killed catalog, then runs the same import again.
    func killAndResume(_ mode: Mode, minimumKills: Int, minimumResumed: Int, minimumHotJournals: Int = 0) throws {
        let fixture = try Self.fixture.get()
        let cli = fixture.cli
        let reference = try #require(fixture.references[mode])
        var killed = 0
        var resumedLoads = 0
        var hotJournals = 0
        for (number, moment) in Self.trials(mode).enumerated() {
            let trial = "\(mode) trial \(number) (\(moment))"
            let catalog = cli.path("trial.sqlite")
            try Self.start(mode, at: catalog, from: fixture.baseline)
            let wasKilled = try moment.run(
                mode.arguments(catalog, fixture), in: cli.folder, environment: Self.hooks, uninterrupted: reference.duration)
            if wasKilled { killed += 1 }
            if case .at = moment { #expect(wasKilled, "\(trial): the fault point was not reached") }
            if Self.isHotJournal(catalog + "-journal") { hotJournals += 1 }
            // A killed WAL import's readers also rebuild a lost WAL index.
            if mode == .wal && number % 2 == 1 { try? FileManager.default.removeItem(atPath: catalog + "-shm") }

            try expectReadersAnswer(catalog, fixture, trial)

            // The same import again finishes it.
            // Without the hooks: fewer commits, and resuming needs none.
            let again = try cli.run(mode.arguments(catalog, fixture))
            #expect(again.status == 0, "\(trial): \(again.stderr)")
            if again.stderr.contains("resuming ") { resumedLoads += 1 }
            let result = try Snapshot(catalog)
            #expect(
                result == reference.snapshot,
                "\(trial): the catalog differs from an uninterrupted import: \(result.differences(from: reference.snapshot))")
            #expect(try SQLiteDatabase.openForReading(path: catalog).scalar("SELECT count(*) FROM epf_checkpoint") == .integer(0))
        }
        #expect(killed >= minimumKills, "\(mode): only \(killed) of \(Self.trials(mode).count) imports were killed before they finished")
        #expect(resumedLoads >= minimumResumed, "\(mode): only \(resumedLoads) runs resumed a load")
        #expect(hotJournals >= minimumHotJournals, "\(mode): only \(hotJournals) kills left a hot journal")
    }

    /// `epf tables`, `epf lookup` and `epf search` on the killed catalog
    /// answer at once, from a whole committed catalog.
    func expectReadersAnswer(_ catalog: String, _ fixture: Fixture, _ trial: String) throws {
        let cli = fixture.cli
        let clock = ContinuousClock.now
        let tables = try cli.run(["tables", "--db", catalog, "--format", "json"])
        let lookup = try cli.run(["lookup", "--db", catalog, Self.appleID])
        let search = try cli.run(["search", "--db", catalog, "chess", "--limit", "5", "--format", "csv"])
        // Well under SQLite's 10 s busy wait: nothing held the catalog.
        #expect(ContinuousClock.now - clock < .seconds(5), "\(trial): the readers waited")

        guard FileManager.default.fileExists(atPath: catalog) else {
            // Killed before the first import created the catalog.
            #expect(tables.status == 1 && tables.stderr.contains("no catalog there"), "\(trial): \(tables.stderr)")
            return
        }
        #expect(tables.status == 0, "\(trial): epf tables after the kill failed: \(tables.stderr)")
        guard tables.status == 0 else { return }
        let listed = (try? JSONSerialization.jsonObject(with: Data(tables.stdout.utf8))) as? [[String: Any]] ?? []
        let rows = Dictionary(listed.compactMap { row in (row["table"] as? String).map { ($0, row["rows"] as? Int) } }) { $1 }
        guard let applications = rows["application"] else {
            // A first import killed before it applied day 1: an empty catalog.
            #expect(rows.isEmpty, "\(trial): tables \(rows)")
            // Killed while loading application: its staging table says an
            // import was interrupted (and resumes); before it, no table.
            #expect(
                lookup.status == 1
                    && (lookup.stderr.contains("has no application table")
                        || lookup.stderr.contains("was interrupted before its application table was applied")),
                "\(trial): \(lookup.stderr)")
            return
        }
        #expect([1500, 2000].contains(applications), "\(trial): \(applications.map(String.init) ?? "no") applications")
        #expect(lookup.status == 0, "\(trial): epf lookup after the kill failed: \(lookup.stderr)")
        #expect(fixture.lookups.contains(lookup.stdout), "\(trial): the lookup answered from no committed catalog: \(lookup.stdout)")
        #expect(search.status == 0, "\(trial): a search after the kill failed: \(search.stderr)")

        let database = try SQLiteDatabase.openForReading(path: catalog)
        let indexed = try database.scalar("SELECT count(*) FROM epf_search_application")?.integerValue
        #expect(indexed.map(Int.init) == applications, "\(trial): \(indexed ?? -1) search entries for \(applications ?? -1) applications")
    }
}
