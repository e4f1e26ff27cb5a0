import EPFFormat
import EPFTestSupport
import Testing

@Suite("Record parser")
struct RecordParserTests {
    static let header = makeHeader([
        ("export_date", "BIGINT"), ("application_id", "INTEGER"), ("title", "VARCHAR(1000)"),
        ("price", "DECIMAL(9,3)"),
    ])

    static func row(_ id: Int, title: String = "App", price: String = "0.99") -> [String] {
        ["1452074401007", String(id), title, price]
    }

    // MARK: Splitting

    @Test func fieldsAreSplitOnSeparators() {
        let first = epf([Self.row(1, title: "Deep Creek GC", price: "2.990")])
        let chunk = first + epf([Self.row(2, title: "Other", price: ""), ["#recordsWritten:2"]])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.records.count == 2)
        #expect(
            outcome.records.map(\.text) == [
                ["1452074401007", "1", "Deep Creek GC", "2.990"],
                ["1452074401007", "2", "Other", ""],
            ])
        #expect(outcome.records.map(\.offset) == [0, first.count])
        #expect(outcome.records.map(\.flags) == [[], []])
        #expect(outcome.footer == 2)
        #expect(outcome.fault == nil)
        #expect(outcome.next == chunk.count)
    }

    @Test func emptyFieldsAreKept() {
        let outcome = parseRecords(Self.header, epf([["", "", "", ""], ["", "7", "", ""]]))
        #expect(outcome.fault == nil)
        #expect(outcome.records.map(\.text) == [["", "", "", ""], ["", "7", "", ""]])
    }

    @Test func loneRecordSeparatorInsideAFieldIsData() {
        // 0x02 not followed by a newline, mid-field and as a field's last byte
        // (the row then ends 0x02 0x02 0x0A).
        let chunk = epf([Self.row(1, title: "a\u{2}b\u{2}\u{2}c", price: "1\u{2}"), Self.row(2)])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.fault == nil)
        #expect(outcome.records.count == 2)
        #expect(outcome.records.first?.fields[2] == Array("a\u{2}b\u{2}\u{2}c".utf8))
        #expect(outcome.records.first?.fields[3] == [UInt8(ascii: "1"), 0x02])
        #expect(outcome.records.last?.text == Self.row(2))
    }

    @Test func newlinesInsideFieldsAreKept() {
        let chunk = epf([
            Self.row(1, title: "line one\nline two\n", price: "3"),
            ["1452074401007", "2", "windows\r\nline\r\n", "4\r"],
        ])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.fault == nil)
        #expect(
            outcome.records.map(\.text) == [
                ["1452074401007", "1", "line one\nline two\n", "3"],
                ["1452074401007", "2", "windows\r\nline\r\n", "4\r"],
            ])
        #expect(outcome.records.last?.fields[2] == Array("windows\r\nline\r\n".utf8))
    }

    @Test func parsingStartsAtTheGivenOffset() {
        let skipped = epf([Self.row(1)])
        let chunk = skipped + epf([Self.row(2)])
        let outcome = parseRecords(Self.header, chunk, from: skipped.count)
        #expect(outcome.records.map(\.text) == [Self.row(2)])
        #expect(outcome.records.first?.offset == skipped.count)
    }

    // MARK: Damage

    @Test func shortRowIsAFaultWithItsRecordAndOffset() throws {
        let good = epf([Self.row(1), Self.row(2)])
        let chunk = good + epf([["1452074401007", "3", "no price"], Self.row(4)])
        let outcome = parseRecords(Self.header, chunk)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .shortRow)
        #expect(fault.record == 3)
        #expect(fault.byteOffset == Int64(good.count))
        #expect(outcome.records.count == 2)
        #expect(outcome.next == good.count)
    }

    @Test func shortRowRecordNumberCountsRecordsBefore() throws {
        let good = epf([Self.row(1)])
        let chunk = good + epf([["only one field"]])
        let outcome = parseRecords(Self.header, chunk, recordsBefore: 40)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .shortRow)
        #expect(fault.record == 42)
        #expect(fault.byteOffset == Int64(good.count))
        #expect(outcome.firstRecordInChunk == 40)
    }

    @Test func truncatedFinalRowIsAFault() throws {
        let good = epf([Self.row(1), Self.row(2)])
        let chunk = good + Array("1452074401007\u{1}3\u{1}cut he".utf8)
        let outcome = parseRecords(Self.header, chunk, isFinal: true)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .truncated)
        #expect(fault.record == 3)
        #expect(fault.byteOffset == Int64(good.count))
        #expect(outcome.records.count == 2)
        #expect(outcome.next == good.count)
    }

    @Test func truncatedRowEndingInALoneRecordSeparatorIsAFault() throws {
        let good = epf([Self.row(1)])
        let chunk = good + Array("1452074401007\u{1}2\u{1}t\u{1}1\u{2}".utf8)
        let fault = try #require(parseRecords(Self.header, chunk, isFinal: true).fault)
        #expect(fault.kind == .truncated)
        #expect(fault.record == 2)
        #expect(fault.byteOffset == Int64(good.count))
    }

    @Test func unfinishedRowOfANonFinalChunkWaitsForMore() {
        let good = epf([Self.row(1)])
        let chunk = good + Array("1452074401007\u{1}2".utf8)
        let outcome = parseRecords(Self.header, chunk, isFinal: false)
        #expect(outcome.fault == nil)
        #expect(outcome.records.count == 1)
        #expect(outcome.next == good.count)
    }

    // MARK: Footer

    @Test func footerIsRead() {
        let rows = epf([Self.row(1), Self.row(2), Self.row(3)])
        let chunk = rows + epf([["#recordsWritten:3"]])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.records.count == 3)
        #expect(outcome.footer == 3)
        #expect(outcome.footerOffset == rows.count)
        #expect(outcome.fault == nil)
        #expect(outcome.next == chunk.count)
    }

    @Test func footerValueIsNotCheckedHere() {
        // A count that disagrees is the caller's to report; the parser reads it.
        let chunk = epf([Self.row(1), ["#recordsWritten:123456789012"]])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.records.count == 1)
        #expect(outcome.footer == 123_456_789_012)
        #expect(outcome.fault == nil)
    }

    @Test func dataAfterTheFooterIsAFault() throws {
        let beforeExtra = epf([Self.row(1), ["#recordsWritten:1"]])
        let chunk = beforeExtra + epf([Self.row(2)])
        let outcome = parseRecords(Self.header, chunk, recordsBefore: 5)
        #expect(outcome.footer == 1)
        #expect(outcome.records.count == 1)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .dataAfterFooter)
        #expect(fault.byteOffset == Int64(beforeExtra.count))
        #expect(fault.record == 7)
        #expect(outcome.next == beforeExtra.count)
    }

    @Test func commentRowsAmongDataAreSkippedAndCounted() {
        let chunk = epf([
            Self.row(1), ["##legal: licence text in the middle"], Self.row(2), ["##"], ["##x", "y"],
            Self.row(3), ["#recordsWritten:3"],
        ])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.fault == nil)
        #expect(outcome.records.map { $0.text[1] } == ["1", "2", "3"])
        #expect(outcome.skippedCommentRows == 3)
        #expect(outcome.footer == 3)
    }

    // MARK: Batches

    /// Calls `parse` until the footer, a fault or the end, as a loader would.
    func parseAll(_ chunk: [UInt8], capacity: Int) -> [ParseOutcome] {
        let parser = RecordParser(header: Self.header)
        let batch = RecordBatch(columnCount: 4, capacity: capacity)
        var outcomes: [ParseOutcome] = []
        var position = 0
        var records = 0
        while outcomes.count < 100 {
            let outcome = parseOnce(parser, chunk, from: position, recordsBefore: records, batch: batch)
            outcomes.append(outcome)
            records += outcome.records.count
            if outcome.footer != nil || outcome.fault != nil || outcome.next >= chunk.count { break }
            position = outcome.next
        }
        return outcomes
    }

    @Test func smallBatchNeedsSeveralCallsAndRecordNumbersContinue() {
        let chunk = epf((1...10).map { Self.row($0) } + [["#recordsWritten:10"]])
        let outcomes = parseAll(chunk, capacity: 3)
        #expect(outcomes.count == 4)
        #expect(outcomes.map(\.records.count) == [3, 3, 3, 1])
        #expect(outcomes.map(\.firstRecordInChunk) == [0, 3, 6, 9])
        #expect(outcomes.flatMap { $0.records.map { $0.text[1] } } == (1...10).map(String.init))
        #expect(outcomes.map(\.footer) == [nil, nil, nil, 10])
        #expect(outcomes.allSatisfy { $0.fault == nil })
        // Each call resumes where the previous one stopped: on a row start.
        #expect(outcomes.dropLast().map(\.next) == outcomes.dropFirst().map { $0.records.first!.offset })
    }

    @Test func fullBatchLeavesTheFooterToTheNextCall() {
        let chunk = epf((1...10).map { Self.row($0) } + [["#recordsWritten:10"]])
        let outcomes = parseAll(chunk, capacity: 5)
        #expect(outcomes.map(\.records.count) == [5, 5, 0])
        #expect(outcomes.map(\.footer) == [nil, nil, 10])
        #expect(outcomes.last?.firstRecordInChunk == 10)
    }

    @Test func faultInALaterBatchHasTheAbsoluteRecordNumber() throws {
        var rows = (1...10).map { Self.row($0) }
        rows[7] = ["1452074401007", "8"]
        let chunk = epf(rows + [["#recordsWritten:10"]])
        let outcomes = parseAll(chunk, capacity: 3)
        #expect(outcomes.map(\.records.count) == [3, 3, 1])
        let fault = try #require(outcomes.last?.fault)
        #expect(fault.kind == .shortRow)
        #expect(fault.record == 8)
        #expect(fault.byteOffset == Int64(epf(Array(rows[0..<7])).count))
    }

    @Test func batchIsResetBetweenCalls() {
        let parser = RecordParser(header: Self.header)
        let batch = RecordBatch(columnCount: 4, capacity: 8)
        let first = parseOnce(parser, epf([Self.row(1), ["##c"], ["#recordsWritten:1"]]), batch: batch)
        #expect(first.footer == 1)
        #expect(first.skippedCommentRows == 1)
        let second = parseOnce(parser, epf([Self.row(2), Self.row(3)]), isFinal: false, batch: batch)
        #expect(second.records.map { $0.text[1] } == ["2", "3"])
        #expect(second.footer == nil)
        #expect(second.skippedCommentRows == 0)
        #expect(second.fault == nil)
    }

    // MARK: Text repair flag

    @Test func invalidUTF8OrNULMarksTheRecord() {
        let chunk =
            rawRow([Array("1".utf8), Array("1".utf8), [0x61, 0x80, 0x62], Array("1".utf8)])
            + rawRow([Array("1".utf8), Array("2".utf8), [0x61, 0x00, 0x62], Array("1".utf8)])
            + epf([Self.row(3, title: "日本語 — café 😀"), Self.row(4)])
        let outcome = parseRecords(Self.header, chunk)
        #expect(outcome.fault == nil)
        #expect(outcome.records.map(\.flags) == [.needsTextRepair, .needsTextRepair, [], []])
        // The bytes themselves are handed over unchanged.
        #expect(outcome.records.first?.fields[2] == [0x61, 0x80, 0x62])
        #expect(outcome.records[1].fields[2] == [0x61, 0x00, 0x62])
    }

    // MARK: Through the header

    @Test func wholeFileFromTheHeaderDataOffset() throws {
        let bytes = epf([
            ["#export_date", "application_id", "title", "price"], ["#primaryKey:application_id"],
            ["##legal: licence"], ["#dbTypes:BIGINT", "INTEGER", "VARCHAR(1000)", "DECIMAL(9,3)"],
            ["#exportMode:FULL"], Self.row(1), Self.row(2), ["#recordsWritten:2"],
        ])
        let parsed = try parsedHeader(bytes)
        let outcome = parseRecords(parsed, bytes, from: parsed.dataOffset)
        #expect(outcome.records.map(\.text) == [Self.row(1), Self.row(2)])
        #expect(outcome.records.first?.offset == parsed.dataOffset)
        #expect(outcome.footer == 2)
        #expect(outcome.skippedCommentRows == 0)
        #expect(outcome.fault == nil)
    }
}
