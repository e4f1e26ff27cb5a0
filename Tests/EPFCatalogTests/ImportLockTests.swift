import EPFCatalog
import EPFSQLite
import Foundation
import Testing

/// One import at a time per catalog.
@Suite("Import lock")
struct ImportLockTests {
    @Test func aSecondStoreOnTheSameCatalogIsRefusedUntilTheFirstCloses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.sqlite").path

        var first: SQLiteCatalogStore? = try SQLiteCatalogStore(path: path)
        let error = try #require(throws: CatalogError.self) { try SQLiteCatalogStore(path: path) }
        #expect(error.description.contains("another epf import (pid \(getpid()), since 20"))
        #expect(error.description.contains("is importing into \(path)"))
        #expect(error.description.contains("One import runs at a time"))
        // Readers are not held back.
        #expect(try SQLiteCatalogAdmin(path: path).tables().isEmpty)

        first = nil
        #expect(first == nil)
        _ = try SQLiteCatalogStore(path: path)
    }
}
