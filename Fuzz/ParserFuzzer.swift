// libFuzzer target over EPFFormat: header parse, record parse, row repair
// (stray 0x01 rejoin), text repair and value decoding on arbitrary bytes.
// Built by scripts/fuzz, which compiles Sources/EPFFormat/*.swift into the
// same module (no SwiftPM: `swiftc -sanitize=fuzzer,address`, with the
// package name, since EPFFormat declares its internals `package`).
//
// Beyond "no crash, no hang, no memory error", it checks the invariants the
// importer relies on (a failed check is a crash libFuzzer reports):
// - every field span lies inside the row it came from, in order;
// - parsing the file as one final chunk and as two chunks cut at a row end
//   finds the same records and the same fault;
// - `TextRepair.needsRepair` is false only for valid UTF-8 without NUL, and
//   `TextRepair.repair` always writes valid UTF-8 without NUL within its
//   stated capacity;
// - a decoded date is 10 or 19 bytes.

/// The import refuses wider headers (SQLite's column limit); the fuzzer
/// stops there too, so a batch stays small.
let maximumColumns = 2000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else {
        _ = try? HeaderParser.parse(UnsafeRawBufferPointer(start: nil, count: 0), isComplete: true)
        return 0
    }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkScanners(data, size)
    // A prefix that may continue: the parser may ask for more bytes.
    _ = try? HeaderParser.parse(bytes, isComplete: false)
    guard case .header(let header)? = try? HeaderParser.parse(bytes, isComplete: true) else { return 0 }
    precondition(header.columns.count == header.types.count, "types do not match columns")
    precondition(header.dataOffset <= size, "data offset past the end")
    precondition(header.keyColumnIndexes.allSatisfy { $0 < header.columns.count })
    guard header.columns.count <= maximumColumns else { return 0 }

    let whole = parseAll(bytes, header: header, chunks: [size])
    // The same bytes as two chunks, cut at the last row end before the middle.
    let middle = header.dataOffset + (size - header.dataOffset) / 2
    if middle > header.dataOffset, let cut = lastRecordBoundary(data, from: header.dataOffset, end: middle), cut < size {
        let split = parseAll(bytes, header: header, chunks: [cut, size])
        precondition(
            split.records == whole.records, "records differ when the file is cut at a row end: \(split.records) vs \(whole.records)")
        precondition(
            split.fault?.kind == whole.fault?.kind,
            "faults differ when cut: \(String(describing: split.fault)) vs \(String(describing: whole.fault))")
        precondition(split.footer == whole.footer, "footers differ when cut")
    }
    return 0
}

/// The row-end scanners agree with a plain byte loop.
func checkScanners(_ base: UnsafePointer<UInt8>, _ size: Int) {
    let found = findRecordTerminator(base, from: 0, end: size)
    var slow: Int?
    var index = 0
    while index + 1 < size {
        if base[index] == 0x02 && base[index + 1] == 0x0A { slow = index; break }
        index += 1
    }
    precondition(found == slow, "findRecordTerminator: \(String(describing: found)) vs \(String(describing: slow))")
    if let boundary = lastRecordBoundary(base, from: 0, end: size) {
        precondition(boundary >= 2 && boundary <= size && base[boundary - 2] == 0x02 && base[boundary - 1] == 0x0A)
    }
    if let windows = findWindowsRowEnd(base, from: 0, end: size) {
        precondition(windows + 2 < size && base[windows] == 0x02 && base[windows + 1] == 0x0D && base[windows + 2] == 0x0A)
    }
}

struct Parsed {
    var records = 0
    var fault: FormatError?
    var footer: Int?
}

/// Parses the data rows chunk by chunk (`chunks`: the end offset of each;
/// all but the last end on a row end), checking every span and decoding
/// and repairing every field.
func parseAll(_ bytes: UnsafeRawBufferPointer, header: EPFHeader, chunks: [Int]) -> Parsed {
    let parser = RecordParser(header: header)
    let batch = RecordBatch(columnCount: header.columns.count, capacity: 16)
    var result = Parsed()
    var chunkStart = header.dataOffset
    for (number, chunkEnd) in chunks.enumerated() {
        let isFinal = number == chunks.count - 1
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[chunkStart..<chunkEnd])
        var position = 0
        var recordsInChunk = 0
        while position < chunk.count {
            let next = parser.parse(chunk, from: position, isFinal: isFinal, recordsBefore: recordsInChunk, into: batch)
            precondition(next >= position && next <= chunk.count, "parse went backwards or past the end")
            check(batch, chunk: chunk, from: position, to: next, header: header)
            recordsInChunk += batch.count
            if batch.fault != nil || batch.footer != nil {
                result.records += recordsInChunk
                result.fault = batch.fault
                result.footer = batch.footer
                // Bytes after a footer that ended its chunk: the importer's
                // pipeline refuses them as the parser does within a chunk.
                if result.fault == nil, batch.footer != nil, next < chunk.count || !isFinal {
                    result.fault = FormatError(.dataAfterFooter, byteOffset: Int64(chunkStart + next), detail: "", hint: "")
                }
                return result
            }
            if next == position {
                // No row end in the rest of a chunk that is not final.
                precondition(!isFinal, "no progress on a final chunk")
                break
            }
            position = next
        }
        result.records += recordsInChunk
        chunkStart = chunkEnd
    }
    return result
}

func check(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, from: Int, to: Int, header: EPFHeader) {
    let base = chunk.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let columns = header.columns.count
    var previousEnd = from
    let dates = UnsafeMutablePointer<UInt8>.allocate(capacity: 19)
    defer { dates.deallocate() }
    for record in 0..<batch.count {
        let start = batch.offset(record)
        precondition(start >= previousEnd && start <= to, "record starts outside its range")
        var fieldEnd = start
        for column in 0..<columns {
            let span = batch.field(record, column)
            precondition(span.start >= fieldEnd && span.start <= span.end && span.end <= to, "span out of order or out of range")
            fieldEnd = span.end
            let p = base + span.start
            let n = span.count
            switch header.types[column].kind {
            case .integer: _ = ValueDecoding.integer(p, n)
            case .boolean: _ = ValueDecoding.boolean(p, n)
            case .decimal: _ = ValueDecoding.decimal(p, n)
            case .date:
                if let length = ValueDecoding.date(p, n, into: dates) {
                    precondition(length == 10 || length == 19, "date of \(length) bytes")
                }
            case .text, .freeText, .unknown: break
            }
            _ = ValueDecoding.fits(p, n, kind: header.types[column].kind)
            checkText(p, n)
        }
        previousEnd = fieldEnd
    }
}

/// `needsRepair` and `repair` agree with the standard library's UTF-8 validation.
func checkText(_ p: UnsafePointer<UInt8>, _ n: Int) {
    let input = UnsafeBufferPointer(start: p, count: n)
    let clean = String(validating: input, as: UTF8.self) != nil && !input.contains(0)
    precondition(TextRepair.needsRepair(p, n) == !clean, "needsRepair disagrees with UTF-8 validation")
    guard !clean else { return }
    let capacity = TextRepair.repairedCapacity(n)
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, capacity))
    defer { out.deallocate() }
    let outcome = TextRepair.repair(p, n, into: out)
    precondition(outcome.length <= capacity, "repair wrote past its capacity")
    let repaired = UnsafeBufferPointer(start: out, count: outcome.length)
    precondition(String(validating: repaired, as: UTF8.self) != nil && !repaired.contains(0), "repair left invalid UTF-8 or NUL")
    precondition(outcome.invalidSequences + outcome.nulBytes > 0, "repair found nothing to repair")
}
