import Benchmark
import EPFFormat
@_spi(Benchmarks) import EPFSynthetic

/// The parsing core: record and field splitting, stray-0x01 repair, UTF-8
/// checks. Must stay fast (bytes/s) and allocate nothing per record: the
/// malloc count of a run over 2,000 rows equals that over 20,000.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput, ParserMetric.megabytesPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 50,
        thresholds: [
            // A shared 2-core machine: wall clock is noisy, allocations are not.
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .throughput: .init(relative: [.p50: 60, .p90: 100]),
            ParserMetric.megabytesPerSecond: .init(relative: [.p50: 60, .p90: 100]),
            .mallocCountTotal: .init(absolute: [.p50: 2, .p90: 2]),
        ])

    // Splitting alone: rows and fields, stray-0x01 repair, no UTF-8 check.
    let split = ParsedFile(rows: 20_000, checksText: false)
    Benchmark("Parser.split.application.20000rows") { benchmark in
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            blackHole(split.parseAll())
        }
        ParserMetric.record(bytes: split.bytes.count * benchmark.scaledIterations.count, since: start, in: benchmark)
    }

    // What an import runs: splitting plus the UTF-8 and NUL check.
    for rows in [2_000, 20_000] {
        let file = ParsedFile(rows: rows)
        Benchmark("Parser.application.\(rows)rows") { benchmark in
            let start = ContinuousClock.now
            for _ in benchmark.scaledIterations {
                blackHole(file.parseAll())
            }
            ParserMetric.record(bytes: file.bytes.count * benchmark.scaledIterations.count, since: start, in: benchmark)
        }
    }

    // EPF Flat: the same rows with newline ends and tab fields (the
    // generator's own newlines and tabs in text made spaces), to hold
    // against Parser.application.20000rows.
    let flat = ParsedFile(rows: 20_000, separators: .flat)
    Benchmark("Parser.flat.application.20000rows") { benchmark in
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            blackHole(flat.parseAll())
        }
        ParserMetric.record(bytes: flat.bytes.count * benchmark.scaledIterations.count, since: start, in: benchmark)
    }

    let text = ParsedFile(rows: 20_000)
    Benchmark("TextRepair.needsRepair.application.20000rows") { benchmark in
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            blackHole(text.bytes.withUnsafeBufferPointer { TextRepair.needsRepair($0.baseAddress!, $0.count) })
        }
        ParserMetric.record(bytes: text.bytes.count * benchmark.scaledIterations.count, since: start, in: benchmark)
    }
}

enum ParserMetric {
    static let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger)

    /// Records the bytes per second of the work since `start`.
    static func record(bytes: Int, since start: ContinuousClock.Instant, in benchmark: Benchmark) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / 1e6 / max(seconds, 1e-9)))
    }
}

/// A generated application table and what parsing it needs, made once.
final class ParsedFile: @unchecked Sendable {
    let bytes: [UInt8]
    let header: EPFHeader
    let parser: RecordParser
    let batch: RecordBatch

    init(rows: Int, checksText: Bool = true, separators: Separators = .relational) {
        let relational = try! FeedGenerator(rows: rows, seed: 7, storefronts: 0).applicationBytes()
        bytes = separators.isRelational ? relational : Self.reseparated(relational, separators)
        header = bytes.withUnsafeBytes { raw in
            guard case .header(let header) = try! HeaderParser.parse(raw, isComplete: true, separators: separators) else {
                fatalError("header")
            }
            return header
        }
        parser = RecordParser(header: header, checksText: checksText, separators: separators)
        batch = RecordBatch(columnCount: header.columns.count)
    }

    /// `relational` with one-byte `separators`; newlines and tabs inside
    /// its fields become spaces (a flat file cannot carry them).
    static func reseparated(_ relational: [UInt8], _ separators: Separators) -> [UInt8] {
        precondition(separators.record.count == 1)
        var out: [UInt8] = []
        out.reserveCapacity(relational.count)
        var index = 0
        while index < relational.count {
            let byte = relational[index]
            if byte == 0x02, index + 1 < relational.count, relational[index + 1] == 0x0A {
                out.append(separators.record[0])
                index += 2
                continue
            }
            switch byte {
            case 0x01: out.append(separators.field)
            case separators.record[0], separators.field: out.append(0x20)
            default: out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// Splits every row and field of the file; returns the records seen.
    func parseAll() -> Int {
        bytes.withUnsafeBytes { raw in
            var position = header.dataOffset
            var records = 0
            repeat {
                position = parser.parse(raw, from: position, isFinal: true, recordsBefore: records, into: batch)
                records += batch.count
            } while batch.count == batch.capacity
            precondition(batch.footer == records && batch.fault == nil)
            return records
        }
    }
}
