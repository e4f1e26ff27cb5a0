import EPFFormat
import EPFTestSupport
import Testing

@Suite("Record boundaries")
struct RecordBoundaryTests {
    func terminator(_ bytes: [UInt8], from: Int = 0, end: Int? = nil) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            findRecordTerminator(buffer.baseAddress!, from: from, end: end ?? buffer.count)
        }
    }

    func boundary(_ bytes: [UInt8], from: Int = 0, end: Int? = nil) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            lastRecordBoundary(buffer.baseAddress!, from: from, end: end ?? buffer.count)
        }
    }

    @Test func terminatorSkipsLoneRecordSeparators() {
        let bytes: [UInt8] = [0x61, 0x02, 0x62, 0x02, 0x02, 0x0A, 0x63, 0x02, 0x0A]
        #expect(terminator(bytes) == 4)
        #expect(terminator(bytes, from: 6) == 7)
        #expect(terminator(bytes, from: 9) == nil)
    }

    @Test func terminatorNeedsTheNewlineInsideTheRange() {
        let bytes: [UInt8] = [0x61, 0x0A, 0x02, 0x0A]
        #expect(terminator(bytes, end: 3) == nil)
        #expect(terminator(bytes) == 2)
        #expect(terminator([0x61, 0x0A, 0x0D, 0x0A, 0x02]) == nil)
    }

    @Test func lastBoundaryIsJustPastTheLastRowEnd() {
        let bytes = epf([["a"], ["b\u{2}"], ["c"]]) + [0x64, 0x02]
        // a 02 0A | b 02 02 0A | c 02 0A | d 02
        #expect(boundary(bytes) == 10)
        #expect(boundary(bytes, end: 9) == 7)
        #expect(boundary(bytes, end: 6) == 3)
        #expect(boundary(bytes, end: 2) == nil)
        #expect(boundary(bytes, from: 3, end: 7) == 7)
        // A newline at `from` does not pair with a 0x02 before `from`.
        #expect(boundary(bytes, from: 2, end: 6) == nil)
    }
}
