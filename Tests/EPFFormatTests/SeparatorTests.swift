import EPFFormat
import EPFTestSupport
import Testing

/// EPF Flat (newline rows, tab fields) and other separators: the same
/// header rules and the same damage paths as EPF Relational.
@Suite("Separators")
struct SeparatorTests {
    static let columns = ["export_date", "application_id", "title", "price"]
    static let types = ["BIGINT", "INTEGER", "LONGTEXT", "DECIMAL(9,3)"]
    static let rows = [["1452074401007", "1", "Deep Creek GC", "2.990"], ["1452074401007", "2", "Other", ""]]

    /// A relational table file with its separators swapped for `separators`
    /// (the fields hold neither).
    static func file(_ rows: [[String]], separators: Separators, recordsWritten: Int? = nil) -> [UInt8] {
        let relational = tableFileBytes(
            columns: columns, types: types, key: ["application_id"], mode: "FULL", rows: rows, recordsWritten: recordsWritten)
        var out: [UInt8] = []
        var index = 0
        while index < relational.count {
            if relational[index] == 0x02, index + 1 < relational.count, relational[index + 1] == 0x0A {
                out += separators.record
                index += 2
            } else {
                out.append(relational[index] == 0x01 ? separators.field : relational[index])
                index += 1
            }
        }
        return out
    }

    /// Header and rows of `bytes` read with `separators`.
    static func parse(_ bytes: [UInt8], _ separators: Separators) throws -> (EPFHeader, ParseOutcome) {
        let header = try bytes.withUnsafeBytes { buffer throws(FormatError) -> EPFHeader in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true, separators: separators) else {
                throw FormatError(.truncated, byteOffset: 0, detail: "no header", hint: "")
            }
            return header
        }
        let parser = RecordParser(header: header, separators: separators)
        let batch = RecordBatch(columnCount: header.columns.count, capacity: 64)
        return (header, parseOnce(parser, bytes, from: header.dataOffset, batch: batch))
    }

    static let custom = try! Separators(escapedRecord: "|~\\n", escapedField: ";")

    @Test("flat, relational and a custom pair give the same header and rows", arguments: [Separators.flat, .relational, custom])
    func sameRowsInEveryForm(_ separators: Separators) throws {
        let (header, outcome) = try Self.parse(Self.file(Self.rows, separators: separators), separators)
        #expect(header.columns == Self.columns)
        #expect(header.types.map(\.declared) == Self.types)
        #expect(header.primaryKey == ["application_id"])
        #expect(header.exportMode == .full)
        #expect(outcome.fault == nil)
        #expect(outcome.records.map(\.text) == Self.rows)
        #expect(outcome.footer == 2)
    }

    @Test func flatSeparatorsAreNewlineAndTab() {
        #expect(Separators.flat.record == [0x0A])
        #expect(Separators.flat.field == 0x09)
        #expect(Separators.relational.record == [0x02, 0x0A])
        #expect(Separators.relational.field == 0x01)
        #expect(Separators.relational.isRelational && !Separators.flat.isRelational)
    }

    @Test func escapesAreRead() throws {
        #expect(try Separators(escapedRecord: "\\x02\\n", escapedField: "\\x01") == .relational)
        #expect(try Separators(escapedRecord: "\\n", escapedField: "\\t") == .flat)
        #expect(Separators.relational.stored == "\\x02\\n|\\x01")
        #expect(Separators.flat.stored == "\\n|\\t")
    }

    @Test func badSeparatorsAreRefused() {
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "", escapedField: "\\t") }
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "\\n", escapedField: "\\t\\t") }
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "\\t\\n", escapedField: "\\t") }
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "\\n", escapedField: "\\x0") }
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "\\q", escapedField: "\\t") }
        #expect(throws: Separators.Invalid.self) { try Separators(escapedRecord: "\\n", escapedField: "#") }
    }

    @Test("a tab inside a free-text field of a flat row is rejoined, as a stray 0x01 is in a relational one")
    func tabInFreeTextIsRejoined() throws {
        let rows = [["1452074401007", "1", "Deep\tCreek", "2.990"]]
        let (_, outcome) = try Self.parse(Self.file(rows, separators: .flat), .flat)
        #expect(outcome.fault == nil)
        #expect(outcome.records.map(\.text) == rows)
        #expect(outcome.records.first?.flags == [.rejoined])
    }

    @Test("a newline inside a flat field cuts the row: both halves are short rows, refused as in relational files")
    func newlineInAFieldIsAShortRow() throws {
        let rows = [["1452074401007", "1", "two\nlines", "2.990"]]
        let (_, outcome) = try Self.parse(Self.file(rows, separators: .flat), .flat)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .shortRow)
        #expect(fault.record == 1)
        #expect(fault.detail.contains("3 fields but the header has 4 columns"))
    }

    @Test func aCutFlatFileNamesItsSeparator() throws {
        var bytes = Self.file(Self.rows, separators: .flat)
        bytes.removeLast(Array("#recordsWritten:2\n".utf8).count + 3)
        let (_, outcome) = try Self.parse(bytes, .flat)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .truncated)
        #expect(fault.detail.contains("after the last 0x0A"))
    }

    @Test("a multi-byte record separator whose first byte occurs alone in a field")
    func loneFirstByteIsData() throws {
        let rows = [["1452074401007", "1", "a|b|~c", "1"]]
        let (_, outcome) = try Self.parse(Self.file(rows, separators: Self.custom), Self.custom)
        #expect(outcome.fault == nil)
        #expect(outcome.records.map(\.text) == rows)
    }

    @Test func lastRecordEndFindsWholeRows() {
        let bytes = Array("ab\ncd\nef".utf8)
        let cut = bytes.withUnsafeBufferPointer { Separators.flat.lastRecordEnd($0.baseAddress!, from: 0, end: $0.count) }
        #expect(cut == 6)
        let multi = Array("ab|~\ncd|~".utf8)
        let multiCut = multi.withUnsafeBufferPointer { Self.custom.lastRecordEnd($0.baseAddress!, from: 0, end: $0.count) }
        #expect(multiCut == 5)
        let none = Array("abc".utf8).withUnsafeBufferPointer { Separators.flat.lastRecordEnd($0.baseAddress!, from: 0, end: $0.count) }
        #expect(none == nil)
    }
}
