import EPFCatalog
import EPFFormat
import EPFImport
import EPFSQLite
import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// `AppFeedSet` (`epf generate --all-tables`): the whole app feed set,
/// deterministic, at the proportions it states, and each FULL equal to the
/// FULL before it with the INCREMENTAL days between them applied.
@Suite("The generated app feed set")
struct AppFeedSetTests {
    static let storefronts = [
        AppFeedSet.Storefront(id: 143441, code: "USA", name: "United States"),
        AppFeedSet.Storefront(id: 143462, code: "JPN", name: "Japan"),
        AppFeedSet.Storefront(id: 143442, code: "FRA", name: "France"),
        AppFeedSet.Storefront(id: 143469, code: "RUS", name: "Russia"),
        AppFeedSet.Storefront(id: 143491, code: "ISR", name: "Israel"),
    ]

    static func rows(_ catalog: String, _ sql: String) throws -> [[SQLValue]] {
        try #require(try Catalog(path: catalog).database).rows(sql)
    }

    @Test func theSameSeedGivesTheSameBytes() throws {
        try withTemporaryFolder { folder in
            let set = AppFeedSet(model: AppFeedModel(apps: 400, seed: 7, storefronts: Self.storefronts), days: 2, threads: 2)
            let first = try set.write(to: folder.appendingPathComponent("a").path)
            // One thread, so the runs are made in another order: the bytes are the same.
            let again = AppFeedSet(model: set.model, days: 2, threads: 1)
            let second = try again.write(to: folder.appendingPathComponent("b").path)
            #expect(first.count == second.count && first.count > 20)
            for (a, b) in zip(first, second) {
                #expect(try fileBytes(URL(fileURLWithPath: a.path)) == (try fileBytes(URL(fileURLWithPath: b.path))), "\(a.path)")
            }
            var other = set
            other.model.seed = 8
            let different = try other.write(day: 0, to: folder.appendingPathComponent("c").path)
            #expect(try fileBytes(URL(fileURLWithPath: different[0].path)) != (try fileBytes(URL(fileURLWithPath: first[0].path))))
        }
    }

    /// The proportions docs/PERFORMANCE.md states, counted on a FULL day
    /// and the INCREMENTAL day after it.
    @Test func aFullDayAndADayAfterHaveTheStatedProportions() throws {
        try withTemporaryFolder { folder in
            let apps = 4_000
            let set = AppFeedSet(model: AppFeedModel(apps: apps, storefronts: Self.storefronts), days: 1)
            let files = try set.write(to: folder.path)
            func file(_ day: String, _ table: String) throws -> AppFeedSet.Written {
                try #require(files.first { $0.path.hasSuffix("\(day)/\(table)") }, "\(day)/\(table)")
            }
            let perApp = { (table: String) throws -> Double in Double(try file("20261101", table).rows) / Double(apps) }
            #expect(try file("itunes20261101", "application").rows == apps)
            let detail = try file("itunes20261101", "application_detail")
            #expect((2.9...3.7).contains(try perApp("application_detail")), "\(detail.rows) detail rows")
            #expect((2_000...3_200).contains(detail.bytes / Int64(detail.rows)), "\(detail.bytes / Int64(detail.rows)) bytes a detail row")
            #expect((9.5...10.5).contains(try perApp("application_device_type")))
            #expect((1.6...2.2).contains(try perApp("genre_application")))
            #expect(try file("itunes20261101", "artist_application").rows == apps)
            #expect(try file("itunes20261101", "artist").rows == apps / 3)
            #expect(try file("itunes20261101", "storefront").rows == Self.storefronts.count)
            #expect(try file("pricing20261101", "application_price").rows == apps * Self.storefronts.count)
            let charts = try file("popularity20261101", "application_popularity_per_genre").rows
            #expect(charts > Self.storefronts.count * 200 && charts <= Self.storefronts.count * 44 * 200, "\(charts)")
            // The day after: 0.2% new, 2.5% new versions, 0.4% new prices.
            let new = apps / 500
            let changed = try file("itunes20261102", "application").rows - new
            #expect((60...140).contains(changed), "\(changed) new versions of \(apps)")
            #expect(try file("itunes20261102", "application_device_type").rows >= new * 8)
            #expect(try file("itunes20261102", "artist_application").rows == new)
            let repriced = try file("pricing20261102", "application_price").rows / Self.storefronts.count - new
            #expect((4...32).contains(repriced), "\(repriced) new prices of \(apps)")
            #expect(!files.contains { $0.path.contains("itunes20261102/storefront") || $0.path.contains("itunes20261102/genre/") })
        }
    }

    /// A FULL day's catalog is the FULL of a week before with the six
    /// INCREMENTAL days and the seventh day's changes applied: the same
    /// rows in every table (but `export_date`), and in the charts the same
    /// ranks for every place the FULL has (INCREMENTAL days never delete,
    /// so places an application left stay).
    @Test func aFullIsTheWeekBeforeWithItsDaysApplied() throws {
        try withTemporaryFolder { folder in
            let set = AppFeedSet(model: AppFeedModel(apps: 1_500, seed: 3, storefronts: Self.storefronts), days: 7)
            let days = folder.appendingPathComponent("days").path
            let full = folder.appendingPathComponent("full").path
            var written: [Int: [AppFeedSet.Written]] = [:]
            for day in 0...6 { written[day] = try set.write(day: day, to: days) }
            // An INCREMENTAL day holds every change since the FULL: the week's days grow.
            let applications = (1...6).map { day in written[day]?.first { $0.path.hasSuffix("/application") }?.rows ?? 0 }
            #expect(zip(applications, applications.dropFirst()).allSatisfy { $0 < $1 }, "\(applications)")
            #expect(applications[5] > applications[0] * 4, "\(applications)")
            let seventh = folder.appendingPathComponent("seventh").path
            _ = try set.write(day: 7, to: seventh, mode: .incremental)
            _ = try set.write(day: 7, to: full)
            let applied = folder.appendingPathComponent("applied.sqlite").path
            for (parent, day) in (0...6).map({ (days, $0) }) + [(seventh, 7)] {
                let stamp = set.model.folderDate(day: day)
                let paths = ["itunes", "pricing", "popularity"].map { "\(parent)/\($0)\(stamp)" }.filter {
                    FileManager.default.fileExists(atPath: $0)
                }
                let reports = try runImport(paths, catalog: applied)
                #expect(!reports.isEmpty && reports.allSatisfy { $0.status == .applied }, "day \(day): \(reports.map(\.error))")
            }
            let fresh = folder.appendingPathComponent("full.sqlite").path
            let stamp = set.model.folderDate(day: 7)
            let reports = try runImport(["itunes", "pricing", "popularity"].map { "\(full)/\($0)\(stamp)" }, catalog: fresh)
            #expect(reports.count == 11 && reports.allSatisfy { $0.status == .applied })
            for table in AppFeedTable.allCases {
                let columns = table.columns.map(\.name).filter { $0 != "export_date" }.joined(separator: ", ")
                let sql = "SELECT \(columns) FROM \(table.rawValue) ORDER BY \(table.key.joined(separator: ", "))"
                let fromDays = try Self.rows(applied, sql)
                let fromFull = try Self.rows(fresh, sql)
                if table == .popularity {
                    let places = Set(fromDays.map { $0.map(\.description) })
                    #expect(fromFull.allSatisfy { places.contains($0.map(\.description)) }, "\(table.rawValue)")
                    #expect(fromDays.count >= fromFull.count)
                } else {
                    #expect(
                        fromDays == fromFull, "\(table.rawValue): \(fromDays.count) rows from the days, \(fromFull.count) from the FULL")
                    #expect(!fromFull.isEmpty)
                }
            }
            // Details are in many scripts, right-to-left among them.
            let languages = Set(
                try Self.rows(fresh, "SELECT DISTINCT language_code FROM application_detail").compactMap { $0.first?.textValue })
            #expect(languages.isSuperset(of: ["EN", "JA", "ZH", "KO", "RU", "AR", "HE", "TH", "EL"]), "\(languages.sorted())")
        }
    }
}
