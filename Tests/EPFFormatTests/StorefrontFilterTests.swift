import EPFFormat
import Testing

@Suite("StorefrontFilter")
struct StorefrontFilterTests {
    /// A header of `columns` keyed by `key`.
    func header(_ columns: [String], key: [String]) throws -> EPFHeader {
        let text =
            "#" + columns.joined(separator: "\u{1}") + "\u{2}\n#primaryKey:" + key.joined(separator: "\u{1}")
            + "\u{2}\n#dbTypes:" + columns.map { _ in "INTEGER" }.joined(separator: "\u{1}") + "\u{2}\n#exportMode:FULL\u{2}\n"
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBytes { buffer -> EPFHeader? in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else { return nil }
            return header
        }
        return try #require(parsed)
    }

    @Test func readsTheStorefrontColumnButNotOfTheStorefrontList() throws {
        #expect(
            StorefrontFilter.column(
                in: try header(["export_date", "application_id", "storefront_id"], key: ["application_id", "storefront_id"])) == 2)
        #expect(StorefrontFilter.column(in: try header(["export_date", "storefront_id", "country_code"], key: ["storefront_id"])) == nil)
        #expect(StorefrontFilter.column(in: try header(["export_date", "application_id"], key: ["application_id"])) == nil)
    }

    /// The first field of each kept record, and their places as parsed.
    func parsed(_ rows: [String], columns: [String], filter: StorefrontFilter) throws -> (
        kept: [String], ordinals: [Int], batch: RecordBatch
    ) {
        let bytes = Array((rows.map { $0 + "\u{2}\n" }.joined() + "#recordsWritten:\(rows.count)\u{2}\n").utf8)
        let parser = RecordParser(header: try header(columns, key: ["application_id", "storefront_id"]), storefronts: filter)
        let batch = RecordBatch(columnCount: columns.count, capacity: 16)
        let kept = try bytes.withUnsafeBytes { chunk in
            _ = parser.parse(chunk, from: 0, isFinal: true, recordsBefore: 0, into: batch)
            let base = try #require(chunk.baseAddress?.assumingMemoryBound(to: UInt8.self))
            return (0..<batch.count).map { record -> String in
                let span = batch.field(record, 0)
                return String(decoding: UnsafeBufferPointer(start: base + span.start, count: span.count), as: UTF8.self)
            }
        }
        return (kept, (0..<batch.count).map(batch.ordinal), batch)
    }

    @Test func leavesOutOtherStorefrontsByTheLastFieldAndKeepsRecordPlaces() throws {
        let rows = [
            "1\u{1}x\u{1}143441", "2\u{1}x\u{1}143443", "3\u{1}x\u{1}", "4\u{1}x\u{1}143462", "5\u{1}x\u{1}x143441", "6\u{1}x\u{1}143441",
        ]
        let (kept, ordinals, batch) = try parsed(
            rows, columns: ["application_id", "currency_code", "storefront_id"], filter: StorefrontFilter(ids: [143462, 143441]))
        #expect(kept == ["1", "4", "6"])
        #expect(ordinals == [0, 3, 5])
        #expect(batch.dropped == 3 && batch.records == 6)
        #expect(batch.offset(1) == rows[0..<3].reduce(0) { $0 + $1.utf8.count + 2 })
        #expect(batch.footer == 6)
    }

    @Test func leavesOutOtherStorefrontsByAnEarlyField() throws {
        let rows = ["1\u{1}143443\u{1}a\u{1}b", "2\u{1}143441\u{1}a\u{1}b", "3\u{1}143441"]
        // The short third row is kept, so that the split reports it.
        let (kept, _, batch) = try parsed(
            rows, columns: ["application_id", "storefront_id", "c", "d"], filter: StorefrontFilter(ids: [143441]))
        #expect(kept == ["2"])
        #expect(batch.dropped == 1)
        #expect(batch.fault?.kind == .shortRow)
        #expect(batch.fault?.record == 3)
    }
}
