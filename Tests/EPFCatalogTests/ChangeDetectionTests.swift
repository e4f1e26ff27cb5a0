import EPFCatalog
import EPFFormat
import EPFSQLite
import Testing

/// An INCREMENTAL day repeats every change since the FULL, each row with
/// the day's `export_date`: a row the same as the catalog's in every other
/// column is not written, and is counted as unchanged. Narrow rows (prices)
/// are skipped by the upsert; wide ones (an application's texts) are
/// compared as they load and kept in staging as their key alone
/// (`UnchangedRowFilter`).
@Suite("Change detection in an INCREMENTAL apply")
struct ChangeDetectionTests {
    static let columns = ["export_date", "id", "title", "size"]

    /// A table file of `rows` (`[id, title, size]`) exported at `date`;
    /// titles are padded to `width` bytes, so that the rows are as wide as
    /// the test needs.
    static func file(_ mode: String, date: Int, width: Int, _ rows: [[String]]) -> TableBytes {
        TableBytes(
            columns: columns, types: ["BIGINT", "BIGINT", "VARCHAR(4000)", "BIGINT"], key: ["id"], mode: mode,
            rows: rows.map { row in
                let title = row[1].isEmpty ? "" : row[1] + String(repeating: ".", count: max(0, width - row[1].utf8.count))
                return ["\(date)", row[0], title, row[2]]
            })
    }

    /// `id, title prefix, size, export_date` of every row, in id order.
    static func table(_ catalog: TemporaryCatalog) throws -> [[SQLValue]] {
        try catalog.rows("SELECT id, substr(title, 1, 5), size, export_date FROM app ORDER BY id")
    }

    @Test(arguments: [8, 600]) func aRowTheSameButForItsExportDateIsNotWritten(width: Int) throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(
            Self.file("FULL", date: 100, width: width, [["1", "one", "10"], ["2", "two", "20"], ["3", "three", ""]]), as: "app")
        let outcome = try catalog.apply(
            Self.file(
                "INCREMENTAL", date: 200, width: width,
                // 1: the same; 2: a new size; 3: the same (NULL size as
                // before); 4: new.
                [["1", "one", "10"], ["2", "two", "21"], ["3", "three", ""], ["4", "four", "40"]]),
            as: "app")
        #expect([outcome.inserted, outcome.updated, outcome.unchanged, outcome.rowsAfter] == [1, 1, 2, 4])
        #expect(
            try Self.table(catalog) == [
                [.integer(1), .text("one.."), .integer(10), .integer(100)],
                [.integer(2), .text("two.."), .integer(21), .integer(200)],
                [.integer(3), .text("three"), .null, .integer(100)],
                [.integer(4), .text("four."), .integer(40), .integer(200)],
            ])
        #expect(try catalog.rows("SELECT name FROM sqlite_schema WHERE name LIKE 'epf_stage%'").isEmpty)
    }

    /// The next day repeats day 1's change and adds its own: only its own
    /// is written.
    @Test(arguments: [8, 600]) func theNextDayWritesOnlyItsOwnChanges(width: Int) throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.file("FULL", date: 100, width: width, [["1", "one", "10"], ["2", "two", "20"]]), as: "app")
        try catalog.apply(Self.file("INCREMENTAL", date: 200, width: width, [["1", "uno", "10"]]), as: "app")
        let day2 = try catalog.apply(
            Self.file("INCREMENTAL", date: 300, width: width, [["1", "uno", "10"], ["2", "dos", "20"]]), as: "app")
        #expect([day2.inserted, day2.updated, day2.unchanged] == [0, 1, 1])
        #expect(
            try Self.table(catalog) == [
                [.integer(1), .text("uno.."), .integer(10), .integer(200)],
                [.integer(2), .text("dos.."), .integer(20), .integer(300)],
            ])
    }

    /// A key repeated in the file keeps its last row, whether that row is
    /// the same as the catalog's (nothing is written) or not.
    @Test(arguments: [8, 600]) func aRepeatedKeyKeepsItsLastRow(width: Int) throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.file("FULL", date: 100, width: width, [["1", "one", "10"], ["2", "two", "20"]]), as: "app")
        let outcome = try catalog.apply(
            Self.file(
                "INCREMENTAL", date: 200, width: width,
                [["1", "changed", "11"], ["2", "two", "20"], ["1", "one", "10"], ["2", "later", "22"]]),
            as: "app")
        #expect([outcome.inserted, outcome.updated, outcome.unchanged] == [0, 1, 1])
        #expect(
            try Self.table(catalog) == [
                [.integer(1), .text("one.."), .integer(10), .integer(100)],
                [.integer(2), .text("later"), .integer(22), .integer(200)],
            ])
    }

    /// A column the catalog's table does not have yet is a change in
    /// every row the file holds.
    @Test(arguments: [8, 600]) func aNewColumnIsAChange(width: Int) throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.file("FULL", date: 100, width: width, [["1", "one", "10"]]), as: "app")
        var day = Self.file("INCREMENTAL", date: 200, width: width, [["1", "one", "10"]])
        day.columns.append("rating")
        day.types.append("INTEGER")
        day.rows = day.rows.map { $0 + ["5"] }
        let outcome = try catalog.apply(day, as: "app")
        #expect([outcome.inserted, outcome.updated, outcome.unchanged] == [0, 1, 0])
        #expect(outcome.addedColumns == ["rating"])
        #expect(try catalog.rows("SELECT rating, export_date FROM app") == [[.integer(5), .integer(200)]])
    }

    /// Wide rows are compared as they load: the staging table holds the
    /// same ones as their key alone, marked.
    @Test func wideRowsTheSameAreStagedAsTheirKeyAlone() throws {
        let catalog = try TemporaryCatalog()
        try catalog.apply(Self.file("FULL", date: 100, width: 600, [["1", "one", "10"], ["2", "two", "20"]]), as: "app")
        let staged = try catalog.stage(
            Self.file("INCREMENTAL", date: 200, width: 600, [["1", "one", "10"], ["2", "two", "21"]]), as: "app")
        #expect(
            try catalog.rows("SELECT id, title IS NULL, size, epf_unchanged FROM epf_stage_app ORDER BY id") == [
                [.integer(1), .integer(1), .null, .integer(1)],
                [.integer(2), .integer(0), .integer(21), .integer(0)],
            ])
        _ = try catalog.store.apply([staged], journal: [])
        // Narrow rows load as they are, through the plain INSERT: the
        // marker stays NULL (a compared row has 0 or 1).
        _ = try catalog.stage(Self.file("INCREMENTAL", date: 300, width: 8, [["1", "one", "10"]]), as: "app")
        #expect(try catalog.rows("SELECT title IS NULL, epf_unchanged FROM epf_stage_app") == [[.integer(0), .null]])
    }
}
