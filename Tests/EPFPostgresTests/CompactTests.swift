import EPFPostgres
import EPFTestSupport
import Foundation
import Testing

/// `epf compact` on PostgreSQL: a FULL re-import drops the tables it
/// replaces, so their space is back on the server's disk already, and the
/// command says there is nothing to compact.
@Suite("epf compact against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct CompactTests {
    /// The catalog's tables and their total size.
    static func tables(_ database: TestDatabase) throws -> (names: [String], bytes: Int64) {
        let connection = try database.connect()
        let names = try connection.query(
            "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY relname"
        )
        .compactMap { $0[0] }
        let bytes = try connection.scalar(
            "SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'm')")
        return (names, Int64(bytes ?? "0") ?? 0)
    }

    @Test func aFullReimportLeavesNothingToCompact() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let full = SampleFeeds.path("itunes20261101")
            #expect(try EPFRunner.run(["import", "--db", database.url, full], in: folder).status == 0)
            let imported = try Self.tables(database)
            let again = try EPFRunner.run(["import", "--db", database.url, "--force", full], in: folder)
            #expect(again.status == 0, "\(again.stderr)")
            // The replaced tables are gone, not kept beside the new ones.
            let reimported = try Self.tables(database)
            #expect(reimported.names == imported.names)

            let result = try EPFRunner.run(["compact", "--db", database.url, "--format", "json"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("gave the space of every replaced table back to its disk"), "\(result.stderr)")
            #expect(result.stderr.contains("nothing to compact"), "\(result.stderr)")
            #expect(!result.stderr.contains("epf-test-password") && !result.stdout.contains("epf-test-password"))
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            let report = try #require(rows.first)
            #expect((report["bytes_returned"] as? NSNumber)?.int64Value == 0)
            #expect((report["bytes_before"] as? NSNumber)?.int64Value == reimported.bytes)
            #expect((report["bytes_after"] as? NSNumber)?.int64Value == reimported.bytes)
            #expect(try Self.tables(database).names == imported.names)
        }
    }
}
