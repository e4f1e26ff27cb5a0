import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// The apply writes what changed to the change log: prices that changed,
/// appeared or went (`epf_price_change`), applications new, of a new
/// version, renamed or removed (`epf_app_change`). A catalog's first FULL
/// records nothing; a later FULL records what differs from the catalog.
@Suite("The change log")
struct ChangeLogTests {
    static let day = 86_400_000
    static let us = "143441"

    /// `application` rows: `[id, title, version, release date]`.
    static func applications(_ mode: String, date: Int, _ rows: [[String]], to folder: URL, as name: String) throws -> String {
        try write(
            columns: ["export_date", "application_id", "title", "version", "itunes_release_date"],
            types: ["BIGINT", "INTEGER", "VARCHAR(1000)", "VARCHAR(100)", "DATETIME"], key: ["application_id"], mode: mode,
            rows: rows.map { ["\(date)"] + $0 }, to: folder.appendingPathComponent("\(name)/application"))
    }

    /// `application_price` rows: `[id, price, storefront]`.
    static func prices(_ mode: String, date: Int, _ rows: [[String]], to folder: URL, as name: String) throws -> String {
        try write(
            columns: ["export_date", "application_id", "retail_price", "currency_code", "storefront_id"],
            types: ["BIGINT", "INTEGER", "DECIMAL(9,3)", "VARCHAR(20)", "INTEGER"], key: ["application_id", "storefront_id"], mode: mode,
            rows: rows.map { ["\(date)", $0[0], $0[1], "USD", $0[2]] }, to: folder.appendingPathComponent("\(name)/application_price"))
    }

    static func write(columns: [String], types: [String], key: [String], mode: String, rows: [[String]], to file: URL) throws -> String {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(tableFileBytes(columns: columns, types: types, key: key, mode: mode, rows: rows, legal: nil)).write(to: file)
        return file.path
    }

    /// Imports `paths` as one run, with `keepHistory` days kept.
    @discardableResult
    static func importing(_ paths: [String], into catalog: String, keepHistory: Int? = 400) throws -> [FileReport] {
        var options = ImportOptions()
        options.keepHistoryDays = keepHistory
        let reports = try runImport(paths, catalog: catalog, options: options)
        #expect(reports.allSatisfy { $0.status == .applied }, "\(reports.compactMap(\.error))")
        return reports
    }

    static func log(_ catalog: String, _ sql: String) throws -> [[String]] {
        try KnownRowsTests.texts(catalog, sql)
    }

    static func priceChanges(_ catalog: String) throws -> [[String]] {
        try log(
            catalog,
            "SELECT application_id, storefront_id, price_before, price_after, export_date FROM epf_price_change ORDER BY export_date, application_id, storefront_id"
        )
    }

    static func appChanges(_ catalog: String) throws -> [[String]] {
        try log(
            catalog,
            "SELECT application_id, kind, value_before, value_after, export_date FROM epf_app_change ORDER BY export_date, application_id, kind"
        )
    }

    @Test func aDayRecordsItsChangesAndALaterFullWhatItLacks() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            let d0 = 100 * Self.day
            try Self.importing(
                [
                    try Self.applications(
                        "FULL", date: d0, [["1", "One", "1.0", "2026 01 01"], ["2", "Two", "2.0", "2026 01 02"]], to: folder, as: "d0"),
                    try Self.prices(
                        "FULL", date: d0, [["1", "0.99", Self.us], ["2", "0", Self.us], ["2", "1.99", "143462"]], to: folder, as: "d0"),
                ], into: catalog)
            // The first FULL is not a catalog of new applications.
            #expect(try Self.priceChanges(catalog).isEmpty)
            #expect(try Self.appChanges(catalog).isEmpty)
            let d1 = 101 * Self.day
            let reports = try Self.importing(
                [
                    try Self.applications(
                        "INCREMENTAL", date: d1,
                        [["1", "One", "1.1", "2026 02 01"], ["2", "Two!", "2.0", "2026 01 02"], ["3", "Three", "1.0", "2026 02 01"]],
                        to: folder, as: "d1"),
                    try Self.prices(
                        "INCREMENTAL", date: d1, [["1", "0", Self.us], ["2", "0", Self.us], ["3", "2.99", Self.us]], to: folder, as: "d1"),
                ], into: catalog)
            #expect(reports.map { $0.outcome?.changesLogged ?? -1 } == [3, 2])
            #expect(
                try Self.appChanges(catalog) == [
                    ["1", "version", "1.0", "1.1", "\(d1)"], ["2", "renamed", "Two", "Two!", "\(d1)"],
                    ["3", "new", "NULL", "Three", "\(d1)"],
                ])
            #expect(
                try Self.priceChanges(catalog) == [["1", Self.us, "0.99", "0", "\(d1)"], ["3", Self.us, "NULL", "2.99", "\(d1)"]])
            // A FULL a week later: 2 is gone, 1 drops to 0.49, 3 as it was.
            let d7 = 107 * Self.day
            try Self.importing(
                [
                    try Self.applications(
                        "FULL", date: d7, [["1", "One", "1.1", "2026 02 01"], ["3", "Three", "1.0", "2026 02 01"]], to: folder, as: "d7"),
                    try Self.prices("FULL", date: d7, [["1", "0.49", Self.us], ["3", "2.99", Self.us]], to: folder, as: "d7"),
                ], into: catalog)
            #expect(try Self.appChanges(catalog).suffix(1) == [["2", "removed", "Two!", "NULL", "\(d7)"]])
            // The FULL's prices against the catalog's: 1 dropped, 2's went.
            #expect(
                try Self.priceChanges(catalog).suffix(3) == [
                    ["1", Self.us, "0", "0.49", "\(d7)"], ["2", Self.us, "0", "NULL", "\(d7)"], ["2", "143462", "1.99", "NULL", "\(d7)"],
                ])
            #expect(try Self.priceChanges(catalog).count == 5)
        }
    }

    /// A FULL of prices compares only the applications whose rows differ
    /// from the FULL before's, or that a day since changed: an application
    /// a day changed and the FULL changes back is recorded; one the FULL
    /// repeats is not looked at.
    @Test func aFullOfPricesComparesTheApplicationsThatMayDiffer() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            let full = [["1", "1.99", Self.us], ["2", "2.99", Self.us], ["3", "3.99", Self.us]]
            try Self.importing([try Self.prices("FULL", date: 100 * Self.day, full, to: folder, as: "d0")], into: catalog)
            try Self.importing(
                [try Self.prices("INCREMENTAL", date: 101 * Self.day, [["2", "0", Self.us]], to: folder, as: "d1")], into: catalog)
            // The next FULL is the first again: 2 back to 2.99, 3 to 0.
            let next = [["1", "1.99", Self.us], ["2", "2.99", Self.us], ["3", "0", Self.us]]
            let reports = try Self.importing([try Self.prices("FULL", date: 107 * Self.day, next, to: folder, as: "d7")], into: catalog)
            #expect(reports.first?.outcome?.changesLogged == 2)
            #expect(
                try Self.priceChanges(catalog) == [
                    ["2", Self.us, "2.99", "0", "\(101 * Self.day)"], ["2", Self.us, "0", "2.99", "\(107 * Self.day)"],
                    ["3", Self.us, "3.99", "0", "\(107 * Self.day)"],
                ])
            #expect(
                try KnownRowsTests.texts(catalog, "SELECT applications, export_date FROM epf_application_digest") == [
                    ["3", "\(107 * Self.day)"]
                ])
        }
    }

    /// Each import keeps `--keep-history` days before the newest change.
    @Test func changesOlderThanTheHistoryKeptArePruned() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            try Self.importing([try Self.prices("FULL", date: 100 * Self.day, [["1", "1", Self.us]], to: folder, as: "d0")], into: catalog)
            for day in 1...5 {
                try Self.importing(
                    [
                        try Self.prices(
                            "INCREMENTAL", date: (100 + day) * Self.day, [["1", "\(day + 1)", Self.us]], to: folder, as: "d\(day)")
                    ],
                    into: catalog, keepHistory: 2)
            }
            // Days 3, 4 and 5 are within two days of day 5.
            #expect(try Self.priceChanges(catalog).map { $0[4] } == [103, 104, 105].map { "\($0 * Self.day)" })
        }
    }
}
