import EPFTestSupport
import Foundation
import Testing

/// Generated feeds of several days and tables (`LakeFeedDay`), imported
/// into a lake and into a SQLite catalog by the same commands: after each
/// import, DuckDB's `<table>_current` (`views.sql`) equals the catalog value
/// by value, and each partition holds the rows the journal lists.
@Suite(.enabled(if: ReaderPython.available, ReaderPython.skipReason))
struct LakeFeedDaysTests {
    let folder: URL
    var lake: String { folder.appendingPathComponent("lake").path }
    var db: String { folder.appendingPathComponent("c.sqlite").path }

    init() throws { folder = try TemporaryFolder.create("epf-lake-days") }

    /// Imports `paths` into the lake and the catalog, then compares them.
    @discardableResult
    func importBoth(_ paths: [String]) throws -> LakeReaders.Comparison {
        for store in [["--lake", lake], ["--db", db]] {
            let imported = try EPFRunner.run(["import"] + store + paths, in: folder)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let read = try LakeReaders.compare(lake: lake, sqlite: db)
        try LakeReaders.expectSame(read, journal: try LakeReaders.journal(lake))
        return read
    }

    /// A FULL day and two INCREMENTAL days, then (a later import) a second
    /// FULL day of fewer applications and an INCREMENTAL day after it: the
    /// applications absent from the second FULL are gone from the views,
    /// while every day stays in the lake.
    @Test func fullAndIncrementalDaysThenASecondFull() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try [
            LakeFeedDay(day: "2026-12-01", rows: 1000),
            LakeFeedDay(day: "2026-12-02", rows: 300, incremental: true),
            LakeFeedDay(day: "2026-12-03", rows: 200, incremental: true),
        ].map { try $0.generate(in: folder) }
        let before = try importBoth(first)
        #expect(before.tables.count == 9)
        #expect(before.tables["application"]?.lakeRows == 1000)
        #expect(before.tables["application_price"]?.lakeRows == 2000)

        let second = try [
            LakeFeedDay(day: "2026-12-04", rows: 700),
            LakeFeedDay(day: "2026-12-05", rows: 150, incremental: true),
        ].map { try $0.generate(in: folder) }
        let after = try importBoth(second)
        #expect(after.tables["application"]?.lakeRows == 700)
        #expect(after.tables["application_price"]?.lakeRows == 1400)
        #expect(after.partitionRows["application/export_date=2026-12-01/mode=FULL"] == 1000)
        #expect(after.partitionRows["application/export_date=2026-12-04/mode=FULL"] == 700)
        #expect(after.partitionRows.keys.filter { $0.hasPrefix("application/") }.count == 5)
    }
}
