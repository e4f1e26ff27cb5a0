import EPFFormat
import Testing

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
