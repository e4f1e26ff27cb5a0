import EPFCatalog
import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// Link tables keyed by (something, application_id) get an index on
/// application_id, so reading one application does not scan them.
@Suite("Lookup indexes")
struct LookupIndexTests {
    /// The query plan SQLite picks for `sql`, as its detail lines.
    static func plan(_ sql: String, in catalog: String) throws -> [String] {
        try RawSQLiteReader(path: catalog).rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last?.string }
    }

    @Test("Link tables are searched by application_id through an index, after a FULL swap and an INCREMENTAL alike")
    func linkTablesUseTheIndex() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            for feeds in [["itunes20261101"], ["itunes20261101", "itunes20261102"]] {
                _ = try runImport(feeds.map { SampleFeeds.path($0) }, catalog: catalog)
                for table in ["genre_application", "artist_application"] {
                    let details = try Self.plan("SELECT * FROM \(table) WHERE application_id = 364709193", in: catalog)
                    #expect(details.contains { $0.contains("USING INDEX \(table)_by_application_id") }, "\(table): \(details)")
                }
                // Tables led by application_id use their key; none gets a second index.
                let indexes = try RawSQLiteReader(path: catalog).rows("SELECT name FROM pragma_index_list('application_device_type')")
                #expect(indexes.count == 1)
            }
            try SampleFeedsTests.expectCatalog(
                at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: ["itunes20261101", "itunes20261102"]))
        }
    }
}
