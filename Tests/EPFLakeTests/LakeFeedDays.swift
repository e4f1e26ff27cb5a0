import EPFTestSupport
import Foundation
import Testing

/// Feed days generated for the lake tests: `epf generate --catalog-tables`
/// with the day as every row's `export_date` (`--export-date`), FULL or
/// INCREMENTAL (`--incremental`). A generated application's id depends on
/// its index only, so an INCREMENTAL day of n rows rewrites the first n
/// applications (other titles, prices, genres), and a later FULL day of
/// fewer rows deletes the rest.
struct LakeFeedDay {
    /// `YYYY-MM-DD`.
    var day: String
    var rows: Int
    var incremental = false

    /// Generates the day as `<parent>/itunesYYYYMMDD` (seeded by the day
    /// and the mode: a FULL and an INCREMENTAL file of one day differ) and
    /// returns its path.
    func generate(in parent: URL) throws -> String {
        let path = parent.appendingPathComponent("itunes" + day.replacingOccurrences(of: "-", with: "")).path
        let seed = try #require(Int(day.replacingOccurrences(of: "-", with: ""))) * 2 + (incremental ? 1 : 0)
        let generated = try EPFRunner.run(
            [
                "generate", "--out", path, "--rows", "\(rows)", "--seed", "\(seed)", "--storefronts", "2", "--catalog-tables",
                "--export-date", day,
            ]
                + (incremental ? ["--incremental"] : []),
            in: parent)
        #expect(generated.status == 0, "\(generated.stderr)")
        return path
    }

    /// Imports `paths` into the lake and the SQLite catalog `db` by the
    /// same command (with `options`), each expected to succeed.
    static func importInto(lake: String, db: String, _ paths: [String], options: [String] = [], in folder: URL) throws {
        for store in [["--lake", lake], ["--db", db]] {
            let imported = try EPFRunner.run(["import"] + options + store + paths, in: folder)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
    }
}
