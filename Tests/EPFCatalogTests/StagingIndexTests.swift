import EPFCatalog
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// What a staging table is given before its apply: a FULL file's becomes
/// the live table, so it gets every index the live one has; an INCREMENTAL
/// file's is read once by the upsert, so it gets only its key (which keeps
/// the last row of a repeated key).
@Suite("Staging indexes")
struct StagingIndexTests {
    static func indexes(of table: String, in catalog: String) throws -> [String] {
        try RawSQLiteReader(path: catalog).rows("SELECT name FROM pragma_index_list('\(table)') ORDER BY name").compactMap {
            $0.first?.string
        }
    }

    @Test func anIncrementalStagingTableHasOnlyItsKey() throws {
        let catalog = try TemporaryCatalog()
        let full = try catalog.stage(
            bytes: try CatalogQueryTests.sampleFile("itunes20261101", "genre_application"), as: "genre_application")
        let fullIndexes = try Self.indexes(of: full.stagingName, in: catalog.path)
        #expect(fullIndexes.count == 2 && fullIndexes.contains { $0.contains("_by_application_id") }, "\(fullIndexes)")
        _ = try catalog.store.apply([full], journal: [])

        let incremental = try catalog.stage(
            bytes: try CatalogQueryTests.sampleFile("itunes20261102", "genre_application"), as: "genre_application")
        let incrementalIndexes = try Self.indexes(of: incremental.stagingName, in: catalog.path)
        #expect(incrementalIndexes.count == 1 && incrementalIndexes.allSatisfy { $0.contains("_key") }, "\(incrementalIndexes)")
        _ = try catalog.store.apply([incremental], journal: [])
        // The live table keeps its lookup index through the upsert.
        #expect(try Self.indexes(of: "genre_application", in: catalog.path).contains { $0.contains("_by_application_id") })
    }
}
