import EPFFormat

/// One record of a batch, copied out of the chunk.
struct ParsedRecord {
    var fields: [[UInt8]]
    var offset: Int
    var flags: RecordFlags
    /// The fields as text (invalid bytes become U+FFFD).
    var text: [String] { fields.map { String(decoding: $0, as: UTF8.self) } }
}

/// What one `RecordParser.parse` call produced, copied out of the batch.
struct ParseOutcome {
    var records: [ParsedRecord]
    var next: Int
    var footer: Int?
    var footerOffset: Int
    var fault: FormatError?
    var skippedCommentRows: Int
    var firstRecordInChunk: Int
}

/// Runs `parser.parse` once over `chunk` and copies the batch out.
func parseOnce(
    _ parser: RecordParser, _ chunk: [UInt8], from: Int = 0, isFinal: Bool = true, recordsBefore: Int = 0,
    batch: RecordBatch
) -> ParseOutcome {
    chunk.withUnsafeBytes { buffer in
        let next = parser.parse(buffer, from: from, isFinal: isFinal, recordsBefore: recordsBefore, into: batch)
        var records: [ParsedRecord] = []
        for record in 0..<batch.count {
            let fields = (0..<batch.columnCount).map { column -> [UInt8] in
                let span = batch.field(record, column)
                return Array(buffer[span.start..<span.end])
            }
            records.append(ParsedRecord(fields: fields, offset: batch.offset(record), flags: batch.flags(record)))
        }
        return ParseOutcome(
            records: records, next: next, footer: batch.footer, footerOffset: batch.footerOffset, fault: batch.fault,
            skippedCommentRows: batch.skippedCommentRows, firstRecordInChunk: batch.firstRecordInChunk)
    }
}

/// Parses `chunk` with a fresh parser for `header` and a roomy batch.
func parseRecords(
    _ header: EPFHeader, _ chunk: [UInt8], from: Int = 0, isFinal: Bool = true, recordsBefore: Int = 0,
    capacity: Int = 64
) -> ParseOutcome {
    let parser = RecordParser(header: header)
    let batch = RecordBatch(columnCount: header.columns.count, capacity: capacity)
    return parseOnce(parser, chunk, from: from, isFinal: isFinal, recordsBefore: recordsBefore, batch: batch)
}
