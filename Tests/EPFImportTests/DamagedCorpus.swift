import EPFCatalog
import EPFFormat
import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// What a damaged file must give, through `epf verify` and `epf import` alike.
enum CorpusExpectation: Sendable, CustomStringConvertible {
    /// Refused. `place` is the error's text after `<path>: ` up to the
    /// detail (`record 10: byte 1234`), nil when any place will do (the
    /// error must still name the file and a byte); `wording` is part of
    /// the detail.
    case refused(place: String?, wording: String)
    /// Accepted, with these counts (nil: not checked).
    case accepted(VerifyReport.Status, CountsExpected)
    /// Flipped bytes at random places: refused with a well-formed error, or
    /// accepted; whichever, verify and import must agree.
    case either

    var description: String {
        switch self {
        case .refused(let place, let wording): return "refused at \(place ?? "any place"): \(wording)"
        case .accepted(let status, let counts): return "\(status) \(counts)"
        case .either: return "refused or accepted"
        }
    }
}

/// Counts an accepted file must show; nil fields are not checked.
struct CountsExpected: Sendable, CustomStringConvertible {
    var rows: Int?
    var repaired: Int?
    var skipped: Int?
    var rejoined: Int?
    var invalidUTF8Rows: Int?
    var nulBytes: Int?
    var keptAsText: Int?
    var commentRows: Int?

    func mismatches(_ report: VerifyReport) -> [String] {
        var problems: [String] = []
        func check(_ name: String, _ expected: Int?, _ actual: Int) {
            if let expected, expected != actual { problems.append("\(name): expected \(expected), got \(actual)") }
        }
        check("rows", rows, report.rows)
        check("repaired", repaired, report.repaired)
        check("skipped", skipped, report.skipped)
        check("rejoined", rejoined, report.counts.rejoinedRows)
        check("invalidUTF8Rows", invalidUTF8Rows, report.counts.invalidUTF8Rows)
        check("nulBytes", nulBytes, report.counts.nulBytes)
        check("keptAsText", keptAsText, report.keptAsText)
        check("commentRows", commentRows, report.counts.commentRows)
        return problems
    }

    var description: String {
        let fields: [(String, Int?)] = [
            ("rows", rows), ("repaired", repaired), ("skipped", skipped), ("rejoined", rejoined),
            ("invalidUTF8Rows", invalidUTF8Rows), ("nulBytes", nulBytes), ("keptAsText", keptAsText), ("commentRows", commentRows),
        ]
        return fields.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: " ")
    }
}

/// One damaged table file of the corpus.
struct CorpusCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// The file name it is written as (`application`, `application.gz`).
    var fileName: String
    /// The feed folder it is written into (`itunes20261103`).
    var feedFolder = "itunes20261103"
    var bytes: [UInt8]
    var expected: CorpusExpectation
    /// Gzip the bytes (the streaming path) before writing them.
    var gzip = false

    var testDescription: String { name }
}

/// Generates the damaged-input corpus from the sample feeds, at test time:
/// truncations at every structural point, flipped bytes, swapped
/// separators, repeated keys, NUL bytes, 10 MB fields, too many columns,
/// Windows row ends, and the header damage the format allows.
enum DamagedCorpus {
    static let application = (try? fileBytes(SampleFeeds.url("itunes20261101").appendingPathComponent("application"))) ?? []
    static let incremental = (try? fileBytes(SampleFeeds.url("itunes20261102").appendingPathComponent("application"))) ?? []
    static let storefront = (try? fileBytes(SampleFeeds.url("itunes20261101").appendingPathComponent("storefront"))) ?? []
    static let price = (try? fileBytes(SampleFeeds.url("pricing20261101").appendingPathComponent("application_price"))) ?? []

    static let all: [CorpusCase] =
        truncations() + flips() + swaps() + repeatedKeys() + nulBytes() + hugeFields() + wideHeaders()
        + windowsRowEnds() + headerDamage() + otherRows() + compressed()

    /// The rows of a file and where they start; `row(i)` without its end.
    struct Layout {
        let bytes: [UInt8]
        let file: LocatedRows
        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            file = LocatedRows(bytes)
        }
        var headerRows: Int { file.dataRowIndexes.first ?? file.rows.count - 1 }
        var footerIndex: Int { file.rows.count - 1 }
        var footerOffset: Int { file.offsets[footerIndex] }
        var records: Int { file.dataRowIndexes.count }
        func start(_ record: Int) -> Int { file.start(ofRecord: record) }
        /// Offsets of the 0x01 bytes of record `record`.
        func separators(_ record: Int) -> [Int] {
            let start = start(record)
            return file.rows[file.rowIndex(ofRecord: record)].indices.filter { file.rows[file.rowIndex(ofRecord: record)][$0] == 0x01 }
                .map { start + $0 }
        }
        /// Offset of the 0x02 that ends row `index`.
        func rowEnd(_ index: Int) -> Int { file.offsets[index] + file.rows[index].count }
        func cut(_ at: Int) -> [UInt8] { Array(bytes[..<at]) }
        func replacing(_ range: Range<Int>, with new: [UInt8]) -> [UInt8] {
            Array(bytes[..<range.lowerBound]) + new + Array(bytes[range.upperBound...])
        }
        func withFooter(_ count: Int) -> [UInt8] {
            file.replacingRow(footerIndex, with: Array("#recordsWritten:\(count)".utf8))
        }
        /// The bytes with `rows` (each without its end) inserted before the footer.
        func inserting(rows: [[UInt8]], footer: Int) -> [UInt8] {
            let withFooter = withFooter(footer)
            return Array(withFooter[..<footerOffset]) + rows.flatMap { $0 + [0x02, 0x0A] } + Array(withFooter[footerOffset...])
        }
        func record(_ number: Int) -> [UInt8] { file.rows[file.rowIndex(ofRecord: number)] }
    }

    static func refusedTruncated(_ record: Int, at start: Int, tail: Int) -> CorpusExpectation {
        .refused(
            place: "record \(record): byte \(start)",
            wording: "the file ends inside a row (\(tail) bytes after the last 0x02 0x0A, no row end)")
    }

    // MARK: Truncations

    static func truncations() -> [CorpusCase] {
        let layout = Layout(application)
        var cases: [CorpusCase] = []
        func add(_ name: String, _ at: Int, _ expected: CorpusExpectation) {
            cases.append(CorpusCase(name: "cut \(name) (byte \(at))", fileName: "application", bytes: layout.cut(at), expected: expected))
        }
        // In the header rows: at each row's start (+1), middle, before 0x02,
        // between 0x02 and 0x0A.
        for index in 0..<layout.headerRows {
            let start = layout.file.offsets[index]
            let end = layout.rowEnd(index)
            for (label, at) in [("start", start + 1), ("middle", (start + end) / 2), ("before 0x02", end), ("inside 0x02 0x0A", end + 1)] {
                add("header row \(index + 1) \(label)", at, .refused(place: nil, wording: ""))
            }
        }
        // At the end of the header (after the last ##legal row): a header
        // and nothing else.
        add(
            "after the header", layout.start(1),
            .refused(place: "byte \(layout.start(1))", wording: "the file ends after its header with no rows and no #recordsWritten footer")
        )
        // In data records: every field edge of record 1, the structure of records 13 and 25.
        for record in [1, 13, 25] {
            let start = layout.start(record)
            let separators = layout.separators(record)
            let picked = record == 1 ? separators : [separators[0], separators[separators.count / 2], separators.last!]
            for separator in picked {
                add("record \(record) right before 0x01", separator, refusedTruncated(record, at: start, tail: separator - start))
                add("record \(record) right after 0x01", separator + 1, refusedTruncated(record, at: start, tail: separator + 1 - start))
            }
            add("record \(record) mid-field", separators[1] + 4, refusedTruncated(record, at: start, tail: separators[1] + 4 - start))
            add("record \(record) first byte", start + 1, refusedTruncated(record, at: start, tail: 1))
            let end = layout.rowEnd(layout.file.rowIndex(ofRecord: record))
            add("record \(record) before 0x02", end, refusedTruncated(record, at: start, tail: end - start))
            add("record \(record) between 0x02 and 0x0A", end + 1, refusedTruncated(record, at: start, tail: end + 1 - start))
            add(
                "after record \(record)", end + 2,
                .refused(
                    place: "record \(record): byte \(end + 2)",
                    wording: "the file ends after record \(record) with no #recordsWritten footer"))
        }
        // The footer.
        let footer = layout.footerOffset
        let footerEnd = layout.rowEnd(layout.footerIndex)
        for (label, at) in [
            ("footer '#r'", footer + 2), ("mid-footer", footer + 9), ("footer before its count", footer + 16),
            ("footer mid-count", footer + 17), ("footer before 0x02", footerEnd), ("footer between 0x02 and 0x0A", footerEnd + 1),
        ] {
            add(
                label, at,
                .refused(
                    place: "byte \(footer)",
                    wording: "the file ends inside its #recordsWritten footer row (\(at - footer) bytes, no 0x02 0x0A row end)"))
        }
        cases.append(
            CorpusCase(
                name: "uncut", fileName: "application", bytes: application,
                expected: .accepted(.repairable, CountsExpected(rows: 25, repaired: 1, rejoined: 1))))
        // A small file cut at every structural byte (right before and right
        // after each 0x01, 0x02 and 0x0A) and every 8th byte between them:
        // refused everywhere but at its full length.
        let structural: Set<UInt8> = [0x01, 0x02, 0x0A]
        for at in 0..<storefront.count
        where at % 8 == 0 || structural.contains(storefront[at]) || (at > 0 && structural.contains(storefront[at - 1])) {
            cases.append(
                CorpusCase(
                    name: "storefront cut at byte \(at)", fileName: "storefront", bytes: Array(storefront[..<at]),
                    expected: at == 0
                        ? .refused(place: "byte 0", wording: "the file is empty (0 bytes)") : .refused(place: nil, wording: "")))
        }
        return cases
    }

    // MARK: Flipped bytes

    static func flips() -> [CorpusCase] {
        let layout = Layout(application)
        var cases: [CorpusCase] = []
        func flip(_ name: String, at: Int, to value: UInt8, _ expected: CorpusExpectation) {
            var bytes = application
            bytes[at] = value
            cases.append(CorpusCase(name: "flip \(name) (byte \(at))", fileName: "application", bytes: bytes, expected: expected))
        }
        let start5 = layout.start(5)
        let separators5 = layout.separators(5)
        // A 0x01 that becomes a letter: one field fewer.
        for separator in [separators5[0], separators5[8], separators5.last!] {
            flip(
                "record 5 0x01 to 'A'", at: separator, to: 0x41,
                .refused(
                    place: "record 5: byte \(start5)", wording: "short row: 16 fields but the header has 17 columns"))
        }
        let end5 = layout.rowEnd(layout.file.rowIndex(ofRecord: 5))
        // A row end that is no longer one: two rows run together; the footer
        // count catches it whatever the rejoin did.
        flip("record 5 0x02 to 'B'", at: end5, to: 0x42, .refused(place: nil, wording: ""))
        flip("record 5 0x0A to ' '", at: end5 + 1, to: 0x20, .refused(place: nil, wording: ""))
        // Inside values.
        let id7 = layout.separators(7)[0] + 1
        flip(
            "record 7 application_id digit to 0xB3", at: id7, to: 0xB3,
            .accepted(.repairable, CountsExpected(rows: 25, invalidUTF8Rows: 1, keptAsText: 1)))
        flip("record 7 application_id digit to 'x'", at: id7, to: 0x78, .accepted(.repairable, CountsExpected(rows: 25, keptAsText: 1)))
        let title8 = layout.separators(8)[1] + 2
        flip("record 8 title byte to 0xFF", at: title8, to: 0xFF, .accepted(.repairable, CountsExpected(rows: 25, invalidUTF8Rows: 1)))
        flip("record 8 title byte to NUL", at: title8, to: 0x00, .accepted(.repairable, CountsExpected(rows: 25, nulBytes: 1)))
        // In the header.
        flip("first '#' to '$'", at: 0, to: 0x24, .refused(place: "header row 1: byte 0", wording: "missing header"))
        flip("first byte to NUL", at: 0, to: 0x00, .refused(place: "header row 1: byte 0", wording: "missing header"))
        let types = layout.file.rowIndex(startingWith: "#dbTypes:")!
        flip("#dbTypes: BIGINT to XIGINT", at: layout.file.offsets[types] + 9, to: 0x58, .accepted(.repairable, CountsExpected(rows: 25)))
        let mode = layout.file.rowIndex(startingWith: "#exportMode:")!
        flip(
            "#exportMode: FULL to XULL", at: layout.file.offsets[mode] + 12, to: 0x58,
            .refused(
                place: "header row \(mode + 1): byte \(layout.file.offsets[mode])", wording: "unknown #exportMode 'XULL'"))
        let footer = layout.footerOffset
        flip(
            "footer count digit to 'x'", at: footer + 16, to: 0x78,
            .refused(
                place: "record 26: byte \(footer)", wording: "the #recordsWritten footer holds no record count"))
        flip(
            "footer count 25 to 35", at: footer + 16, to: 0x33,
            .refused(
                place: "byte \(footer)", wording: "#recordsWritten says 35 records but the file holds 25"))
        // Pseudo-random places and values (SplitMix64, replayable).
        let noise = garbageBytes(count: 3 * 48, seed: 6)
        for index in 0..<48 {
            let at = (Int(noise[3 * index]) << 8 | Int(noise[3 * index + 1])) * application.count >> 16
            var value = noise[3 * index + 2]
            if value == application[at] { value ^= 0x80 }
            flip("random #\(index)", at: at, to: value, .either)
        }
        return cases
    }

    // MARK: Swapped separators

    static func swaps() -> [CorpusCase] {
        let layout = Layout(application)
        var cases: [CorpusCase] = []
        let start4 = layout.start(4)
        let separator = layout.separators(4)[3]
        let end4 = layout.rowEnd(layout.file.rowIndex(ofRecord: 4))
        cases.append(
            CorpusCase(
                name: "record 4: a 0x01 became 0x02 0x0A (row split)", fileName: "application",
                bytes: layout.replacing(separator..<(separator + 1), with: [0x02, 0x0A]),
                expected: .refused(place: "record 4: byte \(start4)", wording: "short row: 4 fields but the header has 17 columns")))
        cases.append(
            CorpusCase(
                name: "record 4: its 0x02 0x0A became 0x01 (rows joined)", fileName: "application",
                bytes: layout.replacing(end4..<(end4 + 2), with: [0x01]), expected: .refused(place: nil, wording: "")))
        cases.append(
            CorpusCase(
                name: "record 4: its row end swapped to 0x0A 0x02", fileName: "application",
                bytes: layout.replacing(end4..<(end4 + 2), with: [0x0A, 0x02]), expected: .refused(place: nil, wording: "")))
        var swapped = application
        swapped.swapAt(separator, end4)
        cases.append(
            CorpusCase(
                name: "record 4: a 0x01 and its 0x02 swapped", fileName: "application", bytes: swapped,
                expected: .refused(place: nil, wording: "")))
        // Every 0x01 of storefront record 2 turned into the row end 0x02 0x0A, one at a time.
        let small = Layout(storefront)
        for (number, at) in small.separators(2).enumerated() {
            cases.append(
                CorpusCase(
                    name: "storefront record 2: 0x01 #\(number + 1) became 0x02 0x0A", fileName: "storefront",
                    bytes: small.replacing(at..<(at + 1), with: [0x02, 0x0A]),
                    expected: .refused(place: "record 2: byte \(small.start(2))", wording: "short row")))
        }
        return cases
    }

    // MARK: Repeated keys

    static func repeatedKeys() -> [CorpusCase] {
        let layout = Layout(application)
        var cases: [CorpusCase] = []
        cases.append(
            CorpusCase(
                name: "FULL: records 1 and 2 again at the end", fileName: "application",
                bytes: layout.inserting(rows: [layout.record(1), layout.record(2)], footer: 27),
                expected: .accepted(.repairable, CountsExpected(rows: 27, skipped: 2))))
        // 0364709193 is the integer 364709193: the same key to the catalog.
        var fields = ReferenceFile.splitFields(layout.record(1))
        fields[1] = Array("0364709193".utf8)
        cases.append(
            CorpusCase(
                name: "FULL: record 1's key again, written 0364709193", fileName: "application",
                bytes: layout.inserting(rows: [Array(fields.joined(separator: [0x01]))], footer: 26),
                expected: .accepted(.repairable, CountsExpected(rows: 26, skipped: 1))))
        cases.append(
            CorpusCase(
                name: "FULL: every record twice", fileName: "application",
                bytes: layout.inserting(rows: (1...25).map(layout.record), footer: 50),
                expected: .accepted(.repairable, CountsExpected(rows: 50, skipped: 25))))
        let prices = Layout(price)
        cases.append(
            CorpusCase(
                name: "FULL compound key: application_price record 3 again", fileName: "application_price", feedFolder: "pricing20261103",
                bytes: prices.inserting(rows: [prices.record(3)], footer: prices.records + 1),
                expected: .accepted(.repairable, CountsExpected(rows: prices.records + 1, skipped: 1))))
        let daily = Layout(incremental)
        cases.append(
            CorpusCase(
                name: "INCREMENTAL: record 1 again", fileName: "application", feedFolder: "itunes20261104",
                bytes: daily.inserting(rows: [daily.record(1)], footer: daily.records + 1),
                expected: .accepted(.repairable, CountsExpected(rows: daily.records + 1, skipped: 1))))
        return cases
    }

    // MARK: NUL bytes

    static func nulBytes() -> [CorpusCase] {
        let layout = Layout(application)
        var cases: [CorpusCase] = []
        let title = layout.separators(2)[1] + 3
        cases.append(
            CorpusCase(
                name: "NUL bytes in a title", fileName: "application", bytes: layout.replacing(title..<title, with: [0, 0, 0]),
                expected: .accepted(.repairable, CountsExpected(rows: 25, repaired: 2, nulBytes: 3))))
        let id = layout.separators(3)[0] + 2
        cases.append(
            CorpusCase(
                name: "a NUL byte in a key (application_id)", fileName: "application", bytes: layout.replacing(id..<id, with: [0]),
                expected: .accepted(.repairable, CountsExpected(rows: 25, nulBytes: 1, keptAsText: 1))))
        let description = layout.separators(4)[12] + 1
        cases.append(
            CorpusCase(
                name: "a description of 4 KB of NUL bytes", fileName: "application",
                bytes: layout.replacing(description..<description, with: Array(repeating: 0, count: 4096)),
                expected: .accepted(.repairable, CountsExpected(rows: 25, nulBytes: 4096))))
        cases.append(
            CorpusCase(
                name: "a file of NUL bytes", fileName: "application", bytes: Array(repeating: 0, count: 4096),
                expected: .refused(place: "header row 1: byte 0", wording: "this is not an EPF table file")))
        return cases
    }

    // MARK: 10 MB fields

    static func hugeFields() -> [CorpusCase] {
        let layout = Layout(application)
        let description = layout.separators(3)[12] + 1
        let text = Array(String(repeating: "Ten megabytes of description, café, 象棋. ", count: 10 << 20 / 45).utf8)
        var cases: [CorpusCase] = []
        cases.append(
            CorpusCase(
                name: "a 10 MB description", fileName: "application", bytes: layout.replacing(description..<description, with: text),
                expected: .accepted(.repairable, CountsExpected(rows: 25, repaired: 1))))
        cases.append(
            CorpusCase(
                name: "a 10 MB description ending in invalid UTF-8", fileName: "application",
                bytes: layout.replacing(description..<description, with: text + [0xC3]),
                expected: .accepted(.repairable, CountsExpected(rows: 25, repaired: 2, invalidUTF8Rows: 1))))
        let title = layout.separators(3)[1] + 1
        cases.append(
            CorpusCase(
                name: "a 10 MB title, cut in the middle", fileName: "application",
                bytes: Array(layout.replacing(title..<title, with: text)[..<(title + 5 << 20)]),
                expected: refusedTruncated(3, at: layout.start(3), tail: title + 5 << 20 - layout.start(3))))
        return cases
    }

    // MARK: Headers wider than the catalog allows

    static func wide(columns: Int) -> [UInt8] {
        let names = (0..<columns).map { "c\($0)" }
        let types = ["BIGINT"] + Array(repeating: "VARCHAR(10)", count: columns - 1)
        let row = ["1"] + Array(repeating: "x", count: columns - 1)
        return tableFileBytes(columns: names, types: types, key: ["c0"], mode: "FULL", rows: [row, ["2"] + row.dropFirst()])
    }

    static func wideHeaders() -> [CorpusCase] {
        let limit = SchemaMapping.maximumColumns
        return [10_000, limit + 1].map { columns in
            CorpusCase(
                name: "a header of \(columns) columns", fileName: "wide", bytes: wide(columns: columns),
                expected: .refused(
                    place: "header row 1: byte 0",
                    wording: "the header names \(columns) columns, more than a catalog table can hold (\(limit))"))
        } + [
            CorpusCase(
                name: "a header of \(limit) columns", fileName: "wide", bytes: wide(columns: limit),
                expected: .accepted(.clean, CountsExpected(rows: 2)))
        ]
    }

    // MARK: Windows row ends

    static func windowsRowEnds() -> [CorpusCase] {
        let layout = Layout(application)
        let crlf: ([UInt8]) -> [UInt8] = { bytes in
            var out: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x02, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    out += [0x02, 0x0D, 0x0A]
                    index += 2
                } else {
                    out.append(bytes[index])
                    index += 1
                }
            }
            return out
        }
        let wording = "the row ends in 0x02 0x0D 0x0A (a Windows line end)"
        let firstData = layout.start(1)
        let end10 = layout.rowEnd(layout.file.rowIndex(ofRecord: 10))
        let types = layout.file.rowIndex(startingWith: "#dbTypes:")!
        let typesEnd = layout.rowEnd(types)
        return [
            CorpusCase(
                name: "CRLF: every row", fileName: "application", bytes: crlf(application),
                expected: .refused(place: "header row 1: byte 0", wording: wording)),
            CorpusCase(
                name: "CRLF: the data rows and the footer", fileName: "application",
                bytes: Array(application[..<firstData]) + crlf(Array(application[firstData...])),
                expected: .refused(place: "record 1: byte \(firstData)", wording: wording)),
            CorpusCase(
                name: "CRLF: record 10 only", fileName: "application",
                bytes: layout.replacing(end10..<(end10 + 2), with: [0x02, 0x0D, 0x0A]),
                expected: .refused(place: "record 10: byte \(layout.start(10))", wording: wording)),
            CorpusCase(
                name: "CRLF: the #dbTypes row only", fileName: "application",
                bytes: layout.replacing(typesEnd..<(typesEnd + 2), with: [0x02, 0x0D, 0x0A]),
                expected: .refused(place: "header row \(types + 1): byte \(layout.file.offsets[types])", wording: wording)),
            CorpusCase(
                name: "CRLF: the footer only", fileName: "application",
                bytes: layout.replacing(layout.rowEnd(layout.footerIndex)..<application.count, with: [0x02, 0x0D, 0x0A]),
                expected: .refused(place: "byte \(layout.footerOffset)", wording: wording)),
            CorpusCase(
                name: "CRLF: storefront, no free-text column", fileName: "storefront", bytes: crlf(storefront),
                expected: .refused(place: "header row 1: byte 0", wording: wording)),
        ]
    }

    // MARK: Header damage

    static func headerDamage() -> [CorpusCase] {
        let layout = Layout(application)
        let row = { (prefix: String) in layout.file.rowIndex(startingWith: prefix)! }
        func without(_ index: Int) -> [UInt8] {
            layout.replacing(layout.file.offsets[index]..<(layout.rowEnd(index) + 2), with: [])
        }
        func replaced(_ index: Int, _ text: String) -> [UInt8] { layout.file.replacingRow(index, with: Array(text.utf8)) }
        let header = String(decoding: layout.file.rows[0], as: UTF8.self)
        let types = row("#dbTypes:")
        return [
            CorpusCase(
                name: "no #dbTypes row", fileName: "application", bytes: without(types),
                expected: .refused(place: nil, wording: "the header has no #dbTypes: row")),
            CorpusCase(
                name: "no #exportMode row", fileName: "application", bytes: without(row("#exportMode:")),
                expected: .refused(place: nil, wording: "the header has no #exportMode: row")),
            CorpusCase(
                name: "#dbTypes with one type too many", fileName: "application",
                bytes: replaced(types, String(decoding: layout.file.rows[types], as: UTF8.self) + "\u{1}BIGINT"),
                expected: .refused(
                    place: "header row \(types + 1): byte \(layout.file.offsets[types])",
                    wording: "#dbTypes: names 18 types but the header has 17 columns")),
            CorpusCase(
                name: "a column named twice", fileName: "application",
                bytes: replaced(0, header.replacingOccurrences(of: "\u{1}title\u{1}", with: "\u{1}application_id\u{1}")),
                expected: .refused(place: "header row 1: byte 0", wording: "column 'application_id' is named twice")),
            CorpusCase(
                name: "an empty column name", fileName: "application",
                bytes: replaced(0, header.replacingOccurrences(of: "\u{1}title\u{1}", with: "\u{1}\u{1}")),
                expected: .refused(place: "header row 1: byte 0", wording: "column 3 of the header row has no name")),
            CorpusCase(
                name: "a key column that is not a column", fileName: "application",
                bytes: replaced(row("#primaryKey:"), "#primaryKey:app_id"),
                expected: .accepted(.repairable, CountsExpected(rows: 25, skipped: 0))),
            CorpusCase(
                name: "INCREMENTAL with no key", fileName: "application", feedFolder: "itunes20261104",
                bytes: Layout(incremental).file.replacingRow(
                    Layout(incremental).file.rowIndex(startingWith: "#primaryKey:")!, with: Array("#primaryKey:".utf8)),
                expected: .refused(place: "byte 0", wording: "an INCREMENTAL file with no #primaryKey cannot be applied")),
            CorpusCase(
                name: "binary garbage", fileName: "application", bytes: garbageBytes(count: 8192, seed: 1).map { $0 == 0x23 ? 0 : $0 },
                expected: .refused(place: "header row 1: byte 0", wording: "this is not an EPF table file")),
        ]
    }

    // MARK: Rows around the data

    static func otherRows() -> [CorpusCase] {
        let layout = Layout(application)
        let footer = layout.footerOffset
        let end = application.count
        let description = layout.separators(6)[12] + 1
        let storefrontLayout = Layout(storefront)
        let name = storefrontLayout.separators(3)[2] + 1
        return [
            CorpusCase(
                name: "empty file", fileName: "application", bytes: [],
                expected: .refused(place: "byte 0", wording: "the file is empty (0 bytes)")),
            CorpusCase(
                name: "header and footer, no rows, footer says 0", fileName: "application",
                bytes: Array(application[..<layout.start(1)]) + Array("#recordsWritten:0".utf8) + [0x02, 0x0A],
                expected: .accepted(.clean, CountsExpected(rows: 0))),
            CorpusCase(
                name: "a second footer", fileName: "application", bytes: application + Array("#recordsWritten:25".utf8) + [0x02, 0x0A],
                expected: .refused(place: "record 26: byte \(end)", wording: "bytes follow the #recordsWritten footer")),
            CorpusCase(
                name: "a data row after the footer", fileName: "application", bytes: application + layout.record(1) + [0x02, 0x0A],
                expected: .refused(place: "record 26: byte \(end)", wording: "bytes follow the #recordsWritten footer")),
            CorpusCase(
                name: "footer says -1", fileName: "application", bytes: layout.withFooter(-1),
                expected: .refused(place: "record 26: byte \(footer)", wording: "the #recordsWritten footer holds no record count")),
            CorpusCase(
                name: "## rows among the data", fileName: "application",
                bytes: layout.replacing(layout.start(12)..<layout.start(12), with: Array("##legal: more".utf8) + [0x02, 0x0A]),
                expected: .accepted(.repairable, CountsExpected(rows: 25, commentRows: 1))),
            CorpusCase(
                name: "a stray 0x01 in a description", fileName: "application",
                bytes: layout.replacing(description..<description, with: Array("a\u{1}b".utf8)),
                expected: .accepted(.repairable, CountsExpected(rows: 25, repaired: 2, rejoined: 2))),
            CorpusCase(
                name: "a stray 0x01 in a table with no free text", fileName: "storefront",
                bytes: storefrontLayout.replacing(name..<name, with: [0x01]),
                expected: .refused(
                    place: "record 3: byte \(storefrontLayout.start(3))",
                    wording: "no free-text (LONGTEXT/CLOB) column can take the extra 0x01 bytes")),
        ]
    }

    // MARK: Through the streaming path

    static func compressed() -> [CorpusCase] {
        let names = [
            "cut record 13 mid-field", "CRLF: record 10 only", "a 10 MB description", "flip record 5 0x01 to 'A'",
            "FULL: records 1 and 2 again at the end", "uncut",
        ]
        let plain =
            truncations().filter { names.contains(where: $0.name.hasPrefix) && !$0.name.hasPrefix("storefront") }
            + windowsRowEnds() + hugeFields() + flips() + repeatedKeys()
        var seen = Set<String>()
        return plain.filter { corpusCase in
            guard let name = names.first(where: corpusCase.name.hasPrefix), seen.insert(name).inserted else { return false }
            return true
        }.map { corpusCase in
            var gz = corpusCase
            gz.name = "gzip: " + corpusCase.name
            gz.fileName = corpusCase.fileName + ".gz"
            gz.gzip = true
            return gz
        }
    }
}
