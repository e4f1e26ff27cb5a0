import EPFTestSupport
import Foundation
import Testing

/// PySpark (local mode, a reader nobody here wrote) on the lake of a
/// generated FULL day and two INCREMENTAL days: the rows of each partition
/// as Spark discovers them are the journal's, and Spark's `<table>_current`
/// (the SQL of `epf lake views --engine spark`) equals the SQLite catalog of
/// the same import, value by value. Needs `pyspark` and Java 17 beside
/// `$EPF_PYTHON` (`scripts/python-env`, `scripts/install-system-packages`):
/// a python without pyspark fails the test. 70-80 s on two shared cores,
/// the JVM's start about 12 s of it.
@Suite struct LakeSparkTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.create("epf-lake-spark") }

    @Test(.enabled(if: ReaderPython.available, ReaderPython.skipReason), .timeLimit(.minutes(3)))
    func sparkReadsTheCurrentTablesAsTheCatalogHoldsThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let days = try [
            LakeFeedDay(day: "2026-12-01", rows: 600),
            LakeFeedDay(day: "2026-12-02", rows: 200, incremental: true),
            LakeFeedDay(day: "2026-12-03", rows: 100, incremental: true),
        ].map { try $0.generate(in: folder) }
        let lake = folder.appendingPathComponent("lake").path
        let db = folder.appendingPathComponent("c.sqlite").path
        try LakeFeedDay.importInto(lake: lake, db: db, days, in: folder)
        let views = try EPFRunner.run(["lake", "views", "--lake", lake, "--engine", "spark"], in: folder)
        #expect(views.status == 0, "\(views.stderr)")
        let viewsFile = folder.appendingPathComponent("spark.sql").path
        try Data(views.stdout.utf8).write(to: URL(fileURLWithPath: viewsFile))

        let journal = try LakeReaders.journal(lake)
        #expect(journal.count == 27)
        let read = try LakeReaders.spark(lake: lake, sqlite: db, views: viewsFile)
        try LakeReaders.expectSame(read, journal: journal)
        #expect(read.tables["application"]?.lakeRows == 600)
        #expect(read.partitionRows["application/export_date=2026-12-02/mode=INCREMENTAL"] == 200)
    }
}
