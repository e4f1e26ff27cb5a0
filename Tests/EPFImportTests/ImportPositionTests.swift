import EPFCatalog
import Testing

@testable import EPFImport

/// `ImportPosition`: where a run of a plan is, over all its inputs, from
/// the importer's events.
@Suite("Import position over a whole plan")
struct ImportPositionTests {
    /// A feed folder of two files (100 and 300 bytes), a file of 600 bytes
    /// on its own, and a feed archive of 1,000 bytes.
    static let plan = ImportPlan(
        units: [
            ImportUnit(
                path: "itunes20261101", feed: nil,
                files: [
                    PlannedFile(path: "itunes20261101/genre", table: "genre", size: 100),
                    PlannedFile(path: "itunes20261101/application", table: "application", size: 300),
                ]),
            ImportUnit(
                path: "pricing20261101/application_price", feed: nil,
                files: [PlannedFile(path: "pricing20261101/application_price", table: "application_price", size: 600)]),
            ImportUnit(
                path: "itunes20261102.tbz", feed: nil, files: [],
                archive: PlannedArchive(path: "itunes20261102.tbz", format: .plain, size: 1_000)),
        ], notes: [])

    static func report(_ path: String, _ status: FileReport.Status = .applied) -> FileReport {
        FileReport(
            path: path, table: "", feed: nil, feedDate: nil, mode: nil, exportDate: nil, status: status, size: 0, rows: 0,
            repaired: 0, skipped: 0, seconds: 0, counts: LoadCounts(), outcome: nil, error: nil, warnings: [])
    }

    /// Equal but for floating-point rounding.
    static func close(_ value: Double?, _ expected: Double) -> Bool {
        guard let value else { return false }
        return abs(value - expected) < 1e-9 * max(1, expected)
    }

    @Test func countsInputsAndBytesAcrossFilesAndAnArchive() {
        var position = ImportPosition(plan: Self.plan)
        #expect(position.inputCount == 4 && position.totalBytes == 2_000)
        #expect(position.inputsStarted == 0 && position.bytesDone == 0)
        #expect(position.secondsLeft(at: 10) == nil)

        position.record(.fileStarted(path: "itunes20261101/genre", table: "genre", size: 100), at: 0)
        position.record(.progress(path: "itunes20261101/genre", bytesRead: 100, totalBytes: 100, rows: 11), at: 1)
        position.record(.fileFinished(Self.report("itunes20261101/genre")), at: 1)
        position.record(.fileStarted(path: "itunes20261101/application", table: "application", size: 300), at: 1)
        position.record(.progress(path: "itunes20261101/application", bytesRead: 100, totalBytes: 300, rows: 5), at: 4)
        #expect(position.inputsStarted == 2)
        #expect(position.bytesDone == 200 && position.bytesWorked == 200)
        // 200 bytes in 4 s; the file being read has no pace of its own yet:
        // the 1,800 bytes left take 36 s at the run's.
        #expect(Self.close(position.secondsLeft(at: 4), 36))
        position.record(.progress(path: "itunes20261101/application", bytesRead: 150, totalBytes: 300, rows: 5), at: 9)
        // Its own pace is 50 bytes in 5 s: its 150 left take 15 s; the
        // 1,600 not started take 36 s at the run's pace (250 bytes in 9 s).
        #expect(Self.close(position.secondsLeft(at: 9), 15 + 1_600 * 9 / 250.0))
        position.record(.progress(path: "itunes20261101/application", bytesRead: 300, totalBytes: 300, rows: 9), at: 10)
        position.record(.buildingKey(path: "itunes20261101/application", table: "application"), at: 10)
        #expect(position.secondsLeft(at: 11) == nil, "no estimate while a key is built")
        position.record(.fileFinished(Self.report("itunes20261101/application")), at: 12)
        position.record(.unitFinished(path: "itunes20261101", reports: []), at: 12)
        #expect(position.bytesDone == 400)
        #expect(Self.close(position.secondsLeft(at: 12), 1_600 * 12 / 400.0))

        // The archive: its entries report the archive's bytes read, and it
        // is done when its unit is.
        position.record(.fileStarted(path: "pricing20261101/application_price", table: "application_price", size: 600), at: 12)
        position.record(.progress(path: "pricing20261101/application_price", bytesRead: 600, totalBytes: 600, rows: 1), at: 13)
        position.record(.fileFinished(Self.report("pricing20261101/application_price")), at: 13)
        position.record(.fileStarted(path: "itunes20261102.tbz:itunes20261102/genre", table: "genre", size: 9_999), at: 13)
        position.record(.progress(path: "itunes20261102.tbz:itunes20261102/genre", bytesRead: 250, totalBytes: 1_000, rows: 1), at: 14)
        position.record(.fileFinished(Self.report("itunes20261102.tbz:itunes20261102/genre")), at: 14)
        position.record(.fileStarted(path: "itunes20261102.tbz:itunes20261102/application", table: "application", size: 9_999), at: 14)
        #expect(position.inputsStarted == 4, "an archive is one input, whatever its entries")
        #expect(position.bytesDone == 1_250)
        position.record(
            .progress(path: "itunes20261102.tbz:itunes20261102/application", bytesRead: 900, totalBytes: 1_000, rows: 1), at: 16)
        // The archive's own pace: 650 bytes in 2 s.
        #expect(Self.close(position.secondsLeft(at: 16), 100 * 2 / 650.0))
        position.record(.unitFinished(path: "itunes20261102.tbz", reports: []), at: 17)
        #expect(position.bytesDone == 2_000 && position.bytesWorked == 1_900)
        #expect(position.secondsLeft(at: 17) == 0)
    }

    /// Bytes a resumed load passes over, and inputs never read (blocked,
    /// or refused with their unit), are done but not counted in the pace.
    @Test func resumedAndUnreadBytesDoNotSpeedUpThePace() {
        var position = ImportPosition(plan: Self.plan)
        position.record(.fileStarted(path: "itunes20261101/genre", table: "genre", size: 100), at: 0)
        position.record(.fileFinished(Self.report("itunes20261101/genre", .failed)), at: 0)
        // The folder's other file is never read: its unit ends.
        position.record(.unitFinished(path: "itunes20261101", reports: []), at: 0)
        #expect(position.inputsStarted == 2 && position.bytesDone == 400 && position.bytesWorked == 0)
        position.record(.fileStarted(path: "pricing20261101/application_price", table: "application_price", size: 600), at: 0)
        position.record(.resumed(path: "pricing20261101/application_price"), at: 0)
        position.record(.progress(path: "pricing20261101/application_price", bytesRead: 500, totalBytes: 600, rows: 1), at: 0)
        #expect(position.bytesDone == 900 && position.bytesWorked == 0)
        #expect(position.secondsLeft(at: 5) == nil)
        position.record(.progress(path: "pricing20261101/application_price", bytesRead: 550, totalBytes: 600, rows: 1), at: 5)
        // 50 bytes in 5 s, for the file and the run: the 50 left of the
        // file and the archive's 1,000 take 105 s.
        #expect(position.bytesWorked == 50 && Self.close(position.secondsLeft(at: 5), 105))
    }
}
