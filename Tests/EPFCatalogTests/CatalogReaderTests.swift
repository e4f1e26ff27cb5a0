import EPFCatalog
import EPFSQLite
import Foundation
import Testing

@Suite("Catalog reader")
struct CatalogReaderTests {
    @Test func listsTablesWithCountsButNotTheImportersOwn() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(ApplyTests.apps(rows: [["1", "one", "10"], ["2", "two", "20"]]), as: "application")
        let tables = try CatalogReader(path: catalog.path).tables()
        #expect(tables.map(\.name) == ["application"])
        #expect(tables[0].rows == 2)
        #expect(tables[0].lastMode == "FULL")
    }

    @Test func rowsComeBackInColumnOrder() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(ApplyTests.apps(rows: [["1", "one", "10"]]), as: "application")
        let rows = try CatalogReader(path: catalog.path).rows(of: "application", where: "id", equals: .integer(1))
        #expect(rows.count == 1)
        #expect(rows[0].map(\.0) == ["id", "title", "size"])
        #expect(rows[0].map(\.1) == [.integer(1), .text("one"), .integer(10)])
    }

    @Test func aMissingTableIsAClearError() throws {
        let catalog = try TemporaryCatalog()
        let error = #expect(throws: CatalogError.self) {
            _ = try CatalogReader(path: catalog.path).rows(of: "application", where: "id", equals: .integer(1))
        }
        #expect(error?.detail == "the catalog has no application table")
    }

    @Test func aFileThatIsNotSQLiteIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("epf-\(UUID().uuidString).sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: CatalogError.self) { _ = try CatalogReader(path: path) }
        #expect(error?.description.contains("not a database") == true)
    }
}
