import EPFTestSupport
import Foundation
import Testing

/// The rule for an INCREMENTAL day with no FULL behind it holds for
/// PostgreSQL as for SQLite: refused, naming the FULL it needs; the FULL
/// then applies, and the day after it.
@Suite("INCREMENTAL before FULL, against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct IncrementalOrderTests {
    @Test("An INCREMENTAL day into an empty database is refused; the download folder then gives the complete tables")
    func incrementalBeforeFull() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let early = try EPFRunner.run(["import", "--db", database.url, SampleFeeds.path("itunes20261102")], in: folder)
            #expect(early.status == 1)
            #expect(early.stderr.contains("the catalog has no application table yet"), "\(early.stderr)")
            #expect(early.stderr.contains("Import the itunes FULL export dated 2026-11-02 or earlier"), "\(early.stderr)")
            #expect(early.stderr.contains("--force"))

            let samples = URL(fileURLWithPath: SampleFeeds.path("itunes20261101")).deletingLastPathComponent().path
            let all = try EPFRunner.run(["import", "--db", database.url, samples], in: folder)
            #expect(all.status == 0, "\(all.stderr)")
            #expect(!all.stderr.contains("older than"), "\(all.stderr)")
            let count = try EPFRunner.run(["sql", "--db", database.url, "SELECT count(*) FROM application", "--format", "csv"], in: folder)
            #expect(count.stdout == "count\n27\n", "\(count.stdout)")
        }
    }
}
