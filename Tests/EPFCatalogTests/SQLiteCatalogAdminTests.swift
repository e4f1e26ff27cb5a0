import EPFCatalog
import EPFSQLite
import Foundation
import Testing

@Suite("SQLite catalog admin")
struct SQLiteCatalogAdminTests {
    @Test func listsTablesWithCountsButNotTheImportersOwn() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(ApplyTests.apps(rows: [["1", "one", "10"], ["2", "two", "20"]]), as: "application")
        let tables = try SQLiteCatalogAdmin(path: catalog.path).tables()
        #expect(tables.map(\.name) == ["application"])
        #expect(tables[0].rows == 2)
        #expect(tables[0].lastMode == "FULL")
    }

    @Test func rowsComeBackInColumnOrder() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(ApplyTests.apps(rows: [["1", "one", "10"]]), as: "application")
        let rows = try SQLiteCatalogAdmin(path: catalog.path).rows(of: "application", where: "id", equals: .integer(1))
        #expect(rows.count == 1)
        #expect(rows[0].map(\.0) == ["id", "title", "size"])
        #expect(rows[0].map(\.1) == [.integer(1), .text("one"), .integer(10)])
    }

    @Test func aMissingTableIsAClearError() throws {
        let catalog = try TemporaryCatalog()
        let error = #expect(throws: CatalogError.self) {
            _ = try SQLiteCatalogAdmin(path: catalog.path).rows(of: "application", where: "id", equals: .integer(1))
        }
        #expect(error?.detail == "the catalog has no application table")
    }

    /// A journal row as an import writes it, for `Catalog.journal` to read.
    static func entry(
        feed: String?, date: String?, table: String, mode: String?, rows: Int, status: JournalEntry.Status, started: String,
        finished: String, message: String? = nil
    ) -> JournalEntry {
        JournalEntry(
            feed: feed, feedDate: date, table: table, exportDate: mode == nil ? nil : 1_793_491_200_000, mode: mode, rows: rows,
            repairedRows: rows > 0 ? 1 : 0, skippedRows: 0, sourcePath: "\(feed ?? "")\(date ?? "")/\(table)",
            sourceSize: rows > 0 ? Int64(100 * rows) : nil, startedAt: started, finishedAt: finished, status: status, message: message,
            details: nil)
    }

    @Test("Catalog.journal reads back the rows the store's journal wrote, newest first, with epf history's filters")
    func theJournalReadsBackWhatTheStoreWrote() throws {
        let catalog = try TemporaryCatalog()
        let staged = try catalog.stage(
            TableBytes(
                columns: ["export_date", "application_id", "title"], types: ["BIGINT", "INTEGER", "VARCHAR(1000)"],
                key: ["application_id"], rows: [["1793491200000", "11", "One"], ["1793491200000", "12", "Two"]]),
            as: "application")
        // An applied file (with its apply), a failed one and a blocked one
        // (recorded on their own, as the importer records them).
        _ = try catalog.store.apply(
            [staged],
            journal: [
                Self.entry(
                    feed: "itunes", date: "2026-11-01", table: "application", mode: "FULL", rows: 2, status: .applied,
                    started: "2026-11-01T10:00:00.250Z", finished: "2026-11-01T10:00:01.500Z")
            ])
        try catalog.store.record([
            Self.entry(
                feed: "pricing", date: "2026-11-01", table: "application_price", mode: "FULL", rows: 0, status: .failed,
                started: "2026-11-01T10:00:02.000Z", finished: "2026-11-01T10:00:02.040Z", message: "footer says 3 rows, 2 read"),
            Self.entry(
                feed: "itunes", date: "2026-11-02", table: "application", mode: nil, rows: 0, status: .blocked,
                started: "2026-11-01T10:00:03Z", finished: "2026-11-01T10:00:03Z", message: "an earlier day failed"),
        ])

        let reader = try Catalog(path: catalog.path)
        let journal = try reader.journal()
        #expect(journal.map(\.id) == [3, 2, 1])
        #expect(journal.map(\.status) == [.blocked, .failed, .applied])
        #expect(
            journal.last
                == JournalRecord(
                    id: 1, feed: "itunes", feedDate: "2026-11-01", table: "application", mode: "FULL", exportDate: 1_793_491_200_000,
                    status: .applied, rows: 2, repairedRows: 1, skippedRows: 0, sourcePath: "itunes2026-11-01/application",
                    sourceSize: 200, startedAt: "2026-11-01T10:00:00.250Z", finishedAt: "2026-11-01T10:00:01.500Z", message: nil))
        #expect(journal.last?.seconds == 1.25)
        #expect(journal[1].message == "footer says 3 rows, 2 read" && journal[1].sourceSize == nil && journal[1].feed == "pricing")
        #expect(journal[0].mode == nil && journal[0].exportDate == nil && journal[0].seconds == 0)

        // The filters and order of `epf history`, which reads the same rows.
        #expect(try reader.journal(status: .applied).map(\.id) == [1])
        #expect(try reader.journal(feed: "itunes").map(\.id) == [3, 1])
        #expect(try reader.journal(feed: "itunes", status: .blocked).map(\.id) == [3])
        #expect(try reader.journal(table: "application_price").map(\.status) == [.failed])
        #expect(try reader.journal(table: "application", limit: 1).map(\.id) == [3])
        #expect(try reader.journal(limit: 0).isEmpty)
        #expect(try reader.journal(feed: "popularity").isEmpty)
        let history = try #require(try SQLiteCatalogAdmin(path: catalog.path).journal(feed: nil, table: nil, status: nil, limit: 50))
        #expect(history.map { $0[0] } == journal.map { .integer($0.id) })

        let negative = #expect(throws: CatalogError.self) { _ = try reader.journal(limit: -1) }
        #expect(negative?.kind == .usage)
        // A status this version does not know (a newer epf wrote it) is refused, not guessed.
        try catalog.store.database.execute("UPDATE epf_journal SET status = 'paused' WHERE id = 2")
        let unknown = #expect(throws: CatalogError.self) { _ = try reader.journal() }
        #expect(unknown?.kind == .incompatible)
        #expect(try reader.journal(status: .applied).map(\.id) == [1])
    }

    @Test func aFileThatIsNotSQLiteIsAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("epf-\(UUID().uuidString).sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: CatalogError.self) { _ = try SQLiteCatalogAdmin(path: path) }
        #expect(error?.description.contains("not a database") == true)
    }
}
