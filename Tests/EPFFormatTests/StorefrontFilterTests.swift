import EPFFormat
import Testing

@Suite("StorefrontFilter")
struct StorefrontFilterTests {
    /// A header of `columns` keyed by `key`.
    func header(_ columns: [String], key: [String]) throws -> EPFHeader {
        let text = "#" + columns.joined(separator: "\u{1}") + "\u{2}\n#primaryKey:" + key.joined(separator: "\u{1}")
            + "\u{2}\n#dbTypes:" + columns.map { _ in "INTEGER" }.joined(separator: "\u{1}") + "\u{2}\n#exportMode:FULL\u{2}\n"
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBytes { buffer -> EPFHeader? in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else { return nil }
            return header
        }
        return try #require(parsed)
    }

    @Test func readsTheStorefrontColumnButNotOfTheStorefrontList() throws {
        #expect(StorefrontFilter.column(in: try header(["export_date", "application_id", "storefront_id"], key: ["application_id", "storefront_id"])) == 2)
        #expect(StorefrontFilter.column(in: try header(["export_date", "storefront_id", "country_code"], key: ["storefront_id"])) == nil)
        #expect(StorefrontFilter.column(in: try header(["export_date", "application_id"], key: ["application_id"])) == nil)
    }

    @Test func leavesOutOtherStorefrontsAndKeepsRecordPlaces() throws {
        let rows = ["1\u{1}143441", "2\u{1}143443", "3\u{1}", "4\u{1}143462", "5\u{1}x143441", "6\u{1}143441"]
        let bytes = Array((rows.map { $0 + "\u{2}\n" }.joined() + "#recordsWritten:6\u{2}\n").utf8)
        let parser = RecordParser(header: try header(["application_id", "storefront_id"], key: ["application_id", "storefront_id"]))
        let batch = RecordBatch(columnCount: 2, capacity: 16)
        try bytes.withUnsafeBytes { chunk in
            _ = parser.parse(chunk, from: 0, isFinal: true, recordsBefore: 0, into: batch)
            #expect(batch.count == 6)
            batch.leaveOut(unless: StorefrontFilter(ids: [143462, 143441]), column: 1, in: chunk)
            #expect(batch.count == 3)
            #expect(batch.dropped == 3)
            let base = try #require(chunk.baseAddress?.assumingMemoryBound(to: UInt8.self))
            let ids = (0..<batch.count).map { record -> String in
                let span = batch.field(record, 0)
                return String(decoding: UnsafeBufferPointer(start: base + span.start, count: span.count), as: UTF8.self)
            }
            #expect(ids == ["1", "4", "6"])
            #expect((0..<batch.count).map(batch.ordinal) == [0, 3, 5])
            #expect(batch.offset(1) == rows[0..<3].reduce(0) { $0 + $1.utf8.count + 2 })
            #expect(batch.footer == 6)
        }
    }
}
