import EPFFormat
import EPFTestSupport
import Testing

/// Rows with more fields than columns: a stray 0x01 inside free text.
@Suite("Row repair")
struct RowRepairTests {
    /// One LONGTEXT column, typed columns after it.
    static let application = makeHeader([
        ("export_date", "BIGINT"), ("application_id", "INTEGER"), ("title", "VARCHAR(1000)"),
        ("description", "LONGTEXT"), ("price", "DECIMAL(9,3)"), ("release_date", "DATETIME"),
    ])

    /// As in `application_detail`: two adjacent LONGTEXT columns, text after them.
    static let applicationDetail = makeHeader([
        ("export_date", "BIGINT"), ("application_id", "INTEGER"), ("language_code", "VARCHAR(20)"),
        ("title", "VARCHAR(1000)"), ("description", "LONGTEXT"), ("release_notes", "LONGTEXT"),
        ("company_url", "VARCHAR(1000)"), ("support_url", "VARCHAR(1000)"), ("screenshot_url_1", "VARCHAR(1000)"),
    ])

    /// Two LONGTEXT columns with typed columns after each, so types can tell
    /// which one took the extra fields.
    static let separated = makeHeader([
        ("application_id", "INTEGER"), ("description", "LONGTEXT"), ("price", "DECIMAL(9,3)"),
        ("release_notes", "CLOB"), ("release_date", "DATETIME"),
    ])

    // MARK: One free-text column

    @Test func strayByteInTheLongTextColumnIsRejoined() throws {
        let chunk = epf([
            ["1452074401007", "820188112", "Deep Creek", "Hello", "world", "2.990", "2012 03 06"],
            ["1452074401007", "820188113", "Next", "clean", "0.99", "2013 01 01"],
        ])
        let outcome = parseRecords(Self.application, chunk)
        #expect(outcome.fault == nil)
        let record = try #require(outcome.records.first)
        #expect(record.fields[3] == Array("Hello\u{1}world".utf8))
        #expect(record.text == ["1452074401007", "820188112", "Deep Creek", "Hello\u{1}world", "2.990", "2012 03 06"])
        #expect(record.flags == .rejoined)
        #expect(outcome.records.last?.text == ["1452074401007", "820188113", "Next", "clean", "0.99", "2013 01 01"])
        #expect(outcome.records.last?.flags == [])
    }

    @Test func severalStrayBytesAreAllKept() throws {
        let chunk = epf([["1", "2", "t", "", "a", "b", "", "c", "1.5", ""]])
        let outcome = parseRecords(Self.application, chunk)
        let record = try #require(outcome.records.first)
        #expect(record.fields[3] == Array("\u{1}a\u{1}b\u{1}\u{1}c".utf8))
        #expect(record.text[4...] == ["1.5", ""])
        #expect(record.flags == .rejoined)
    }

    @Test func freeTextAsTheLastColumn() throws {
        let header = makeHeader([("application_id", "INTEGER"), ("title", "VARCHAR(100)"), ("description", "LONGTEXT")])
        let outcome = parseRecords(header, epf([["1", "t", "one", "two", "three"]]))
        let record = try #require(outcome.records.first)
        #expect(record.text == ["1", "t", "one\u{1}two\u{1}three"])
        #expect(record.flags == .rejoined)
    }

    @Test func manyStrayBytesGrowTheScratchSpace() throws {
        let header = makeHeader([("application_id", "INTEGER"), ("description", "LONGTEXT"), ("price", "DECIMAL(9,3)")])
        let pieces = (0..<300).map { "p\($0)" }
        let chunk = epf([["1"] + pieces + ["2.5"], ["2", "plain", "3"]])
        let outcome = parseRecords(header, chunk)
        #expect(outcome.fault == nil)
        #expect(outcome.records.count == 2)
        #expect(outcome.records.first?.text == ["1", pieces.joined(separator: "\u{1}"), "2.5"])
        #expect(outcome.records.first?.flags == .rejoined)
        #expect(outcome.records.last?.text == ["2", "plain", "3"])
    }

    @Test func singleCandidateWhoseLaterFieldsDoNotFitIsAmbiguous() throws {
        // The stray byte is really in `title`; only `description` can take it,
        // and the fields after it then do not fit their types.
        let chunk = epf([["1", "2", "ti", "tle", "desc", "x", "2012 03 06"]])
        let record = try #require(parseRecords(Self.application, chunk).records.first)
        #expect(record.flags == [.rejoined, .ambiguous])
        #expect(record.text[3...] == ["tle\u{1}desc", "x", "2012 03 06"])
    }

    @Test func rejoinedRowWithInvalidBytesIsFlaggedForBoth() throws {
        let chunk = rawRow([
            Array("1".utf8), Array("2".utf8), Array("t".utf8), [0x61, 0x80], Array("b".utf8), Array("1".utf8),
            Array("2012 03 06".utf8),
        ])
        let record = try #require(parseRecords(Self.application, chunk).records.first)
        #expect(record.flags == [.rejoined, .needsTextRepair])
        #expect(record.fields[3] == [0x61, 0x80, 0x01, 0x62])
    }

    // MARK: Several free-text columns

    @Test func applicationDetailAdjacentLongTextsTakeTheFirst() throws {
        // Both LONGTEXT columns fit (everything after is text): the first is
        // chosen and the choice is flagged.
        let chunk = epf([
            [
                "1452074401007", "820188112", "EN", "Title", "A description", "with a stray byte", "Fixes",
                "https://example.com", "https://example.com/support", "https://example.com/1.png",
            ]
        ])
        let outcome = parseRecords(Self.applicationDetail, chunk)
        #expect(outcome.fault == nil)
        let record = try #require(outcome.records.first)
        #expect(
            record.text == [
                "1452074401007", "820188112", "EN", "Title", "A description\u{1}with a stray byte", "Fixes",
                "https://example.com", "https://example.com/support", "https://example.com/1.png",
            ])
        #expect(record.flags == [.rejoined, .ambiguous])
    }

    @Test func onlyTheLaterColumnFits() throws {
        // Extras in release_notes: joining them into description would put
        // "no" in price, so only release_notes fits.
        let chunk = epf([["1", "desc", "2.99", "no", "tes", "2012 03 06"]])
        let record = try #require(parseRecords(Self.separated, chunk).records.first)
        #expect(record.text == ["1", "desc", "2.99", "no\u{1}tes", "2012 03 06"])
        #expect(record.flags == .rejoined)
        #expect(!record.flags.contains(.ambiguous))
    }

    @Test func severalCandidatesFitTakesTheFirstAndIsAmbiguous() throws {
        // Both alignments give valid values everywhere: description "A^A5"
        // with price 2.99, or description "A" with price 5 and release_notes
        // "2.99^AN". The first is chosen and the choice is flagged.
        let chunk = epf([["1", "A", "5", "2.99", "N", "2012 03 06"]])
        let record = try #require(parseRecords(Self.separated, chunk).records.first)
        #expect(record.text == ["1", "A\u{1}5", "2.99", "N", "2012 03 06"])
        #expect(record.flags == [.rejoined, .ambiguous])
    }

    @Test func strayInTheFirstOfTwoSeparatedColumnsIsNotAmbiguous() throws {
        // Extras in description. Putting them in release_notes instead would
        // leave "sc" in price (DECIMAL): that alignment does not fit, so
        // exactly one candidate fits and the repair is not ambiguous.
        let chunk = epf([["1", "de", "sc", "2.99", "notes", "2012 03 06"]])
        let record = try #require(parseRecords(Self.separated, chunk).records.first)
        #expect(record.text == ["1", "de\u{1}sc", "2.99", "notes", "2012 03 06"])
        #expect(record.flags == .rejoined)
    }

    @Test func noCandidateFitsTakesTheFirstAndIsAmbiguous() throws {
        let chunk = epf([["1", "de", "sc", "2.99", "notes", "not a date"]])
        let record = try #require(parseRecords(Self.separated, chunk).records.first)
        #expect(record.text == ["1", "de\u{1}sc", "2.99", "notes", "not a date"])
        #expect(record.flags == [.rejoined, .ambiguous])
    }

    // MARK: Nowhere to put them

    @Test func extraFieldsWithoutAFreeTextColumnAreTooMany() throws {
        let header = makeHeader([("application_id", "INTEGER"), ("title", "VARCHAR(1000)"), ("price", "DECIMAL(9,3)")])
        let good = epf([["1", "a", "1.0"], ["2", "b", "2.0"]])
        let chunk = good + epf([["3", "c", "d", "3.0"], ["4", "e", "4.0"]])
        let outcome = parseRecords(header, chunk, recordsBefore: 100)
        let fault = try #require(outcome.fault)
        #expect(fault.kind == .tooManyFields)
        #expect(fault.record == 103)
        #expect(fault.byteOffset == Int64(good.count))
        #expect(outcome.records.count == 2)
        #expect(outcome.next == good.count)
    }
}
