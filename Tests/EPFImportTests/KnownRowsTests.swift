import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFSQLite
import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// An INCREMENTAL file's rows that the table's previous INCREMENTAL file
/// held byte for byte (but for `export_date`) are left out as the file is
/// parsed (`RowSieve`): counted as known and unchanged, never loaded, and
/// the catalog ends exactly as if they had been.
@Suite("Rows the previous day already held")
struct KnownRowsTests {
    static let columns = ["export_date", "id", "title", "size"]
    static let types = ["BIGINT", "BIGINT", "VARCHAR(1000)", "BIGINT"]

    /// Writes the table file `app` of `rows` (`[id, title, size]`) exported
    /// at `date` into `folder/name`, and returns its path.
    static func write(
        _ mode: String, date: Int, _ rows: [[String]], to folder: URL, as name: String, columns: [String] = columns,
        types: [String] = types
    ) throws -> String {
        let directory = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("app")
        let bytes = tableFileBytes(
            columns: columns, types: types, key: ["id"], mode: mode, rows: rows.map { ["\(date)"] + $0 }, legal: nil)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Imports one file; its report.
    static func importing(_ path: String, into catalog: String, options: ImportOptions = ImportOptions()) throws -> FileReport {
        let reports = try runImport([path], catalog: catalog, options: options)
        let report = try #require(reports.first)
        #expect(report.status == .applied, "\(report.error ?? "")")
        return report
    }

    /// The rows of `sql`, each value as text.
    static func texts(_ catalog: String, _ sql: String) throws -> [[String]] {
        try RawSQLiteReader(path: catalog).rows(sql).map { row in
            row.map { value in
                switch value {
                case .integer(let number): String(number)
                case .real(let number): number == number.rounded() ? String(Int64(number)) : "\(number)"
                case .null: "NULL"
                default: value.string ?? value.description
                }
            }
        }
    }

    /// `id, title, size, export_date` of every row of `app`, by id.
    static func table(_ catalog: String) throws -> [[String]] {
        try texts(catalog, "SELECT id, title, size, export_date FROM app ORDER BY id")
    }

    /// What `epf_row_digest` keeps for `app`: its export date and rows.
    static func kept(_ catalog: String) throws -> [[String]] {
        try texts(catalog, "SELECT export_date, rows FROM epf_row_digest WHERE table_name = 'app'")
    }

    @Test func theRowsThePreviousDayHeldAreNotLoaded() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            _ = try Self.importing(
                Self.write("FULL", date: 100, [["1", "one", "10"], ["2", "two", "20"], ["3", "three", "30"]], to: folder, as: "d0"),
                into: catalog)
            #expect(try Self.kept(catalog).isEmpty)
            let day1 = try Self.importing(Self.write("INCREMENTAL", date: 200, [["1", "uno", "10"]], to: folder, as: "d1"), into: catalog)
            #expect(day1.counts.knownRows == 0)
            #expect(try Self.kept(catalog) == [["200", "1"]])
            // Day 2 repeats day 1's row, changes 2, adds 4.
            let day2 = try Self.importing(
                Self.write(
                    "INCREMENTAL", date: 300, [["1", "uno", "10"], ["2", "dos", "20"], ["4", "four", "40"]], to: folder, as: "d2"),
                into: catalog)
            #expect(day2.counts.knownRows == 1)
            #expect(day2.counts.rowsRead == 2)
            #expect(day2.rows == 3)
            let outcome = try #require(day2.outcome)
            #expect([Int]([outcome.inserted, outcome.updated, outcome.unchanged, outcome.rowsAfter]) == [1, 1, 1, 4])
            #expect(
                try Self.table(catalog) == [
                    ["1", "uno", "10", "200"], ["2", "dos", "20", "300"], ["3", "three", "30", "100"], ["4", "four", "40", "300"],
                ])
            #expect(try Self.kept(catalog) == [["300", "3"]])
            // A FULL forgets them: the next day matches nothing.
            _ = try Self.importing(
                Self.write("FULL", date: 400, [["1", "uno", "10"], ["2", "dos", "20"], ["4", "four", "40"]], to: folder, as: "d3"),
                into: catalog)
            #expect(try Self.kept(catalog).isEmpty)
            let day4 = try Self.importing(Self.write("INCREMENTAL", date: 500, [["1", "uno", "10"]], to: folder, as: "d4"), into: catalog)
            #expect(day4.counts.knownRows == 0)
            #expect(day4.outcome?.unchanged == 1)
        }
    }

    /// The last row of a key wins: a known row after a changed row of the
    /// same key is loaded, so that it wins; a known row before one is left
    /// out, and the changed row wins. A file whose keys repeat keeps no
    /// digests.
    @Test func aKeyRepeatedAroundAKnownRowKeepsItsLastRow() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            _ = try Self.importing(
                Self.write("FULL", date: 100, [["1", "one", "10"], ["2", "two", "20"]], to: folder, as: "d0"), into: catalog)
            _ = try Self.importing(
                Self.write("INCREMENTAL", date: 200, [["1", "uno", "10"], ["2", "dos", "20"]], to: folder, as: "d1"), into: catalog)
            let day2 = try Self.importing(
                Self.write(
                    "INCREMENTAL", date: 300,
                    // 1: changed, then as day 1 had it (that wins); 2: as
                    // day 1 had it (left out), then changed (that wins).
                    [["1", "eins", "11"], ["1", "uno", "10"], ["2", "dos", "20"], ["2", "zwei", "22"]], to: folder, as: "d2"),
                into: catalog)
            #expect(day2.counts.knownRows == 1)
            #expect(day2.counts.duplicateKeys == 1)
            #expect(try Self.table(catalog) == [["1", "uno", "10", "200"], ["2", "zwei", "22", "300"]])
            #expect(try Self.kept(catalog).isEmpty)
            // Without digests, the next day loads every row.
            let day3 = try Self.importing(
                Self.write("INCREMENTAL", date: 400, [["1", "uno", "10"], ["2", "zwei", "22"]], to: folder, as: "d3"), into: catalog)
            #expect(day3.counts.knownRows == 0)
            #expect(day3.outcome?.unchanged == 2)
            #expect(try Self.kept(catalog) == [["400", "2"]])
        }
    }

    /// Digests are of a layout: a file with another column matches nothing.
    @Test func aFileOfAnotherLayoutMatchesNothing() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            _ = try Self.importing(Self.write("FULL", date: 100, [["1", "one", "10"]], to: folder, as: "d0"), into: catalog)
            _ = try Self.importing(Self.write("INCREMENTAL", date: 200, [["1", "uno", "10"]], to: folder, as: "d1"), into: catalog)
            let day2 = try Self.importing(
                Self.write(
                    "INCREMENTAL", date: 300, [["1", "uno", "10", "x"]], to: folder, as: "d2", columns: Self.columns + ["extra"],
                    types: Self.types + ["VARCHAR(10)"]),
                into: catalog)
            #expect(day2.counts.knownRows == 0)
            #expect(try RawSQLiteReader(path: catalog).rows("SELECT extra FROM app").map { $0.first?.string } == ["x"])
        }
    }

    /// A table whose rows change every day (a chart) is matched for the
    /// first rows of its second day, then no more until its next FULL.
    @Test func aTableWhoseRowsAllChangeIsNotMatchedUntilItsNextFull() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("c.sqlite").path
            let count = 80_000
            func day(_ index: Int, rank: (Int) -> Int) -> [[String]] {
                (0..<count).map { ["\($0)", "app", "\(rank($0))"] }
            }
            _ = try Self.importing(Self.write("FULL", date: 100, day(0) { $0 }, to: folder, as: "d0"), into: catalog)
            _ = try Self.importing(Self.write("INCREMENTAL", date: 200, day(1) { $0 + 1 }, to: folder, as: "d1"), into: catalog)
            #expect(try Self.kept(catalog) == [["200", "\(count)"]])
            // Every rank changes: nothing is known, and the table churns.
            let day2 = try Self.importing(Self.write("INCREMENTAL", date: 300, day(2) { $0 + 2 }, to: folder, as: "d2"), into: catalog)
            #expect(day2.counts.knownRows == 0)
            #expect(try Self.kept(catalog) == [["300", "-1"]])
            // Day 3 repeats day 2: not matched (the upsert finds them the same).
            let day3 = try Self.importing(Self.write("INCREMENTAL", date: 400, day(3) { $0 + 2 }, to: folder, as: "d3"), into: catalog)
            #expect(day3.counts.knownRows == 0)
            #expect(day3.outcome?.unchanged == count)
            #expect(try Self.kept(catalog) == [["400", "-1"]])
            _ = try Self.importing(Self.write("FULL", date: 500, day(4) { $0 }, to: folder, as: "d4"), into: catalog)
            #expect(try Self.kept(catalog).isEmpty)
        }
    }

    /// A generated week, day by day, with and without leaving known rows
    /// out: the same outcomes, the same tables to the last `export_date`.
    @Test func aWeekGivesTheSameCatalogAsWithoutDigests() throws {
        try withTemporaryFolder { folder in
            let set = AppFeedSet(model: AppFeedModel(apps: 1_200, seed: 5, storefronts: AppFeedSetTests.storefronts), days: 6)
            let days = folder.appendingPathComponent("days").path
            for day in 0...6 { _ = try set.write(day: day, to: days) }
            var without = ImportOptions()
            without.leavesOutKnownRows = false
            var outcomes: [String: [String]] = [:]
            var known = 0
            for (name, options) in [("with", ImportOptions()), ("without", without)] {
                let catalog = folder.appendingPathComponent("\(name).sqlite").path
                for day in 0...6 {
                    let stamp = set.model.folderDate(day: day)
                    let paths = ["itunes", "pricing", "popularity"].map { "\(days)/\($0)\(stamp)" }
                    let reports = try runImport(paths, catalog: catalog, options: options)
                    #expect(reports.allSatisfy { $0.status == .applied }, "day \(day): \(reports.map(\.error))")
                    outcomes[name, default: []] += reports.map { "\($0.table) \($0.rows) \(String(describing: $0.outcome))" }
                    if name == "with" && day >= 2 { known += reports.reduce(0) { $0 + $1.counts.knownRows } }
                }
            }
            #expect(outcomes["with"] == outcomes["without"])
            #expect(known > 0)
            let with = try CatalogSnapshot(path: folder.appendingPathComponent("with.sqlite").path)
            let plain = try CatalogSnapshot(path: folder.appendingPathComponent("without.sqlite").path)
            #expect(with.tableNames == plain.tableNames)
            for table in plain.tableNames {
                #expect(with.tables[table] == plain.tables[table], "\(table)")
            }
        }
    }
}
