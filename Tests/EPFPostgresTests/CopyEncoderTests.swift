import EPFFormat
import EPFPostgres
import EPFTestSupport
import Testing

/// The COPY text of records, without a server.
@Suite("COPY text conversion")
struct CopyEncoderTests {
    /// The COPY lines of every record of a table file, with the encoder's
    /// unfit columns and repairs per record.
    static func encode(_ bytes: [UInt8]) throws -> [(line: String, unfit: [Int], repair: CopyEncoder.Repair)] {
        try bytes.withUnsafeBytes { buffer in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else {
                Issue.record("no header")
                return []
            }
            let parser = RecordParser(header: header)
            let batch = RecordBatch(columnCount: header.columns.count)
            _ = parser.parse(buffer, from: header.dataOffset, isFinal: true, recordsBefore: 0, into: batch)
            #expect(batch.fault == nil)
            let encoder = CopyEncoder(header: header)
            let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var lines: [(String, [Int], CopyEncoder.Repair)] = []
            for record in 0..<batch.count {
                let size = batch.field(record, header.columns.count - 1).end - batch.field(record, 0).start
                let out = UnsafeMutablePointer<UInt8>.allocate(capacity: encoder.worstCase(recordBytes: size))
                defer { out.deallocate() }
                let length = encoder.encode(batch, record: record, base: base, recordNumber: record + 1, into: out)
                #expect(length <= encoder.worstCase(recordBytes: size))
                lines.append(
                    (String(decoding: UnsafeBufferPointer(start: out, count: length), as: UTF8.self), encoder.unfitColumns, encoder.repair))
            }
            return lines
        }
    }

    @Test("Each type in the form PostgreSQL reads, text escaped, NULL for empty fields, the record number last")
    func types() throws {
        let bytes = tableFileBytes(
            columns: EndToEndTests.typedColumns, types: EndToEndTests.typedTypes, key: ["id"], mode: "FULL",
            rawRows: EndToEndTests.typedRows())
        let lines = try Self.encode(bytes)
        #expect(
            lines.map(\.line) == [
                "1\t7\tt\t2.990\t2012-03-06\t2012-03-06\ttab\\there\tline\\none\\r\\nback\\\\slash\t1\n",
                "2\t7\tt\t12345678901.000\t2012-03-06 10:00:00\t2012-03-06\t\\N\t\\N\t2\n",
                "3\t\\N\t\\N\t\\N\t\\N\t\\N\t\\\\N\t\\\\.\t3\n",
                "4\t\\N\tf\t.5\t2005-09-06 00:00:00\t\\N\t\u{7}bell\t日本語 🎉\t4\n",
                "5\t-9223372036854775808\tf\t-0.000\t\\N\t0001-01-01\tx\t1.5e3\t5\n",
                "6\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t6\n",
                "7\t1\t\\N\t\\N\t\\N\t\\N\ta\u{FFFD}b\tcd\u{FFFD}\t7\n",
            ])
        #expect(lines.map(\.unfit) == [[], [], [1, 2, 3, 4, 5], [1, 5], [4], [], []])
        #expect(lines[6].repair == CopyEncoder.Repair(invalidSequences: 2, nulBytes: 1))
        #expect(lines[0].repair == CopyEncoder.Repair())
    }

    @Test("Integers of every length, both signs and both ends of BIGINT are written as Swift writes them")
    func integersOfEveryLength() throws {
        var values: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power, power - 1, power + 1, -power, -(power - 1), power * 9 / 10 * 10 / 9]
            if power <= Int64.max / 10 { power *= 10 } else { break }
        }
        var generator = SystemRandomNumberGenerator()
        for bits in 1...63 { values.append(Int64(generator.next() >> UInt64(64 - bits))) }
        let bytes = tableFileBytes(
            columns: ["id", "value"], types: ["BIGINT", "BIGINT"], key: ["id"], mode: "FULL",
            rows: values.enumerated().map { [String($0.offset), String($0.element)] })
        let lines = try Self.encode(bytes).map(\.line)
        #expect(lines == values.enumerated().map { "\($0.offset)\t\($0.element)\t\($0.offset + 1)\n" })
    }

    @Test("An empty key field: the empty string in a text key, NULL in a typed one")
    func emptyKeys() throws {
        let bytes = tableFileBytes(
            columns: ["code", "id", "name"], types: ["VARCHAR(10)", "BIGINT", "VARCHAR(10)"], key: ["code", "id"], mode: "FULL",
            rows: [["", "", ""]])
        #expect(try Self.encode(bytes).map(\.line) == ["\t\\N\t\\N\t1\n"])
    }

    @Test("Escaping across word boundaries: every position of every special byte")
    func escapingEverywhere() throws {
        for special in ["\\", "\n", "\r", "\t", "\u{1}"] {
            for position in 0..<20 {
                let text = String(repeating: "a", count: position) + special + String(repeating: "b", count: 19 - position)
                let bytes = tableFileBytes(
                    columns: ["id", "t"], types: ["BIGINT", "LONGTEXT"], key: ["id"], mode: "FULL", rows: [["1", text]])
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
                    .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
                let lines = try Self.encode(bytes)
                // A 0x01 in free text makes the row one field longer, rejoined.
                #expect(lines.map(\.line) == ["1\t\(escaped)\t1\n"], "\(special.unicodeScalars.first!.value) at \(position)")
            }
        }
    }
}
