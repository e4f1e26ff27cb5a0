import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFInput
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// A disk that runs full in the middle of a load: a clear error, the live
/// catalog as it was, and a load that resumes from its last checkpoint
/// once there is room.
@Suite("Disk full")
struct DiskFullTests {
    @Test func aLoadThatRunsOutOfSpaceFailsClearlyAndResumesLater() throws {
        try withTemporaryFolder { folder in
            let feed = folder.appendingPathComponent("itunes20261202").path
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
            try FeedGenerator(rows: 1500, seed: 5, storefronts: 0).writeApplication(to: feed)
            let catalog = folder.appendingPathComponent("c.sqlite").path
            let baseline = try runImport([SampleFeeds.path("itunes20261101")], catalog: catalog)
            #expect(baseline.allSatisfy { $0.status == .applied })
            let before = try RawSQLiteReader(path: catalog).rows("SELECT * FROM application ORDER BY application_id")

            var options = ImportOptions()
            options.chunkSize = 128 << 10
            do {
                let store = try SQLiteCatalogStore(path: catalog)
                store.checkpointBytes = 256 << 10
                // Room for about 1 MB more of the 3 MB file.
                let pages = try #require(try store.database.scalar("PRAGMA page_count")?.integerValue)
                try store.database.execute("PRAGMA max_page_count = \(pages + 64)")
                let plan = try ImportPlanner.plan(paths: [feed], filter: TableFilter())
                let reports = PlanRunner(store: store, options: options).run(plan)
                let report = try #require(reports.first)
                #expect(report.status == .failed)
                #expect(report.error?.contains("database or disk is full") == true, "\(report.error ?? "")")
                #expect(report.error?.contains("it resumes from its last checkpoint") == true)
            }
            // The live table is as it was; what was committed waits to resume.
            let stored = try RawSQLiteReader(path: catalog)
            #expect(try stored.rows("SELECT * FROM application ORDER BY application_id") == before)
            let committed = try #require(try stored.rows("SELECT records FROM epf_checkpoint").first?.first)
            #expect(committed != .null)

            // With room again, the same import resumes and finishes.
            var notes: [String] = []
            let store = try SQLiteCatalogStore(path: catalog)
            #expect(store.resumableLoads.map(\.table) == ["application"])
            store.checkpointBytes = 256 << 10
            let plan = try ImportPlanner.plan(paths: [feed], filter: TableFilter())
            let reports = PlanRunner(store: store, options: options) { event in
                if case .note(let text) = event { notes.append(text) }
            }.run(plan)
            #expect(reports.map(\.status) == [.applied])
            #expect(reports.first?.rows == 1500)
            // Rows the first run committed are counted apart: rows/s is this run's.
            let report = try #require(reports.first)
            let committedRows = try #require(committed.integer.map(Int.init), "\(committed)")
            #expect(report.resumedRows == committedRows && committedRows > 0 && committedRows < 1500)
            #expect(report.rowsPerSecond == Double(1500 - committedRows) / report.seconds)
            // The journal keeps the whole file's fingerprint, though this run read only its end.
            let fingerprint = try XXH64.fingerprint(ofFile: feed + "/application")
            #expect(
                try RawSQLiteReader(path: catalog).rows(
                    "SELECT origin_hash FROM epf_journal WHERE status = 'applied' AND table_name = 'application' ORDER BY id DESC LIMIT 1")
                    == [[.string(fingerprint)]])
            #expect(notes.contains { $0.hasPrefix("resuming \(feed)/application after record ") }, "\(notes)")

            // The same rows as a load that never stopped.
            let fresh = folder.appendingPathComponent("fresh.sqlite").path
            _ = try runImport([SampleFeeds.path("itunes20261101"), feed], catalog: fresh)
            #expect(
                try RawSQLiteReader(path: catalog).rows("SELECT * FROM application ORDER BY application_id")
                    == (try RawSQLiteReader(path: fresh).rows("SELECT * FROM application ORDER BY application_id")))
        }
    }
}
