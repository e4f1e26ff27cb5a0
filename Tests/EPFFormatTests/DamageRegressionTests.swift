import EPFFormat
import EPFTestSupport
import Testing

/// Regressions from the damaged-input corpus and the fuzzer (scripts/fuzz):
/// each was a misleading error or a wrong model of the parser's contract.
@Suite("Damage found by the corpus and the fuzzer")
struct DamageRegressionTests {
    static let header = epf([
        ["#export_date", "id", "text"], ["#primaryKey:id"], ["#dbTypes:BIGINT", "INTEGER", "LONGTEXT"], ["#exportMode:FULL"],
    ])
    static let layout = makeHeader([("export_date", "BIGINT"), ("id", "INTEGER"), ("text", "LONGTEXT")], key: ["id"])

    static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A, index > 0, bytes[index - 1] == 0x02 { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }

    /// Was: "the header row is not terminated by 0x02 0x0A", which reads as
    /// a cut download.
    @Test func windowsLineEndsInTheFirstHeaderRow() throws {
        let error = try #require(headerError(Self.crlf(Self.header)))
        #expect(error.kind == .windowsLineEnds)
        #expect(error.headerRow == 1 && error.byteOffset == 0)
        #expect(error.detail.contains("0x02 0x0D 0x0A"))
        // Known from a prefix already: no need to read more.
        #expect(headerError(Array(Self.crlf(Self.header).prefix(30)), isComplete: false)?.kind == .windowsLineEnds)
    }

    /// Was: "the header has no #dbTypes: row" (the row ran on into the next).
    @Test func windowsLineEndInATagRow() throws {
        let rows = epf([["#export_date", "id", "text"], ["#primaryKey:id"]])
        let types = Self.crlf(epf([["#dbTypes:BIGINT", "INTEGER", "LONGTEXT"]]))
        let error = try #require(headerError(rows + types + epf([["#exportMode:FULL"], ["#recordsWritten:0"]])))
        #expect(error.kind == .windowsLineEnds)
        #expect(error.headerRow == 3 && error.byteOffset == Int64(rows.count))
    }

    /// Was: "the header has no #exportMode: row" for a download cut inside it.
    @Test func cutHeaderSaysItIsCut() throws {
        let bytes = Array(Self.header.dropLast(8))
        let error = try #require(headerError(bytes))
        #expect(error.kind == .truncated)
        #expect(error.headerRow == 4)
        #expect(error.detail.contains("the file ends inside its header"))
    }

    /// Was: "record 3: the file ends inside a row": it is the footer that was cut.
    @Test func cutFooterIsNamed() {
        let data = epf([["1", "7", "a"], ["1", "8", "b"]])
        for cut in 2...18 {
            let footer = Array(epf([["#recordsWritten:2"]]).prefix(cut))
            let outcome = parseRecords(Self.layout, data + footer)
            #expect(outcome.records.count == 2)
            #expect(outcome.fault?.kind == .truncated)
            #expect(outcome.fault?.record == nil, "cut \(cut)")
            #expect(outcome.fault?.byteOffset == Int64(data.count))
            #expect(outcome.fault?.detail.contains("#recordsWritten footer row") == true, "cut \(cut)")
        }
    }

    /// Was: a Windows row end joined two rows, the stray-0x01 repair took
    /// them as one, and only the footer count (much later) failed.
    @Test func windowsRowEndInTheData() {
        let first = epf([["1", "7", "a"]])
        let bytes = first + Self.crlf(epf([["1", "8", "b"]])) + epf([["1", "9", "c"], ["#recordsWritten:3"]])
        let outcome = parseRecords(Self.layout, bytes)
        #expect(outcome.records.count == 1)
        #expect(outcome.fault?.kind == .windowsLineEnds)
        #expect(outcome.fault?.record == 2 && outcome.fault?.byteOffset == Int64(first.count))
        // Every row so: no row end at all in the data.
        let all = parseRecords(Self.layout, Self.crlf(epf([["1", "7", "a"], ["1", "8", "b"], ["#recordsWritten:2"]])))
        #expect(all.fault?.kind == .windowsLineEnds && all.fault?.record == 1)
    }

    /// Fuzzer input crash-357a134d: a footer that ends a chunk reports the
    /// footer and no fault (the bytes after it are in the next chunk, which
    /// the import pipeline refuses); within one chunk the parser refuses them
    /// itself. Both halves of the contract the import relies on.
    @Test func footerAtTheEndOfAChunk() {
        let rows = epf([["1", "7", "a"], ["#recordsWritten:1"]])
        let more = epf([["1", "8", "b"]])
        let cut = parseRecords(Self.layout, rows, isFinal: false)
        #expect(cut.footer == 1 && cut.fault == nil && cut.next == rows.count)
        let whole = parseRecords(Self.layout, rows + more)
        #expect(whole.footer == 1)
        #expect(whole.fault?.kind == .dataAfterFooter && whole.fault?.byteOffset == Int64(rows.count))
    }

    @Test func findWindowsRowEndNeedsAllThreeBytes() {
        for (bytes, expected) in [
            ([UInt8]([0x41, 0x02, 0x0D, 0x0A]), 1), ([0x02, 0x0D], nil), ([0x02, 0x0A, 0x0D], nil), ([0x02, 0x02, 0x0D, 0x0A], 1),
        ] as [([UInt8], Int?)] {
            let found = bytes.withUnsafeBufferPointer { findWindowsRowEnd($0.baseAddress!, from: 0, end: $0.count) }
            #expect(found == expected, "\(bytes)")
        }
    }
}
