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
    func importBoth(_ paths: [String], options: [String] = []) throws -> LakeReaders.Comparison {
        try LakeFeedDay.importInto(lake: lake, db: db, paths, options: options, in: folder)
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
        // The catalog's genre_application, grown by the INCREMENTAL days, is
        // more than twice the new FULL: its shrink check would refuse it.
        let after = try importBoth(second, options: ["--allow-shrink"])
        #expect(after.tables["application"]?.lakeRows == 700)
        #expect(after.tables["application_price"]?.lakeRows == 1400)
        #expect(after.partitionRows["application/export_date=2026-12-01/mode=FULL"] == 1000)
        #expect(after.partitionRows["application/export_date=2026-12-04/mode=FULL"] == 700)
        #expect(after.partitionRows.keys.filter { $0.hasPrefix("application/") }.count == 5)
    }

    /// A FULL and an INCREMENTAL file of the same day (two download
    /// folders, `itunes20261201` and `incremental/itunes20261201`), imported
    /// one after the other: two partitions of that day, `mode=FULL` and
    /// `mode=INCREMENTAL`, both kept, and the views apply the INCREMENTAL
    /// one over the FULL one, as the catalog does.
    @Test func aFullAndAnIncrementalFileOfTheSameDay() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try LakeFeedDay(day: "2026-12-01", rows: 800).generate(in: folder)
        let incrementalFolder = folder.appendingPathComponent("incremental")
        try FileManager.default.createDirectory(at: incrementalFolder, withIntermediateDirectories: true)
        let incremental = try LakeFeedDay(day: "2026-12-01", rows: 250, incremental: true).generate(in: incrementalFolder)
        try importBoth([full])
        let read = try importBoth([incremental])
        #expect(read.partitionRows["application/export_date=2026-12-01/mode=FULL"] == 800)
        #expect(read.partitionRows["application/export_date=2026-12-01/mode=INCREMENTAL"] == 250)
        #expect(read.tables["application"]?.lakeRows == 800)
        let files = try FileManager.default.subpathsOfDirectory(atPath: lake + "/application").filter { $0.hasSuffix(".parquet") }.sorted()
        #expect(
            files == [
                "export_date=2026-12-01/mode=FULL/part-00000.parquet", "export_date=2026-12-01/mode=INCREMENTAL/part-00000.parquet",
            ])
    }
}
