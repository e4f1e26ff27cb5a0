import EPFCatalog
import EPFFormat
import EPFPostgres
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// Kills `epf import --db postgres://...` with SIGKILL at each named phase
/// (the test-only fault points) and at random moments, then runs the same
/// import again: every time, the killed catalog is a whole catalog (the
/// old one or a newer one) that `epf tables` and `epf lookup` answer from at
/// once, the second run finishes, and the catalog equals that of an
/// uninterrupted import. Also: `--restart`, and a checkpoint of
/// another file (or the same file changed) is not resumed.
@Suite("Crash and resume against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct ResumeTests {
    /// Small chunks and checkpoints, so a 4 MB file has a dozen commits,
    /// each file over two COPY connections (`--jobs` 2), so that a kill
    /// may come between the lanes' commits.
    static let hooks = ["EPF_TEST_CHUNK_BYTES": "131072", "EPF_TEST_CHECKPOINT_BYTES": "262144", "EPF_PG_PARALLEL_COPY_MB": "0"]

    /// The feeds: day 1 (FULL) is in the baseline database; the import
    /// under test applies day 2 (FULL, two tables loading at once) and day
    /// 3 (INCREMENTAL, rewriting the first 800 applications). Each trial
    /// imports into a copy of the baseline (`CREATE DATABASE ... TEMPLATE`).
    final class Fixture {
        let folder: URL
        let baseline: TestDatabase
        let days: [String]
        let reference: Snapshot
        /// The uninterrupted import's catalog.
        let referenceDatabase: TestDatabase
        /// How long the uninterrupted import of days 2 and 3 took.
        let duration: Duration

        init() throws {
            folder = try TemporaryFolder.create("epf-pgresume")
            let generated = try GeneratedDays(in: folder)
            days = [generated.day2, generated.day3]
            baseline = try TestDatabase()
            let first = try EPFRunner.run(["import", "--db", baseline.url, generated.day1], in: folder)
            #expect(first.status == 0, "\(first.stderr)")
            try ResumeTests.waitForImportSessions(to: baseline)

            referenceDatabase = try TestDatabase(template: baseline)
            let clock = ContinuousClock.now
            let uninterrupted = try EPFRunner.run(
                ["import", "--db", referenceDatabase.url] + days, in: folder, environment: ResumeTests.hooks)
            duration = ContinuousClock.now - clock
            #expect(uninterrupted.status == 0, "\(uninterrupted.stderr)")
            reference = try Snapshot(referenceDatabase)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// What a catalog holds, compared between runs: every table value by
    /// value (`CanonicalCatalog`: rows, `epf_table_info`, unfit values) and
    /// the applied files of the journal.
    struct Snapshot {
        var catalog: CanonicalCatalog
        var applied: [[String?]]

        init(_ database: TestDatabase) throws {
            let connection = try database.connect()
            catalog = try CanonicalCatalog(postgres: connection)
            applied = try connection.query(
                "SELECT feed_date, table_name, mode, rows::text, source_path FROM epf_journal WHERE status = 'applied' ORDER BY feed_date, table_name"
            )
        }

        func expectEqual(to reference: Snapshot, _ trial: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                catalog == reference.catalog, "\(trial): the catalog differs from an uninterrupted import", sourceLocation: sourceLocation)
            if catalog != reference.catalog { catalog.expectEqual(to: reference.catalog, sourceLocation: sourceLocation) }
            #expect(
                applied == reference.applied, "\(trial): journal \(applied) against \(reference.applied)", sourceLocation: sourceLocation)
        }
    }

    /// Waits until the sessions of a killed `epf` have ended on the server.
    /// A killed client's session ends when its server process notices the
    /// closed socket, after the statement it is running; until then it
    /// still holds the import lock (and the locks of its transaction).
    static func waitForImportSessions(to database: TestDatabase) throws {
        let admin = try PostgresConnection(PostgresTarget(url: TestServer.url!))
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let sessions = try admin.scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND starts_with(application_name, 'epf')", [database.name])
            if sessions == "0" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("the sessions of a killed import are still there after 30 seconds")
    }

    /// The trials: every fault point, then random moments (a fixed seed,
    /// so a failure can be run again).
    static var trials: [KillMoment] {
        let points = ["checkpoint:1", "checkpoint:6", "before-index:1", "before-index:3", "in-apply:1", "in-apply:2", "after-apply:1"]
        var random = SplitMix64(seed: 20_261_207)
        let randoms = (0..<5).map { _ in KillMoment.after(0.1 + Double(random.next() % 800) / 1000) }
        return points.map(KillMoment.at) + randoms
    }

    /// An application in every state of the catalog, rewritten by day 3.
    static let appleID = "300000000"

    /// `epf lookup appleID` of the catalog `database`.
    static func lookup(_ database: TestDatabase, in folder: URL) throws -> EPFRunner.Result {
        try EPFRunner.run(["lookup", "--db", database.url, appleID], in: folder)
    }

    @Test("Imports killed at every phase and at random moments resume to the catalog of an uninterrupted import")
    func killedImportsResume() throws {
        let fixture = try Fixture()
        // What a lookup answers in each committed state: day 1, days 1-2, days 1-3.
        let dayTwo = try TestDatabase(template: fixture.baseline)
        #expect(try EPFRunner.run(["import", "--db", dayTwo.url, fixture.days[0]], in: fixture.folder).status == 0)
        try Self.waitForImportSessions(to: dayTwo)
        let lookups = Set(try [fixture.baseline, dayTwo, fixture.referenceDatabase].map { try Self.lookup($0, in: fixture.folder).stdout })
        #expect(lookups.count == 3 && lookups.allSatisfy { $0.contains("\"resultCount\":1") }, "\(lookups)")

        var killed = 0
        var resumedLoads = 0
        for (number, moment) in Self.trials.enumerated() {
            let trial = "trial \(number) (\(moment))"
            let database = try TestDatabase(template: fixture.baseline)
            let wasKilled = try moment.run(
                ["import", "--db", database.url] + fixture.days, in: fixture.folder, environment: Self.hooks,
                uninterrupted: fixture.duration)
            if wasKilled { killed += 1 }
            if case .at = moment { #expect(wasKilled, "\(trial): the fault point was not reached") }
            try Self.waitForImportSessions(to: database)

            // A reader of the killed catalog sees a whole catalog.
            let connection = try database.connect()
            let rows = try connection.scalar("SELECT count(*) FROM application")
            let prices = try connection.scalar("SELECT count(*) FROM application_price")
            #expect(
                [["1500", "3000"], ["2000", "4000"]].contains([rows, prices]),
                "\(trial): \(rows ?? "no") applications, \(prices ?? "no") prices")
            // epf tables and epf lookup answer at once from a committed catalog.
            let clock = ContinuousClock.now
            let tables = try EPFRunner.run(["tables", "--db", database.url, "--format", "json"], in: fixture.folder)
            let lookup = try Self.lookup(database, in: fixture.folder)
            #expect(ContinuousClock.now - clock < .seconds(5), "\(trial): the readers waited")
            #expect(tables.status == 0, "\(trial): epf tables after the kill failed: \(tables.stderr)")
            let listed = (try? JSONSerialization.jsonObject(with: Data(tables.stdout.utf8))) as? [[String: Any]] ?? []
            let listedRows = listed.first { $0["table"] as? String == "application" }?["rows"] as? Int
            #expect(
                listedRows.map(String.init) == rows, "\(trial): epf tables lists \(listedRows ?? -1) applications, not \(rows ?? "none")")
            #expect(lookup.status == 0, "\(trial): epf lookup after the kill failed: \(lookup.stderr)")
            #expect(lookups.contains(lookup.stdout), "\(trial): the lookup answered from no committed catalog: \(lookup.stdout)")

            // The same import again finishes it.
            let again = try EPFRunner.run(["import", "--db", database.url] + fixture.days, in: fixture.folder, environment: Self.hooks)
            #expect(again.status == 0, "\(trial): \(again.stderr)")
            if again.stderr.contains("resuming ") { resumedLoads += 1 }
            try Snapshot(database).expectEqual(to: fixture.reference, trial)
            #expect(try connection.scalar("SELECT count(*) FROM epf_checkpoint") == "0", "\(trial)")
            #expect(try connection.scalar("SELECT count(*) FROM pg_tables WHERE starts_with(tablename, 'epf_stage_')") == "0", "\(trial)")
        }
        // Every fault point kills; a random moment may come after a run on a
        // busy machine has finished, so one of them is enough.
        #expect(killed >= 8, "only \(killed) of \(Self.trials.count) imports were killed before they finished")
        #expect(resumedLoads >= 4, "only \(resumedLoads) runs resumed a load")
    }

    @Test("Killed after the other COPY connections committed and before the checkpoint: the rows past it are deleted on resume, none twice")
    func killedBetweenLaneCommits() throws {
        let fixture = try Fixture()
        let database = try TestDatabase(template: fixture.baseline)
        var environment = Self.hooks
        environment["EPF_TEST_FAULT"] = "lanes-committed:2"
        let killed = try EPFRunner.run(["import", "--db", database.url] + fixture.days, in: fixture.folder, environment: environment)
        #expect(killed.status != 0, "the fault point was not reached: \(killed.stderr)")
        try Self.waitForImportSessions(to: database)

        // The kill left committed rows past the committed checkpoint.
        let connection = try database.connect()
        let checkpoints = try connection.query("SELECT staging_name, records FROM epf_checkpoint")
        var beyond = 0
        for row in checkpoints {
            // A completely staged table has lost its epf_record column.
            guard let staging = row[0], let records = row[1],
                try connection.scalar(
                    "SELECT count(*) FROM information_schema.columns WHERE table_name = $1 AND column_name = 'epf_record'", [staging])
                    == "1"
            else { continue }
            beyond +=
                Int(try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(staging)) WHERE epf_record > $1", [records]) ?? "0") ?? 0
        }
        #expect(beyond > 0, "no rows past the checkpoint in \(checkpoints)")

        let again = try EPFRunner.run(
            ["import", "--db", database.url, "--format", "json"] + fixture.days, in: fixture.folder, environment: Self.hooks)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("resum"), "\(again.stderr)")
        // Rows loaded twice would be counted as repeated keys.
        let summary = (try? JSONSerialization.jsonObject(with: Data(again.stdout.utf8))) as? [String: Any]
        let files = summary?["files"] as? [[String: Any]] ?? []
        let duplicates = files.map { ($0["counts"] as? [String: Any])?["duplicateKeys"] as? Int ?? -1 }
        #expect(!files.isEmpty && duplicates.allSatisfy { $0 == 0 }, "\(duplicates) \(again.stdout)")
        try Snapshot(database).expectEqual(to: fixture.reference, "killed between lane commits")
    }

    @Test("--restart starts a killed load over; a changed file is not resumed")
    func restartAndChangedFile() throws {
        let fixture = try Fixture()
        for variant in ["--restart", "touched"] {
            let database = try TestDatabase(template: fixture.baseline)
            var environment = Self.hooks
            environment["EPF_TEST_FAULT"] = "checkpoint:3"
            let killed = try EPFRunner.run(["import", "--db", database.url] + fixture.days, in: fixture.folder, environment: environment)
            #expect(killed.status != 0)
            try Self.waitForImportSessions(to: database)
            let connection = try database.connect()
            let left = try connection.scalar("SELECT count(*) FROM epf_checkpoint")
            #expect(left != "0", "\(variant): the killed import committed no checkpoint")

            var arguments = ["import", "--db", database.url] + fixture.days
            if variant == "--restart" {
                arguments.insert("--restart", at: 1)
            } else {
                // The same bytes, another modification time: another file.
                for path in try FileManager.default.contentsOfDirectory(atPath: fixture.days[0]) {
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date(timeIntervalSinceNow: -3600)],
                        ofItemAtPath: (fixture.days[0] as NSString).appendingPathComponent(path))
                }
            }
            let again = try EPFRunner.run(arguments, in: fixture.folder, environment: Self.hooks)
            #expect(again.status == 0, "\(variant): \(again.stderr)")
            #expect(!again.stderr.contains("resuming "), "\(variant): \(again.stderr)")
            if variant == "--restart" {
                #expect(again.stderr.contains("note: dropped epf_stage_"), "\(again.stderr)")
            } else {
                #expect(again.stderr.contains("note: an interrupted load of "), "\(again.stderr)")
            }
            try Snapshot(database).expectEqual(to: fixture.reference, variant)
            #expect(try connection.scalar("SELECT count(*) FROM epf_checkpoint") == "0", "\(variant)")
            #expect(try connection.scalar("SELECT count(*) FROM pg_tables WHERE starts_with(tablename, 'epf_stage_')") == "0", "\(variant)")
        }
    }

    @Test("A checkpoint resumes only the same file (path, size, modification time) with the same header, storefront filter and separators")
    func checkpointOfAnotherFile() throws {
        let database = try TestDatabase()
        let bytes = try FeedGenerator(rows: 1_000, seed: 3).applicationBytes()
        let source = SourceIdentity(path: "/feeds/itunes20261201/application", size: Int64(bytes.count), modified: 1_000)
        do {
            let store = try database.store(PostgresStoreOptions(commitBytes: 64 << 10))
            // "Kill" after the first batch (500 of the 1,000 rows, committed):
            // the loader is dropped without abandon.
            _ = try? CheckpointTests.load(bytes, source: source, into: store) { batches in
                if batches == 1 { throw CheckpointTests.Killed() }
            }
        }
        let observer = try database.connect()
        let committed = try #require(Int(try observer.scalar("SELECT records FROM epf_checkpoint") ?? ""))
        #expect(committed > 0 && committed < 1_000)
        let store = try database.store()
        #expect(store.resumableLoads.map(\.records) == [committed])
        let header = try bytes.withUnsafeBytes { buffer in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else { throw CancellationError() }
            return header
        }
        var incremental = header
        incremental.exportMode = .incremental
        var others: [(String, SourceIdentity?, EPFHeader)] = [
            (
                "another path", SourceIdentity(path: "/feeds/itunes20261202/application", size: source.size, modified: source.modified),
                header
            ),
            ("another size", SourceIdentity(path: source.path, size: source.size! + 1, modified: source.modified), header),
            ("another modification time", SourceIdentity(path: source.path, size: source.size, modified: 2_000), header),
            (
                "a storefront filter",
                SourceIdentity(path: source.path, size: source.size, modified: source.modified, storefronts: [143441]), header
            ),
            (
                "other separators (EPF Flat)",
                SourceIdentity(path: source.path, size: source.size, modified: source.modified, separators: Separators.flat.stored), header
            ),
            ("no source", nil, header),
        ]
        if incremental.primaryKey == header.primaryKey { others.append(("another header", source, incremental)) }
        for (what, other, otherHeader) in others {
            let loader = try store.makeLoader(
                for: StagingTarget(table: "application", header: otherHeader, sourceName: "application", source: other), strict: false)
            #expect(loader.resumedFrom == nil, "\(what)")
            // Stopping keeps what the interrupted load committed.
            loader.suspend()
        }
        let loader = try store.makeLoader(
            for: StagingTarget(table: "application", header: header, sourceName: "application", source: source), strict: false)
        let resumed = try #require(loader.resumedFrom)
        #expect(resumed.records == committed && !resumed.staged)
        #expect(loader.counts.rowsRead == committed)
        #expect(try observer.scalar("SELECT count(*) FROM epf_stage_application") == String(committed))
        // A load that fails is not resumed: abandoning drops it all.
        loader.abandon()
        #expect(try observer.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
        #expect(try observer.scalar("SELECT to_regclass('epf_stage_application') IS NULL") == "t")
    }
}
