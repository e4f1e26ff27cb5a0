import EPFCatalog
import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// The rows of a table file's bytes, located: which are header rows, where
/// each data record starts, where the footer is.
struct LocatedRows {
    let bytes: [UInt8]
    let rows: [[UInt8]]
    let offsets: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        rows = ReferenceFile.splitRows(bytes)
        offsets = ReferenceFile.rowOffsets(bytes)
    }

    /// Row indexes (0-based, in the file) of the data records.
    var dataRowIndexes: [Int] { rows.indices.filter { rows[$0].first != UInt8(ascii: "#") } }

    /// The row index of data record `number` (1-based).
    func rowIndex(ofRecord number: Int) -> Int { dataRowIndexes[number - 1] }

    /// The file offset where data record `number` (1-based) starts.
    func start(ofRecord number: Int) -> Int { offsets[rowIndex(ofRecord: number)] }

    /// The row index of the first row starting with `prefix`.
    func rowIndex(startingWith prefix: String) -> Int? {
        rows.firstIndex { $0.starts(with: Array(prefix.utf8)) }
    }

    /// The fields of data record `number`.
    func fields(ofRecord number: Int) -> [[UInt8]] {
        ReferenceFile.splitFields(rows[rowIndex(ofRecord: number)])
    }

    /// The file offset of field `field` (0-based) of data record `number`.
    func offset(ofField field: Int, inRecord number: Int) -> Int {
        start(ofRecord: number) + fields(ofRecord: number)[..<field].reduce(0) { $0 + $1.count + 1 }
    }

    /// The bytes with row `index` replaced by `row` (its terminator kept).
    func replacingRow(_ index: Int, with row: [UInt8]) -> [UInt8] {
        let start = offsets[index]
        let end = start + rows[index].count
        return Array(bytes[..<start]) + row + Array(bytes[end...])
    }
}

/// Deterministic pseudo-random bytes (SplitMix64), so a failure can be replayed.
func garbageBytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    while bytes.count < count {
        withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
    }
    return Array(bytes.prefix(count))
}

/// One way to damage `itunes20261101/application`, and the error it must give.
enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case truncatedInsideRow
    case truncatedAfterRow
    case recordsWrittenMismatch
    case shortRow
    case missingHeader
    case typeCountMismatch
    case binaryGarbage
    case emptyFile

    var testDescription: String { rawValue }

    /// The damaged bytes and what the error must say: its start (file,
    /// place, byte) and its wording.
    func apply(to original: [UInt8], path: String) throws -> (bytes: [UInt8], prefix: String, wording: String) {
        let file = LocatedRows(original)
        switch self {
        case .truncatedInsideRow:
            // Cut 40 bytes into record 10: no row end, no footer.
            let start = file.start(ofRecord: 10)
            return (
                Array(original[..<(start + 40)]), "\(path): record 10: byte \(start): ",
                "the file ends inside a row (40 bytes after the last 0x02 0x0A, no row end)"
            )
        case .truncatedAfterRow:
            // Cut right after the 0x02 0x0A of record 20.
            let cut = file.start(ofRecord: 21)
            return (
                Array(original[..<cut]), "\(path): record 20: byte \(cut): ",
                "the file ends after record 20 with no #recordsWritten footer"
            )
        case .recordsWrittenMismatch:
            let footer = try #require(file.rowIndex(startingWith: "#recordsWritten:"))
            #expect(file.rows[footer] == Array("#recordsWritten:25".utf8))
            return (
                file.replacingRow(footer, with: Array("#recordsWritten:24".utf8)), "\(path): byte \(file.offsets[footer]): ",
                "#recordsWritten says 24 records but the file holds 25"
            )
        case .shortRow:
            // Record 3 loses its last field (download_size) and the 0x01 before it.
            let row = file.rows[file.rowIndex(ofRecord: 3)]
            #expect(file.fields(ofRecord: 3).count == 17)
            let lastSeparator = try #require(row.lastIndex(of: 0x01))
            return (
                file.replacingRow(file.rowIndex(ofRecord: 3), with: Array(row[..<lastSeparator])),
                "\(path): record 3: byte \(file.start(ofRecord: 3)): ", "short row: 16 fields but the header has 17 columns"
            )
        case .missingHeader:
            // The file starts with the first data row.
            return (
                Array(original[file.start(ofRecord: 1)...]), "\(path): header row 1: byte 0: ",
                "missing header: the first row does not start with '#' and column names"
            )
        case .typeCountMismatch:
            // #dbTypes: loses its last type: 16 types for 17 columns.
            let index = try #require(file.rowIndex(startingWith: "#dbTypes:"))
            let row = file.rows[index]
            let lastSeparator = try #require(row.lastIndex(of: 0x01))
            return (
                file.replacingRow(index, with: Array(row[..<lastSeparator])),
                "\(path): header row \(index + 1): byte \(file.offsets[index]): ",
                "#dbTypes: names 16 types but the header has 17 columns"
            )
        case .binaryGarbage:
            var bytes = garbageBytes(count: 4096, seed: 20_261_101)
            if bytes[0] == UInt8(ascii: "#") { bytes[0] = 0 }
            return (
                bytes, "\(path): header row 1: byte 0: ",
                "this is not an EPF table file: it starts with binary data, not a '#' header row"
            )
        case .emptyFile:
            return ([], "\(path): byte 0: ", "the file is empty (0 bytes)")
        }
    }
}

/// A catalog holding the itunes20261101 FULL, then an import of a damaged
/// copy of that feed folder.
struct DamagedImport {
    var catalog: String
    var before: CatalogSnapshot
    var journalBefore: [JournalRow]
    /// The damaged file, as the import named it.
    var damagedPath: String
    /// The original bytes of the file that was damaged.
    var original: [UInt8]
    var reports: [FileReport]

    var report: FileReport? { reports.first { $0.path == damagedPath } }
    var others: [FileReport] { reports.filter { $0.path != damagedPath } }

    /// Imports the sample itunes FULL into a new catalog in `folder`, then a
    /// copy of it whose `table` file holds `damage(original bytes)`.
    init(
        in folder: URL, table: String = "application", options: ImportOptions = ImportOptions(),
        damage: ([UInt8]) throws -> [UInt8]
    ) throws {
        catalog = folder.appendingPathComponent("catalog.sqlite").path
        let base = try runImport([SampleFeeds.path("itunes20261101")], catalog: catalog)
        try #require(base.count == 9 && base.allSatisfy { $0.status == .applied })
        before = try CatalogSnapshot(path: catalog)
        journalBefore = try JournalRow.all(in: catalog)
        let damagedFolder = folder.appendingPathComponent("damaged", isDirectory: true)
        try FileManager.default.createDirectory(at: damagedFolder, withIntermediateDirectories: true)
        let copy = try copyFeed("itunes20261101", into: damagedFolder)
        let target = copy.appendingPathComponent(table)
        original = try fileBytes(target)
        try write(try damage(original), to: target)
        damagedPath = target.path
        reports = try runImport([copy.path], catalog: catalog, options: options)
    }

    /// The damaged file failed with an error starting with `prefix` and
    /// saying `wording`; every other file of the folder was not applied; the
    /// catalog's data is as it was; the journal recorded the failure.
    func expectRefused(prefix: String, wording: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(reports.count == 9, sourceLocation: sourceLocation)
        let report = try #require(report, sourceLocation: sourceLocation)
        #expect(report.status == .failed, sourceLocation: sourceLocation)
        let error = report.error ?? ""
        #expect(error.hasPrefix(prefix), "error: \(error)", sourceLocation: sourceLocation)
        #expect(error.contains(wording), "error: \(error)", sourceLocation: sourceLocation)
        for other in others {
            #expect(other.status == .notApplied, "\(other.path): \(other.status)", sourceLocation: sourceLocation)
            #expect(other.error?.contains("not applied") == true, sourceLocation: sourceLocation)
        }
        let after = try CatalogSnapshot(path: catalog)
        #expect(after == before, "the catalog's data changed", sourceLocation: sourceLocation)
        let journal = try JournalRow.all(in: catalog)
        #expect(Array(journal.prefix(journalBefore.count)) == journalBefore, sourceLocation: sourceLocation)
        let added = journal.dropFirst(journalBefore.count)
        let failed = added.filter { $0.status == "failed" }
        #expect(failed.map(\.sourcePath) == [damagedPath], sourceLocation: sourceLocation)
        #expect(failed.first?.table == report.table, sourceLocation: sourceLocation)
        #expect(failed.first?.message == report.error, sourceLocation: sourceLocation)
        #expect(failed.first?.feed == "itunes" && failed.first?.feedDate == "2026-11-01", sourceLocation: sourceLocation)
        #expect(added.filter { $0.status == "applied" }.isEmpty, sourceLocation: sourceLocation)
        #expect(
            Set(added.filter { $0.status == "not-applied" }.map(\.sourcePath)) == Set(others.map(\.path)), sourceLocation: sourceLocation)
    }
}

@Suite("Bad input: refused files leave the catalog as it was")
struct BadInputTests {
    /// The default chunk size (every file is one chunk) and 4 KB chunks
    /// (several chunks per file, each still holding the whole header and a
    /// row or more), so record numbers and offsets found in a later chunk
    /// are checked too.
    @Test("A damaged file is refused with its place and the catalog is unchanged", arguments: Damage.allCases, [8 << 20, 4096])
    func damagedFileIsRefused(damage: Damage, chunkSize: Int) throws {
        try withTemporaryFolder { folder in
            var expected: (prefix: String, wording: String) = ("", "")
            let run = try DamagedImport(in: folder, options: ImportOptions(chunkSize: chunkSize)) { original in
                // The path is known before the import: the copy keeps the feed's name.
                let path = folder.appendingPathComponent("damaged/itunes20261101/application").path
                let damaged = try damage.apply(to: original, path: path)
                expected = (damaged.prefix, damaged.wording)
                return damaged.bytes
            }
            try run.expectRefused(prefix: expected.prefix, wording: expected.wording)
        }
    }

    /// `itunes20261101/application` with one more byte sequence inserted into
    /// field `field` of record `record`, `into` bytes after the field's start.
    static func inserting(_ inserted: [UInt8], field: Int, record: Int, into: Int, _ original: [UInt8]) -> [UInt8] {
        let at = LocatedRows(original).offset(ofField: field, inRecord: record) + into
        return Array(original[..<at]) + inserted + Array(original[at...])
    }

    @Test("Invalid UTF-8 is stored as U+FFFD and counted")
    func invalidUTF8IsReplacedAndCounted() throws {
        try withTemporaryFolder { folder in
            // Record 1 is 364709193 "Chess Master Classic": "Chess" 0x80 " Master Classic".
            let run = try DamagedImport(in: folder) { Self.inserting([0x80], field: 2, record: 1, into: 5, $0) }
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(run.others.allSatisfy { $0.status == .applied })
            #expect(report.counts.invalidUTF8Rows == 1)
            #expect(report.counts.invalidUTF8Sequences == 1)
            #expect(report.counts.rejoinedRows == 1)
            #expect(report.repaired == 2)
            #expect(report.rows == 25)
            #expect(report.warnings.contains { $0.contains("invalid UTF-8") && $0.contains("U+FFFD") })
            // Only that title changed.
            var expected = run.before
            let columns = expected.tables["application"]!.columns
            let title = try #require(columns.firstIndex(of: "title"))
            let id = try #require(columns.firstIndex(of: "application_id"))
            let row = try #require(expected.tables["application"]!.rows.firstIndex { $0[id] == .integer(364_709_193) })
            expected.tables["application"]!.rows[row][title] = .string("Chess\u{FFFD} Master Classic")
            let after = try CatalogSnapshot(path: run.catalog)
            #expect(after.tables == expected.tables)
            let journal = try JournalRow.all(in: run.catalog).last { $0.sourcePath == run.damagedPath }
            #expect(journal?.status == "applied" && journal?.repairedRows == 2)
        }
    }

    @Test("With strict, invalid UTF-8 or NUL bytes refuse the file", arguments: [[UInt8]([0x80]), [0x00, 0x00]])
    func strictRefusesRepairs(inserted: [UInt8]) throws {
        try withTemporaryFolder { folder in
            let run = try DamagedImport(in: folder, options: ImportOptions(strict: true)) {
                Self.inserting(inserted, field: 2, record: 1, into: 5, $0)
            }
            let start = LocatedRows(run.original).start(ofRecord: 1)
            let wording =
                inserted == [0x80]
                ? "the row holds 1 invalid UTF-8 sequence(s), refused because of --strict"
                : "the row holds 2 NUL byte(s), refused because of --strict"
            try run.expectRefused(prefix: "\(run.damagedPath): record 1: byte \(start): ", wording: wording)
        }
    }

    @Test("NUL bytes are removed and counted")
    func nulBytesAreRemovedAndCounted() throws {
        try withTemporaryFolder { folder in
            // Two NUL bytes 10 bytes into the description of record 2.
            let run = try DamagedImport(in: folder) { Self.inserting([0x00, 0x00], field: 13, record: 2, into: 10, $0) }
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.counts.nulBytes == 2)
            #expect(report.counts.nulRows == 1)
            #expect(report.repaired == 2)
            #expect(report.warnings.contains { $0.contains("NUL") })
            // Without its NUL bytes the text is the original: the catalog holds what it held.
            let after = try CatalogSnapshot(path: run.catalog)
            #expect(after.tables == run.before.tables)
        }
    }

    @Test("Duplicate keys in a FULL file: the last row wins, counted")
    func duplicateKeysInAFullFile() throws {
        try withTemporaryFolder { folder in
            let run = try DamagedImport(in: folder) { original in
                let file = LocatedRows(original)
                var fields = file.fields(ofRecord: 1)
                fields[2] = Array("Chess Master Classic (again)".utf8)
                let repeated = Array(fields.joined(separator: [0x01]))
                let footer = try #require(file.rowIndex(startingWith: "#recordsWritten:"))
                let withFooter = file.replacingRow(footer, with: Array("#recordsWritten:26".utf8))
                let at = file.offsets[footer]
                return Array(withFooter[..<at]) + repeated + [0x02, 0x0A] + Array(withFooter[at...])
            }
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.rows == 26)
            #expect(report.counts.duplicateKeys == 1)
            #expect(report.skipped == 1)
            #expect(report.outcome?.rowsAfter == 25)
            #expect(report.warnings.contains { $0.contains("repeated a key") })
            let catalog = try RawSQLiteReader(path: run.catalog)
            #expect(try catalog.rows("SELECT count(*) FROM application") == [[.integer(25)]])
            #expect(
                try catalog.rows("SELECT title FROM application WHERE application_id = 364709193") == [
                    [.string("Chess Master Classic (again)")]
                ])
            let journal = try JournalRow.all(in: run.catalog).last { $0.sourcePath == run.damagedPath }
            #expect(journal?.skippedRows == 1 && journal?.rows == 26)
        }
    }
}

/// Small table files of the tests' own, imported on top of the itunes FULL.
@Suite("Headers and columns that are accepted or refused")
struct HeaderAndColumnTests {
    static let widgetColumns = ["export_date", "widget_id", "shape", "label"]

    /// Imports the itunes FULL into a new catalog in `folder`, then writes
    /// `bytes` to `<folder>/<feed>/<table>` and imports that one file.
    static func importOnTop(
        _ bytes: [UInt8], table: String, feed: String = "itunes20261103", in folder: URL,
        options: ImportOptions = ImportOptions()
    ) throws -> (catalog: String, path: String, before: CatalogSnapshot, report: FileReport?) {
        let catalog = folder.appendingPathComponent("catalog.sqlite").path
        let base = try runImport([SampleFeeds.path("itunes20261101")], catalog: catalog)
        try #require(base.allSatisfy { $0.status == .applied })
        let before = try CatalogSnapshot(path: catalog)
        let feedFolder = folder.appendingPathComponent(feed, isDirectory: true)
        try FileManager.default.createDirectory(at: feedFolder, withIntermediateDirectories: true)
        let path = feedFolder.appendingPathComponent(table).path
        try write(bytes, to: URL(fileURLWithPath: path))
        let reports = try runImport([path], catalog: catalog, options: options)
        #expect(reports.count == 1)
        return (catalog, path, before, reports.first)
    }

    @Test("An unknown #dbTypes type is stored as text, with a warning")
    func unknownTypeIsText() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: Self.widgetColumns, types: ["BIGINT", "INTEGER", "GEOMETRY", "VARCHAR(10)"], key: ["widget_id"],
                mode: "FULL", rows: [["1793664000000", "1", "POINT(1 2)", "a"], ["1793664000000", "2", "42", "b"]])
            let run = try Self.importOnTop(bytes, table: "widget", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.warnings.contains("column shape: unknown type 'GEOMETRY': stored as text"), "\(report.warnings)")
            let catalog = try RawSQLiteReader(path: run.catalog)
            #expect(
                try catalog.rows("SELECT shape, label FROM widget ORDER BY widget_id") == [
                    [.string("POINT(1 2)"), .string("a")], [.string("42"), .string("b")],
                ])
            #expect(try catalog.rows("SELECT type FROM pragma_table_info('widget') WHERE name = 'shape'") == [[.string("TEXT")]])
            let journal = try JournalRow.all(in: run.catalog).last
            #expect(journal?.status == "applied")
            #expect(journal?.message?.contains("GEOMETRY") == true)
        }
    }

    @Test("Values that do not fit their declared type are kept as their text, and counted")
    func misfitValuesAreKeptAsText() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: ["widget_id", "size", "flag", "price"], types: ["INTEGER", "BIGINT", "BOOLEAN", "DECIMAL(9,3)"],
                key: ["widget_id"], mode: "FULL",
                rows: [["1", "n/a", "yes", "free"], ["2", "12.5", "2", "1,5"], ["3", "99999999999999999999", "1", "0.5"]])
            let run = try Self.importOnTop(bytes, table: "widget", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.counts.nonNumericIntegers == 3)
            #expect(report.counts.nonBooleanValues == 2)
            #expect(report.counts.nonNumericDecimals == 2)
            let catalog = try RawSQLiteReader(path: run.catalog)
            let rows = try catalog.rows("SELECT size, flag, price FROM widget ORDER BY widget_id")
            try #require(rows.count == 3)
            #expect(rows[0] == [.string("n/a"), .string("yes"), .string("free")])
            #expect(rows[2][1...] == [.integer(1), .real(0.5)])
            // Counted as "kept as text", so they must be stored as their text,
            // not turned into numbers by the column's affinity: "12.5" in a
            // BIGINT column, "2" in a BOOLEAN column, and an integer too large
            // for 64 bits (as REAL it would lose its last digits).
            #expect(rows[1][0] == .string("12.5"), "BIGINT column, value 12.5")
            #expect(rows[1][1] == .string("2"), "BOOLEAN column, value 2")
            #expect(rows[1][2] == .string("1,5"), "DECIMAL column, value 1,5")
            #expect(rows[2][0] == .string("99999999999999999999"), "BIGINT column, value 99999999999999999999")
        }
    }

    @Test("Empty fields are NULL, except in key columns, where they are empty strings")
    func emptyFields() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: ["export_date", "widget_id", "language_code", "label", "size"],
                types: ["BIGINT", "INTEGER", "VARCHAR(20)", "VARCHAR(10)", "BIGINT"], key: ["widget_id", "language_code"],
                mode: "FULL", rows: [["", "1", "", "", ""], ["1793664000000", "", "EN", "a", "5"]])
            let run = try Self.importOnTop(bytes, table: "widget", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            let catalog = try RawSQLiteReader(path: run.catalog)
            #expect(
                try catalog.rows("SELECT * FROM widget ORDER BY widget_id, language_code") == [
                    [.null, .integer(1), .text([]), .null, .null],
                    [.integer(1_793_664_000_000), .text([]), .string("EN"), .string("a"), .integer(5)],
                ])
        }
    }

    @Test("A declared key column missing from the columns: a warning; the key is the rest")
    func missingKeyColumnInAFullFile() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: Self.widgetColumns, types: ["BIGINT", "INTEGER", "VARCHAR(100)", "VARCHAR(10)"],
                key: ["widget_id", "maker_id"], mode: "FULL",
                rows: [["1793664000000", "1", "round", "a"], ["1793664000000", "2", "square", "b"]])
            let run = try Self.importOnTop(bytes, table: "widget", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(
                report.warnings.contains("declared key column 'maker_id' is not one of the columns: dropped from the key"),
                "\(report.warnings)")
            let catalog = try RawSQLiteReader(path: run.catalog)
            let index = try #require(
                try catalog.rows("SELECT name FROM pragma_index_list('widget') WHERE \"unique\" = 1").first?.first?.string)
            #expect(try catalog.rows("SELECT name FROM pragma_index_info('\(index)')") == [[.string("widget_id")]])
            #expect(try catalog.rows("SELECT count(*) FROM widget") == [[.integer(2)]])
        }
    }

    @Test("An INCREMENTAL file left with no key is refused", arguments: [["maker_id"], []])
    func incrementalWithoutKeyIsRefused(declaredKey: [String]) throws {
        try withTemporaryFolder { folder in
            // device_type exists (from the FULL); this update has no usable key.
            let bytes = tableFileBytes(
                columns: ["export_date", "device_type_id", "name"], types: ["BIGINT", "INTEGER", "VARCHAR(200)"],
                key: declaredKey, mode: "INCREMENTAL", rows: [["1793664000000", "1", "iPhone (renamed)"]])
            let run = try Self.importOnTop(bytes, table: "device_type", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .failed)
            let wording =
                declaredKey.isEmpty
                ? "an INCREMENTAL file with no #primaryKey cannot be applied"
                : "an INCREMENTAL file whose key columns (maker_id) are not among its columns cannot be applied"
            #expect(report.error?.hasPrefix("\(run.path): byte 0: \(wording)") == true, "\(report.error ?? "")")
            #expect(try CatalogSnapshot(path: run.catalog) == run.before)
            let journal = try JournalRow.all(in: run.catalog).last
            #expect(journal?.status == "failed" && journal?.sourcePath == run.path && journal?.mode == "INCREMENTAL")
        }
    }

    @Test("An INCREMENTAL file for a table that does not exist is refused: it names the FULL it needs and --force")
    func incrementalWithoutFullIsRefused() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: Self.widgetColumns, types: ["BIGINT", "INTEGER", "VARCHAR(100)", "VARCHAR(10)"], key: ["widget_id"],
                mode: "INCREMENTAL", rows: [["1793664000000", "2", "square", ""], ["1793664000000", "1", "round", "a"]])
            let run = try Self.importOnTop(bytes, table: "widget", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .failed)
            #expect(
                report.error
                    == "\(run.path): an INCREMENTAL file, but the catalog has no widget table yet: alone it would make a table of one day's changes. Import the itunes FULL export dated 2026-11-03 or earlier (e.g. from Apple's weekly current/ folder) first, then this day again; or run again with --force to apply it anyway"
            )
            #expect(try CatalogSnapshot(path: run.catalog) == run.before)
            let journal = try JournalRow.all(in: run.catalog).last
            #expect(journal?.status == "failed" && journal?.sourcePath == run.path && journal?.mode == "INCREMENTAL")
        }
    }

    @Test("An INCREMENTAL file for a table that does not exist creates it when forced")
    func incrementalCreatesATable() throws {
        try withTemporaryFolder { folder in
            let bytes = tableFileBytes(
                columns: Self.widgetColumns, types: ["BIGINT", "INTEGER", "VARCHAR(100)", "VARCHAR(10)"], key: ["widget_id"],
                mode: "INCREMENTAL", rows: [["1793664000000", "2", "square", ""], ["1793664000000", "1", "round", "a"]])
            let run = try Self.importOnTop(
                bytes, table: "widget", in: folder, options: ImportOptions(allowIncrementalWithoutFull: true))
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.outcome?.inserted == 2)
            #expect(report.outcome?.updated == 0)
            #expect(report.outcome?.rowsAfter == 2)
            let after = try CatalogSnapshot(path: run.catalog)
            #expect(after.tableNames == (run.before.tableNames + ["widget"]).sorted())
            for name in run.before.tableNames { #expect(after.tables[name] == run.before.tables[name], "\(name)") }
            #expect(
                after.tables["widget"]
                    == CatalogSnapshot.Table(
                        columns: Self.widgetColumns,
                        rows: [
                            [.integer(1_793_664_000_000), .integer(1), .string("round"), .string("a")],
                            [.integer(1_793_664_000_000), .integer(2), .string("square"), .null],
                        ]))
            let catalog = try RawSQLiteReader(path: run.catalog)
            #expect(try catalog.rows("SELECT count(*) FROM pragma_index_list('widget') WHERE \"unique\" = 1") == [[.integer(1)]])
        }
    }

    @Test("An INCREMENTAL file with a column the table lacks adds it; other rows get NULL")
    func incrementalAddsAColumn() throws {
        try withTemporaryFolder { folder in
            // Columns in another order, one of them new.
            let file = tableFileBytes(
                columns: ["name", "short_name", "device_type_id", "export_date"],
                types: ["VARCHAR(200)", "VARCHAR(20)", "INTEGER", "BIGINT"], key: ["device_type_id"], mode: "INCREMENTAL",
                rows: [["iPhone (all)", "phone", "1", "1793664000000"], ["Vision Pro", "vision", "7", "1793664000000"]])
            let run = try Self.importOnTop(file, table: "device_type", in: folder)
            let report = try #require(run.report)
            #expect(report.status == .applied, "\(report.error ?? "")")
            #expect(report.outcome?.addedColumns == ["short_name"])
            #expect(report.outcome?.inserted == 1)
            #expect(report.outcome?.updated == 1)
            #expect(report.outcome?.rowsAfter == 7)

            var reference = ReferenceCatalog()
            for (_, table, full) in try SampleFeedsTests.referenceFiles(of: "itunes20261101") {
                reference.apply(full, as: table)
            }
            reference.apply(try ReferenceFile(bytes: file), as: "device_type")
            #expect(reference.tables["device_type"]?.columns == ["export_date", "device_type_id", "name", "short_name"])
            try SampleFeedsTests.expectCatalog(at: run.catalog, equals: reference)
            let catalog = try RawSQLiteReader(path: run.catalog)
            #expect(
                try catalog.rows("SELECT device_type_id, name, short_name FROM device_type ORDER BY device_type_id") == [
                    [.integer(1), .string("iPhone (all)"), .string("phone")],
                    [.integer(2), .string("iPod touch"), .null],
                    [.integer(3), .string("iPad"), .null],
                    [.integer(4), .string("Apple Watch"), .null],
                    [.integer(5), .string("Apple TV"), .null],
                    [.integer(6), .string("Mac"), .null],
                    [.integer(7), .string("Vision Pro"), .string("vision")],
                ])
        }
    }
}
