import EPFFormat
import EPFTestSupport
import Testing

/// One value as a sink received it.
enum SunkValue: Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case boolean(Bool)
    case decimal(Double, text: String)
    case date(String)
    case text([UInt8])
    case unfit([UInt8], ColumnType.Kind)

    static func text(_ string: String) -> SunkValue { .text(Array(string.utf8)) }
    static func unfit(_ string: String, _ kind: ColumnType.Kind) -> SunkValue { .unfit(Array(string.utf8), kind) }

    var description: String {
        switch self {
        case .null: return "null"
        case .integer(let value): return "integer(\(value))"
        case .boolean(let value): return "boolean(\(value))"
        case .decimal(let value, let text): return "decimal(\(value), \(text))"
        case .date(let text): return "date(\(text))"
        case .text(let bytes): return "text(\(String(decoding: bytes, as: UTF8.self)) \(bytes))"
        case .unfit(let bytes, let kind): return "unfit(\(bytes), \(kind))"
        }
    }
}

/// A sink that records every value with its column, copying the bytes.
protocol RecordingSink: FieldSink {
    init()
    var values: [(column: Int, value: SunkValue)] { get set }
    /// Whether the store can hold `value`.
    func accepts(_ value: SunkValue) -> Bool
}

extension RecordingSink {
    mutating func offer(_ value: SunkValue, _ column: Int) -> Bool {
        guard accepts(value) else { return false }
        values.append((column, value))
        return true
    }

    mutating func null(column: Int) { values.append((column, .null)) }
    mutating func integer(_ value: Int64, column: Int) -> Bool { offer(.integer(value), column) }
    mutating func boolean(_ value: Bool, column: Int) -> Bool { offer(.boolean(value), column) }
    mutating func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        offer(.decimal(value, text: String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)), column)
    }
    mutating func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        offer(.date(String(decoding: UnsafeBufferPointer(start: iso, count: count), as: UTF8.self)), column)
    }
    mutating func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) {
        values.append((column, .text(Array(UnsafeBufferPointer(start: bytes, count: count)))))
    }
    mutating func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
        values.append((column, .unfit(Array(UnsafeBufferPointer(start: bytes, count: count)), kind)))
    }
}

/// Stores every value it gets, keeps empty keys as text and unfit values as
/// (repaired) text: the SQLite store's rules.
struct KeepingSink: RecordingSink {
    var values: [(column: Int, value: SunkValue)] = []
    static func keepsEmptyKey(of type: ColumnType) -> Bool { true }
    static var storesUnfitAsText: Bool { true }
    func accepts(_ value: SunkValue) -> Bool { true }
}

/// Keeps empty keys as text only in text columns, takes unfit values raw,
/// and refuses dates with a time of day and negative integers: a store with
/// typed columns, like PostgreSQL's.
struct RefusingSink: RecordingSink {
    var values: [(column: Int, value: SunkValue)] = []
    static func keepsEmptyKey(of type: ColumnType) -> Bool {
        type.kind == .text || type.kind == .freeText || type.kind == .unknown
    }
    static var storesUnfitAsText: Bool { false }
    func accepts(_ value: SunkValue) -> Bool {
        switch value {
        case .date(let text): return text.utf8.count == 10
        case .integer(let number): return number >= 0
        default: return true
        }
    }
}

/// What decoding each record of a table gave.
struct Decoded<Sink: RecordingSink> {
    var values: [[SunkValue]] = []
    var tallies: [RecordTally] = []
    var error: FormatError?
}

/// Parses `rows` (raw fields) for a header of `columns`, then decodes every
/// record into a fresh `Sink`, checking that each column got exactly one
/// value, in order. The chunk is taken to start at file offset
/// `chunkOffset`; records are numbered from `firstRecord`.
func decode<Sink: RecordingSink>(
    _ columns: [(String, String)], key: [String] = [], rows: [[[UInt8]]], strict: Bool = false, into sink: Sink.Type,
    chunkOffset: Int64 = 0, firstRecord: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
) -> Decoded<Sink> {
    let header = makeHeader(columns, key: key)
    let bytes = rows.flatMap(rawRow)
    let parser = RecordParser(header: header)
    let batch = RecordBatch(columnCount: columns.count, capacity: 64)
    let decoder = RecordDecoder(header: header, strict: strict, file: "feed/table", sink: Sink.self)
    var result = Decoded<Sink>()
    bytes.withUnsafeBytes { buffer in
        _ = parser.parse(buffer, from: 0, isFinal: true, recordsBefore: 0, into: batch)
        #expect(batch.fault == nil, sourceLocation: sourceLocation)
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for record in 0..<batch.count {
            var sink = Sink()
            do throws(FormatError) {
                let tally = try decoder.decode(
                    record, of: batch, base: base, number: firstRecord + record, chunkOffset: chunkOffset, into: &sink)
                result.tallies.append(tally)
            } catch {
                result.error = error
                return
            }
            #expect(sink.values.map(\.column) == Array(0..<columns.count), sourceLocation: sourceLocation)
            result.values.append(sink.values.map(\.value))
        }
    }
    return result
}

func fields(_ strings: String...) -> [[UInt8]] { strings.map { Array($0.utf8) } }

@Suite("Record decoder")
struct RecordDecoderTests {
    static let typed: [(String, String)] = [
        ("id", "BIGINT"), ("flag", "BOOLEAN"), ("price", "DECIMAL(9,3)"), ("released", "DATETIME"), ("name", "VARCHAR(100)"),
        ("notes", "LONGTEXT"), ("other", "GEOMETRY"),
    ]

    @Test("Each kind decoded into its typed value; text as written")
    func eachKind() {
        let decoded = decode(
            Self.typed,
            rows: [
                fields("+7", "TRUE", "2.990", "2012 03 06 10 00 00", "Deep Creek", "line\none", "POINT(1 2)"),
                fields("-9223372036854775808", "0", "1.5e3", "2005-09-06-00:00:00-Etc/GMT", "日本語", "x", "y"),
                fields("12", "false", ".5", "2012 03 06", "a", "b", "c"),
            ],
            into: KeepingSink.self)
        #expect(decoded.error == nil)
        #expect(
            decoded.values == [
                [
                    .integer(7), .boolean(true), .decimal(2.99, text: "2.990"), .date("2012-03-06 10:00:00"), .text("Deep Creek"),
                    .text("line\none"), .text("POINT(1 2)"),
                ],
                [
                    .integer(.min), .boolean(false), .decimal(1500, text: "1.5e3"), .date("2005-09-06 00:00:00"), .text("日本語"),
                    .text("x"), .text("y"),
                ],
                [.integer(12), .boolean(false), .decimal(0.5, text: ".5"), .date("2012-03-06"), .text("a"), .text("b"), .text("c")],
            ])
        #expect(decoded.tallies == Array(repeating: RecordTally(), count: 3))
    }

    @Test("A field that is not a value of its kind is unfit, counted by kind")
    func misfits() {
        let decoded = decode(
            Self.typed,
            rows: [
                fields("12.5", "yes", "n/a", "1999", "a", "b", "c"),
                fields("99999999999999999999", "2", "1.2.3", "2012 02 31", "a", "b", "c"),
                fields("1", "1", "1", "2012 03 06", "a", "b", "c"),
            ],
            into: KeepingSink.self)
        #expect(
            decoded.values[0] == [
                .unfit("12.5", .integer), .unfit("yes", .boolean), .unfit("n/a", .decimal), .unfit("1999", .date), .text("a"),
                .text("b"), .text("c"),
            ])
        #expect(decoded.values[1][0] == .unfit("99999999999999999999", .integer))
        #expect(decoded.values[1][3] == .unfit("2012 02 31", .date))
        let misfit = RecordTally(nonNumericIntegers: 1, nonNumericDecimals: 1, nonBooleanValues: 1, unparsedDates: 1)
        #expect(decoded.tallies == [misfit, misfit, RecordTally()])
        #expect(decoded.tallies[0].misfits == 4)
    }

    @Test("An empty field is NULL, except in a key column whose sink keeps it as empty text")
    func emptyFields() {
        let columns: [(String, String)] = [("code", "VARCHAR(10)"), ("id", "BIGINT"), ("day", "DATE"), ("name", "VARCHAR(10)")]
        let row = [fields("", "", "", "")]
        // SQLite's rule: every key column keeps the empty text.
        let keeping = decode(columns, key: ["code", "id", "day"], rows: row, into: KeepingSink.self)
        #expect(keeping.values == [[.text(""), .text(""), .text(""), .null]])
        // A typed store's rule: only text key columns do.
        let refusing = decode(columns, key: ["code", "id", "day"], rows: row, into: RefusingSink.self)
        #expect(refusing.values == [[.text(""), .null, .null, .null]])
        // No key: all NULL.
        #expect(decode(columns, rows: row, into: KeepingSink.self).values == [[.null, .null, .null, .null]])
        #expect(keeping.tallies == [RecordTally()])
    }

    @Test("A value the sink refuses is unfit and counted like one that did not decode")
    func refusedValues() {
        let decoded = decode(
            [("a", "DATETIME"), ("b", "DATETIME"), ("n", "INTEGER"), ("m", "INTEGER")],
            rows: [fields("2012 03 06 10 00 00", "2012 03 06", "-1", "1")],
            into: RefusingSink.self)
        #expect(decoded.values == [[.unfit("2012 03 06 10 00 00", .date), .date("2012-03-06"), .unfit("-1", .integer), .integer(1)]])
        #expect(decoded.tallies == [RecordTally(nonNumericIntegers: 1, unparsedDates: 1)])
    }

    @Test("Text of a flagged record is repaired, its repairs counted; clean records untouched")
    func repairs() {
        let decoded = decode(
            [("id", "BIGINT"), ("name", "VARCHAR(10)"), ("notes", "LONGTEXT")],
            rows: [
                [Array("1".utf8), [0x61, 0x80, 0x62], [0x63, 0x00, 0x64, 0xE6, 0x97]],
                fields("2", "clean", "text"),
                [Array("3".utf8), [0x00, 0x00], Array("ok".utf8)],
            ],
            into: KeepingSink.self)
        #expect(
            decoded.values == [
                [.integer(1), .text([0x61, 0xEF, 0xBF, 0xBD, 0x62]), .text([0x63, 0x64, 0xEF, 0xBF, 0xBD])],
                [.integer(2), .text("clean"), .text("text")],
                [.integer(3), .text(""), .text("ok")],
            ])
        #expect(
            decoded.tallies == [
                RecordTally(flags: .needsTextRepair, invalidSequences: 2, nulBytes: 1),
                RecordTally(),
                RecordTally(flags: .needsTextRepair, nulBytes: 2),
            ])
    }

    @Test("An unfit value in a flagged record: repaired and counted for a sink that stores it as text, raw otherwise")
    func unfitInRepairedRecord() {
        let row: [[[UInt8]]] = [[[0x31, 0x80], [0x00, 0x78]]]
        let columns: [(String, String)] = [("n", "INTEGER"), ("name", "VARCHAR(10)")]
        let keeping = decode(columns, rows: row, into: KeepingSink.self)
        #expect(keeping.values == [[.unfit([0x31, 0xEF, 0xBF, 0xBD], .integer), .text("x")]])
        #expect(keeping.tallies == [RecordTally(flags: .needsTextRepair, invalidSequences: 1, nulBytes: 1, nonNumericIntegers: 1)])
        let refusing = decode(columns, rows: row, into: RefusingSink.self)
        #expect(refusing.values == [[.unfit([0x31, 0x80], .integer), .text("x")]])
        #expect(refusing.tallies == [RecordTally(flags: .needsTextRepair, nulBytes: 1, nonNumericIntegers: 1)])
    }

    @Test("A rejoined row's flags reach the tally")
    func rejoinedFlags() {
        let decoded = decode(
            [("id", "BIGINT"), ("description", "LONGTEXT")], rows: [fields("1", "a", "b")], into: KeepingSink.self)
        #expect(decoded.values == [[.integer(1), .text("a\u{1}b")]])
        #expect(decoded.tallies.first?.flags.contains(.rejoined) == true)
    }

    @Test("--strict refuses a record that needs repair: file, record number, byte offset; clean records pass")
    func strictRefusal() {
        let rows: [[[UInt8]]] = [fields("1", "clean"), [Array("2".utf8), [0x61, 0x80]]]
        let decoded = decode(
            [("id", "BIGINT"), ("name", "VARCHAR(10)")], rows: rows, strict: true, into: KeepingSink.self, chunkOffset: 1_000,
            firstRecord: 41)
        #expect(decoded.values == [[.integer(1), .text("clean")]])
        let error = decoded.error
        // The second record starts after "1\u{1}clean\u{2}\n" (9 bytes).
        #expect(error == FormatError.strict(invalidSequences: 1, nulBytes: 0, file: "feed/table", record: 42, offset: 1_009))
        #expect(error?.kind == .invalidUTF8)
        #expect(
            error?.description == """
                feed/table: record 42: byte 1009: the row holds 1 invalid UTF-8 sequence(s), refused because of --strict. \
                Run without --strict to store U+FFFD in their place (counted and reported)
                """)
        let nul = decode(
            [("id", "BIGINT"), ("name", "VARCHAR(10)")], rows: [[Array("1".utf8), [0x61, 0x00]]], strict: true,
            into: KeepingSink.self)
        #expect(nul.error?.kind == .nulBytes)
        #expect(
            nul.error?.description.hasPrefix("feed/table: record 1: byte 0: the row holds 1 NUL byte(s), refused because of --strict")
                == true)
        // Without --strict the same rows are repaired and counted.
        let lenient = decode([("id", "BIGINT"), ("name", "VARCHAR(10)")], rows: rows, into: KeepingSink.self)
        #expect(lenient.error == nil && lenient.tallies.last?.invalidSequences == 1)
    }

    @Test("--strict also refuses invalid bytes in an unfit value a sink stores as text, not in one it takes raw")
    func strictUnfit() {
        let rows: [[[UInt8]]] = [[[0x31, 0x80], Array("x".utf8)]]
        let columns: [(String, String)] = [("n", "INTEGER"), ("name", "VARCHAR(10)")]
        #expect(decode(columns, rows: rows, strict: true, into: KeepingSink.self).error?.kind == .invalidUTF8)
        #expect(decode(columns, rows: rows, strict: true, into: RefusingSink.self).error == nil)
    }

    @Test("Pointers a sink keeps stay valid until the record ends, even when the scratch grows")
    func pointersStayPut() {
        /// Keeps the pointers, as SQLite's bindStatic does, and reads them
        /// only after the record.
        struct PointerSink: FieldSink {
            var kept: [(UnsafePointer<UInt8>, Int)] = []
            static func keepsEmptyKey(of type: ColumnType) -> Bool { true }
            static var storesUnfitAsText: Bool { true }
            mutating func null(column: Int) { kept.append((UnsafePointer(bitPattern: 1)!, 0)) }
            mutating func integer(_ value: Int64, column: Int) -> Bool { null(column: column); return true }
            mutating func boolean(_ value: Bool, column: Int) -> Bool { null(column: column); return true }
            mutating func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
                kept.append((text, count))
                return true
            }
            mutating func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
                kept.append((iso, count))
                return true
            }
            mutating func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) { kept.append((bytes, count)) }
            mutating func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
                kept.append((bytes, count))
            }
            var strings: [String] { kept.map { String(decoding: UnsafeBufferPointer(start: $0.0, count: $0.1), as: UTF8.self) } }
        }
        let columns: [(String, String)] = [("a", "DATE"), ("t", "LONGTEXT"), ("b", "DATE"), ("u", "LONGTEXT"), ("n", "INTEGER")]
        let long = Array(repeating: UInt8(ascii: "z"), count: 10_000)
        let rows: [[[UInt8]]] = [
            [Array("2012 03 06".utf8), [0x80] + Array("small".utf8), Array("2013 04 07".utf8), Array("x".utf8), Array("bad".utf8)],
            [Array("2014 05 08".utf8), [0x80] + long, Array("2015 06 09".utf8), long + [0x00], Array("7 ".utf8)],
        ]
        let header = makeHeader(columns)
        let bytes = rows.flatMap(rawRow)
        let decoder = RecordDecoder(header: header, strict: false, file: "f", sink: PointerSink.self)
        let batch = RecordBatch(columnCount: columns.count)
        var seen: [[String]] = []
        bytes.withUnsafeBytes { buffer in
            _ = RecordParser(header: header).parse(buffer, from: 0, isFinal: true, recordsBefore: 0, into: batch)
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for record in 0..<batch.count {
                var sink = PointerSink()
                _ = try? decoder.decode(record, of: batch, base: base, number: record + 1, chunkOffset: 0, into: &sink)
                seen.append(sink.strings)
            }
        }
        let longText = String(decoding: long, as: UTF8.self)
        #expect(
            seen == [
                ["2012-03-06", "\u{FFFD}small", "2013-04-07", "x", "bad"],
                ["2014-05-08", "\u{FFFD}" + longText, "2015-06-09", longText, "7 "],
            ])
    }
}
