import EPFFormat
import EPFTestSupport
import Testing

@Suite("Header parser")
struct HeaderParserTests {
    static let columnRow = ["#export_date", "application_id", "title", "price"]
    static let keyRow = ["#primaryKey:application_id"]
    static let typesRow = ["#dbTypes:BIGINT", "INTEGER", "VARCHAR(1000)", "DECIMAL(9,3)"]
    static let modeRow = ["#exportMode:FULL"]
    static let legalRow = ["##legal: IMPORTANT: The Apple Enterprise Partner Feed is licensed"]
    static let dataRow = ["1452074401007", "820188112", "Deep Creek GC", "2.990"]

    static var standardHeader: [UInt8] { epf([columnRow, keyRow, typesRow, modeRow]) }

    // MARK: The rows

    @Test func columnRowAndTagsAreRead() throws {
        let bytes = Self.standardHeader + epf([Self.dataRow, ["#recordsWritten:1"]])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.columns == ["export_date", "application_id", "title", "price"])
        #expect(parsed.types.map(\.declared) == ["BIGINT", "INTEGER", "VARCHAR(1000)", "DECIMAL(9,3)"])
        #expect(parsed.types.map(\.kind) == [.integer, .integer, .text, .decimal])
        #expect(parsed.primaryKey == ["application_id"])
        #expect(parsed.declaredPrimaryKey == ["application_id"])
        #expect(parsed.keyColumnIndexes == [1])
        #expect(parsed.exportMode == .full)
        #expect(parsed.rowCount == 4)
        #expect(parsed.dataOffset == Self.standardHeader.count)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func dataOffsetPointsAtTheFirstDataRow() throws {
        let data = epf([Self.dataRow, ["#recordsWritten:1"]])
        let bytes =
            epf([Self.columnRow, Self.legalRow, Self.keyRow, Self.legalRow, Self.typesRow, Self.modeRow])
            + data
        let parsed = try parsedHeader(bytes)
        #expect(Array(bytes[parsed.dataOffset...]) == data)
        #expect(Array(bytes[parsed.dataOffset..<(parsed.dataOffset + 13)]) == Array("1452074401007".utf8))
    }

    @Test func compoundPrimaryKey() throws {
        let bytes = epf([
            ["#export_date", "application_id", "storefront_id", "retail_price"],
            ["#primaryKey:application_id", "storefront_id"],
            ["#dbTypes:BIGINT", "INTEGER", "INTEGER", "DECIMAL(9,3)"],
            ["#exportMode:INCREMENTAL"],
        ])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.primaryKey == ["application_id", "storefront_id"])
        #expect(parsed.declaredPrimaryKey == ["application_id", "storefront_id"])
        #expect(parsed.keyColumnIndexes == [1, 2])
        #expect(parsed.exportMode == .incremental)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func emptyPrimaryKeyMeansNoKey() throws {
        let bytes = epf([Self.columnRow, ["#primaryKey:"], Self.typesRow, Self.modeRow])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.primaryKey.isEmpty)
        #expect(parsed.declaredPrimaryKey.isEmpty)
        #expect(parsed.keyColumnIndexes.isEmpty)
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.rowCount == 4)
    }

    @Test func missingPrimaryKeyRowIsWarned() throws {
        let bytes = epf([Self.columnRow, Self.typesRow, Self.modeRow])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.primaryKey.isEmpty)
        #expect(parsed.declaredPrimaryKey.isEmpty)
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.contains("#primaryKey") == true)
    }

    @Test func declaredKeyColumnMissingFromColumnsIsDroppedWithAWarning() throws {
        // As on `genre` in one release: the key names a column the table lacks.
        let bytes = epf([
            ["#export_date", "genre_id", "name"],
            ["#primaryKey:genre_id", "parent_genre_id"],
            ["#dbTypes:BIGINT", "INTEGER", "VARCHAR(200)"],
            ["#exportMode:FULL"],
        ])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.primaryKey == ["genre_id"])
        #expect(parsed.declaredPrimaryKey == ["genre_id", "parent_genre_id"])
        #expect(parsed.keyColumnIndexes == [1])
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.contains("parent_genre_id") == true)
    }

    @Test func keyWhollyMissingFromColumnsLeavesNoKey() throws {
        let bytes = epf([
            ["#export_date", "name"], ["#primaryKey:genre_id"], ["#dbTypes:BIGINT", "VARCHAR(200)"],
            ["#exportMode:FULL"],
        ])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.primaryKey.isEmpty)
        #expect(parsed.declaredPrimaryKey == ["genre_id"])
        #expect(parsed.warnings.contains { $0.contains("genre_id") })
    }

    // MARK: #dbTypes

    @Test func typeCountMismatchNamesTheTypesRow() throws {
        let head = epf([Self.columnRow, Self.legalRow, Self.keyRow])
        let bytes = head + epf([["#dbTypes:BIGINT", "INTEGER", "VARCHAR(1000)"], Self.modeRow])
        let error = try #require(headerError(bytes))
        #expect(error.kind == .typeCountMismatch)
        #expect(error.headerRow == 4)
        #expect(error.byteOffset == Int64(head.count))
        #expect(error.record == nil)
    }

    @Test func tooManyTypesIsAMismatchToo() throws {
        let bytes = epf([Self.columnRow, Self.typesRow + ["INTEGER"], Self.modeRow])
        let error = try #require(headerError(bytes))
        #expect(error.kind == .typeCountMismatch)
        #expect(error.headerRow == 2)
        #expect(error.byteOffset == Int64(epf([Self.columnRow]).count))
    }

    @Test func unknownTypeIsWarnedAndKeptAsUnknown() throws {
        let bytes = epf([
            Self.columnRow, Self.keyRow, ["#dbTypes:BIGINT", "INTEGER", "GEOMETRY", "DECIMAL(9,3)"], Self.modeRow,
        ])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.types[2] == ColumnType(declared: "GEOMETRY"))
        #expect(parsed.types[2].kind == .unknown)
        #expect(parsed.warnings.count == 1)
        let warning = try #require(parsed.warnings.first)
        #expect(warning.contains("title"))
        #expect(warning.contains("GEOMETRY"))
    }

    @Test func missingTypesRowIsABadHeader() throws {
        let error = try #require(headerError(epf([Self.columnRow, Self.keyRow, Self.modeRow])))
        #expect(error.kind == .badHeader)
    }

    // MARK: #exportMode

    @Test(arguments: [("FULL", ExportMode.full), ("INCREMENTAL", .incremental)])
    func exportMode(value: String, expected: ExportMode) throws {
        let bytes = epf([Self.columnRow, Self.keyRow, Self.typesRow, ["#exportMode:\(value)"]])
        #expect(try parsedHeader(bytes).exportMode == expected)
    }

    @Test func bogusExportModeIsRejectedAtItsRow() throws {
        let head = epf([Self.columnRow, Self.keyRow, Self.typesRow])
        let error = try #require(headerError(head + epf([["#exportMode:SOMETIMES"]])))
        #expect(error.kind == .unknownExportMode)
        #expect(error.headerRow == 4)
        #expect(error.byteOffset == Int64(head.count))
        #expect(error.detail.contains("SOMETIMES"))
    }

    @Test func missingExportModeIsABadHeader() throws {
        let error = try #require(headerError(epf([Self.columnRow, Self.keyRow, Self.typesRow])))
        #expect(error.kind == .badHeader)
    }

    // MARK: Order and licence rows

    static let tagOrders: [[Int]] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

    @Test(arguments: tagOrders)
    func taggedRowsInAnyOrder(order: [Int]) throws {
        let tags = [
            ["#primaryKey:application_id", "title"], Self.typesRow, ["#exportMode:INCREMENTAL"],
        ]
        let head = epf([Self.columnRow] + order.map { tags[$0] })
        let parsed = try parsedHeader(head + epf([Self.dataRow]))
        #expect(parsed.columns == ["export_date", "application_id", "title", "price"])
        #expect(parsed.types.map(\.kind) == [.integer, .integer, .text, .decimal])
        #expect(parsed.primaryKey == ["application_id", "title"])
        #expect(parsed.exportMode == .incremental)
        #expect(parsed.dataOffset == head.count)
        #expect(parsed.rowCount == 4)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func legalRowsBetweenTaggedRowsAreSkipped() throws {
        let head = epf([
            Self.columnRow, Self.legalRow, Self.keyRow, Self.legalRow, Self.legalRow, Self.typesRow,
            ["##legal: a licence line holding #dbTypes:INTEGER and #exportMode:BOGUS"], Self.modeRow,
            Self.legalRow,
        ])
        let parsed = try parsedHeader(head + epf([Self.dataRow, ["#recordsWritten:1"]]))
        #expect(parsed.columns.count == 4)
        #expect(parsed.types.map(\.declared) == ["BIGINT", "INTEGER", "VARCHAR(1000)", "DECIMAL(9,3)"])
        #expect(parsed.primaryKey == ["application_id"])
        #expect(parsed.exportMode == .full)
        #expect(parsed.rowCount == 9)
        #expect(parsed.dataOffset == head.count)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func headerFollowedDirectlyByTheFooterIsAnEmptyTable() throws {
        let head = Self.standardHeader
        let bytes = head + epf([["#recordsWritten:0"]])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.columns.count == 4)
        #expect(parsed.exportMode == .full)
        // The footer is the first row after the header: the record parser reads it.
        #expect(parsed.dataOffset == head.count)
        // Column row and three tags; the footer is not a header row.
        #expect(parsed.rowCount == 4)

        let records = parseRecords(parsed, bytes, from: parsed.dataOffset)
        #expect(records.records.isEmpty)
        #expect(records.footer == 0)
        #expect(records.footerOffset == head.count)
        #expect(records.fault == nil)
        #expect(records.next == bytes.count)
    }

    @Test func unknownTagIsWarnedAndSkipped() throws {
        let bytes = epf([Self.columnRow, Self.keyRow, ["#compression:none"], Self.typesRow, Self.modeRow])
        let parsed = try parsedHeader(bytes)
        #expect(parsed.exportMode == .full)
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.contains("compression") == true)
    }

    // MARK: Not a header

    @Test func emptyInputIsAnEmptyFile() throws {
        let error = try #require(headerError([]))
        #expect(error.kind == .emptyFile)
        #expect(error.byteOffset == 0)
        #expect(needsMoreBytes([]))
    }

    @Test func inputNotStartingWithHashHasNoHeader() throws {
        let bytes = epf([Self.dataRow, ["#recordsWritten:1"]])
        let error = try #require(headerError(bytes))
        #expect(error.kind == .missingHeader)
        #expect(error.headerRow == 1)
        #expect(error.byteOffset == 0)
    }

    @Test func randomBinaryBytesAreNotEPF() throws {
        var generator = SeededGenerator(seed: 0xEFF)
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if bytes[0] == UInt8(ascii: "#") { bytes[0] = 0 }
        let error = try #require(headerError(bytes))
        #expect(error.kind == .notEPF)
        #expect(error.byteOffset == 0)
    }

    @Test func hashThenBinaryWithoutARowEndIsNotEPF() throws {
        var generator = SeededGenerator(seed: 7)
        let noise = (0..<2048).map { _ in UInt8.random(in: 0...255, using: &generator) }.filter { $0 != 0x02 }
        let error = try #require(headerError([UInt8(ascii: "#")] + noise))
        #expect(error.kind == .notEPF)
    }

    @Test func unterminatedTextHeaderIsMissing() throws {
        let error = try #require(headerError(Array("#export_date\u{1}application_id".utf8)))
        #expect(error.kind == .missingHeader)
    }

    @Test func duplicateColumnNameIsABadHeader() throws {
        let bytes = epf([["#a", "b", "a"], ["#dbTypes:INTEGER", "INTEGER", "INTEGER"], Self.modeRow])
        let error = try #require(headerError(bytes))
        #expect(error.kind == .badHeader)
        #expect(error.headerRow == 1)
    }

    // MARK: Prefixes

    @Test func everyCutOfTheHeaderAsksForMoreBytes() {
        let full = epf([Self.columnRow, Self.keyRow, Self.legalRow, Self.typesRow, Self.modeRow])
        for length in 0...full.count {
            #expect(needsMoreBytes(Array(full[..<length])), "prefix of \(length) bytes")
        }
    }

    @Test func prefixReachingTheFirstDataRowIsEnough() throws {
        let head = Self.standardHeader
        // One byte of the first data row shows the header is over.
        let parsed = try parsedHeader(head + [UInt8(ascii: "1")], isComplete: false)
        #expect(parsed.dataOffset == head.count)
        #expect(parsed.columns.count == 4)
    }

    @Test func completeInputWithOnlyAHeaderIsAHeader() throws {
        let parsed = try parsedHeader(Self.standardHeader, isComplete: true)
        #expect(parsed.dataOffset == Self.standardHeader.count)
    }
}
