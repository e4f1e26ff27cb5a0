import EPFFormat
import Testing

@Suite("Format errors")
struct FormatErrorTests {
    @Test func shiftedMovesRecordAndOffset() {
        let error = FormatError(.shortRow, record: 2, byteOffset: 40, detail: "short row", hint: "Download again")
        let shifted = error.shifted(records: 1000, bytes: 1 << 33)
        #expect(shifted.record == 1002)
        #expect(shifted.byteOffset == 40 + (1 << 33))
        #expect(shifted.kind == .shortRow)
        #expect(shifted.detail == "short row")
    }

    @Test func shiftedLeavesHeaderErrorsWithoutARecord() {
        let error = FormatError(.badHeader, headerRow: 3, byteOffset: 10, detail: "d", hint: "h")
        let shifted = error.shifted(records: 5, bytes: 7)
        #expect(shifted.record == nil)
        #expect(shifted.headerRow == 3)
        #expect(shifted.byteOffset == 17)
    }

    @Test func descriptionNamesThePlace() {
        var error = FormatError(.shortRow, record: 3, byteOffset: 120, detail: "short row: 2 fields", hint: "Download again")
        #expect(error.description == "record 3: byte 120: short row: 2 fields. Download again")
        error.file = "itunes20250427/application"
        #expect(error.description == "itunes20250427/application: record 3: byte 120: short row: 2 fields. Download again")
        let header = FormatError(.typeCountMismatch, file: "genre", headerRow: 3, byteOffset: 60, detail: "d", hint: "h")
        #expect(header.description == "genre: header row 3: byte 60: d. h")
    }
}
