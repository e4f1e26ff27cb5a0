import EPFFormat
import Testing

/// Rows of EPF bytes: fields joined with 0x01, each row ended by 0x02 0x0A.
func epf(_ rows: [[String]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for row in rows {
        for (index, field) in row.enumerated() {
            if index > 0 { bytes.append(0x01) }
            bytes.append(contentsOf: Array(field.utf8))
        }
        bytes.append(contentsOf: [0x02, 0x0A])
    }
    return bytes
}

/// One row made of raw byte fields (for invalid UTF-8), joined with 0x01 and
/// ended by 0x02 0x0A.
func rawRow(_ fields: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, field) in fields.enumerated() {
        if index > 0 { bytes.append(0x01) }
        bytes.append(contentsOf: field)
    }
    bytes.append(contentsOf: [0x02, 0x0A])
    return bytes
}

/// `HeaderParser.parse` over `bytes`, as a Result so tests can look at either side.
func parseHeader(_ bytes: [UInt8], isComplete: Bool = true) -> Result<HeaderParser.Result, FormatError> {
    bytes.withUnsafeBytes { buffer in
        Result { () throws(FormatError) -> HeaderParser.Result in
            try HeaderParser.parse(buffer, isComplete: isComplete)
        }
    }
}

/// The header parsed from `bytes`; fails the test when there is none.
func parsedHeader(_ bytes: [UInt8], isComplete: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> EPFHeader {
    switch parseHeader(bytes, isComplete: isComplete) {
    case .success(.header(let header)):
        return header
    case .success(.needMoreBytes):
        Issue.record("expected a header, got needMoreBytes", sourceLocation: sourceLocation)
        throw TestFailure.unexpected
    case .failure(let error):
        Issue.record("expected a header, got \(error)", sourceLocation: sourceLocation)
        throw TestFailure.unexpected
    }
}

/// The error `HeaderParser.parse` throws for `bytes`; nil (and a recorded
/// issue) when it does not throw.
func headerError(_ bytes: [UInt8], isComplete: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> FormatError? {
    switch parseHeader(bytes, isComplete: isComplete) {
    case .failure(let error):
        return error
    case .success(let result):
        Issue.record("expected an error, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
}

/// True when `HeaderParser.parse` asks for more bytes.
func needsMoreBytes(_ bytes: [UInt8]) -> Bool {
    if case .success(.needMoreBytes) = parseHeader(bytes, isComplete: false) { return true }
    return false
}

enum TestFailure: Error { case unexpected }

/// A header built directly, without parsing: `(name, declared type)` pairs.
func makeHeader(_ columns: [(String, String)], key: [String] = [], mode: ExportMode = .full) -> EPFHeader {
    EPFHeader(
        columns: columns.map(\.0), types: columns.map { ColumnType(declared: $0.1) }, primaryKey: key,
        exportMode: mode)
}

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

/// A small deterministic generator (SplitMix64) for reproducible random input.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
