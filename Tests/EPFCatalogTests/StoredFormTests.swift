import EPFCatalog
import EPFFormat
import EPFSQLite
import Testing

@Suite("Stored forms")
struct StoredFormTests {
    static let table = TableBytes(
        columns: ["id", "flag", "price", "released", "name", "notes", "size"],
        types: ["INTEGER", "BOOLEAN", "DECIMAL(9,3)", "DATETIME", "VARCHAR(10)", "LONGTEXT", "BIGINT"],
        key: ["id"])

    @Test func eachDeclaredTypeIsStoredInItsForm() throws {
        let catalog = try TemporaryCatalog()
        var table = Self.table
        table.rows = [
            ["1", "1", "2.990", "2012 03 06", "short", "line one\nline two\r\nthree", "9223372036854775807"],
            ["2", "0", "120", "2012 03 06 10 00 00", "a much longer name than ten", "", "-5"],
            ["3", "true", "12345678901.000", "2005-09-06-00:00:00-Etc/GMT", "", "tab\there", ""],
            ["4", "maybe", "n/a", "1999", "名前 🎲", "x", "12abc"],
        ]
        try catalog.apply(table, as: "things")
        let rows = try catalog.rows("SELECT id, flag, price, released, name, notes, size FROM things ORDER BY id")
        #expect(
            rows[0] == [
                .integer(1), .integer(1), .real(2.99), .text("2012-03-06"), .text("short"), .text("line one\nline two\r\nthree"),
                .integer(Int64.max),
            ])
        #expect(
            rows[1] == [
                .integer(2), .integer(0), .real(120), .text("2012-03-06 10:00:00"), .text("a much longer name than ten"), .null,
                .integer(-5),
            ])
        #expect(
            rows[2] == [.integer(3), .integer(1), .real(12_345_678_901), .text("2005-09-06 00:00:00"), .null, .text("tab\there"), .null])
        #expect(rows[3] == [.integer(4), .text("maybe"), .text("n/a"), .text("1999"), .text("名前 🎲"), .text("x"), .text("12abc")])
        let types = try catalog.rows("SELECT typeof(price), typeof(flag) FROM things WHERE id = 1")
        #expect(types[0] == [.text("real"), .text("integer")])
    }

    @Test func keptAsTextValuesAreCounted() throws {
        let catalog = try TemporaryCatalog()
        var table = Self.table
        table.rows = [["4", "maybe", "n/a", "1999", "n", "x", "12abc"]]
        let staged = try catalog.stage(table, as: "things")
        #expect(staged.counts.nonBooleanValues == 1)
        #expect(staged.counts.nonNumericDecimals == 1)
        #expect(staged.counts.unparsedDates == 1)
        #expect(staged.counts.nonNumericIntegers == 1)
        #expect(staged.counts.valuesKeptAsText == 4)
        #expect(staged.counts.repairedRows == 0)
    }

    @Test func emptyKeyFieldsAreEmptyStringsNotNull() throws {
        let catalog = try TemporaryCatalog()
        let table = TableBytes(
            columns: ["a", "b", "v"], types: ["VARCHAR(5)", "INTEGER", "VARCHAR(5)"], key: ["a", "b"],
            rows: [["", "", ""], ["x", "", "2"]])
        try catalog.apply(table, as: "keyed")
        let rows = try catalog.rows("SELECT a, b, v FROM keyed ORDER BY a")
        #expect(rows == [[.text(""), .text(""), .null], [.text("x"), .text(""), .text("2")]])
    }

    @Test func invalidUTF8BecomesReplacementCharactersAndNULsAreRemoved() throws {
        let catalog = try TemporaryCatalog()
        var table = TableBytes(columns: ["id", "name"], types: ["INTEGER", "VARCHAR(100)"], key: ["id"])
        table.rows = [["1", "caf\u{E9}"], ["2", "nul\u{0}here"]]
        var bytes = table.bytes
        // Make "café" Latin-1: 0xC3 0xA9 -> 0xE9 (an invalid lone byte).
        let index = bytes.firstIndex(of: 0xC3)!
        bytes.replaceSubrange(index...(index + 1), with: [0xE9])
        let staged = try catalog.stage(bytes: bytes, as: "names")
        #expect(staged.counts.invalidUTF8Rows == 1)
        #expect(staged.counts.invalidUTF8Sequences == 1)
        #expect(staged.counts.nulRows == 1)
        #expect(staged.counts.nulBytes == 1)
        #expect(staged.counts.repairedRows == 2)
        _ = try catalog.store.apply([staged], journal: [])
        let rows = try catalog.rows("SELECT name FROM names ORDER BY id")
        #expect(rows == [[.text("caf\u{FFFD}")], [.text("nulhere")]])
    }

    @Test func strictRefusesInvalidUTF8WithRecordAndOffset() throws {
        let catalog = try TemporaryCatalog()
        var table = TableBytes(columns: ["id", "name"], types: ["INTEGER", "VARCHAR(100)"], key: ["id"])
        table.rows = [["1", "ok"], ["2", "bad \u{80}"]]
        let bytes = table.bytes.map { $0 == 0xC2 ? 0x20 : $0 }  // leave 0x80 alone: invalid
        let error = #expect(throws: FormatError.self) {
            _ = try catalog.stage(bytes: bytes, as: "names", strict: true)
        }
        #expect(error?.kind == .invalidUTF8)
        #expect(error?.record == 2)
        let rowStart = bytes.indices.first { bytes[$0...].starts(with: Array("2\u{1}bad".utf8)) }!
        #expect(error?.byteOffset == Int64(rowStart))
        #expect(try !catalog.store.database.tableExists("names"))
    }
}
