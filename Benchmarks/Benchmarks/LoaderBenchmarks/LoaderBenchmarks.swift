import Benchmark
import EPFCatalog
@_spi(Benchmarks) import EPFCatalogStore
import EPFFormat
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import Foundation

/// The SQLite loader alone: binding parsed records of a generated
/// application table into a staging table of a fresh catalog, building the
/// key, committing. Allocations must not grow with the number of records.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 20,
        thresholds: [
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .throughput: .init(relative: [.p50: 60, .p90: 100]),
            // SQLite's own allocations vary a little with page reuse.
            .mallocCountTotal: .init(relative: [.p50: 5, .p90: 5]),
        ])

    for rows in [2_000, 20_000] {
        let input = LoaderInput(rows: rows)
        Benchmark(
            "Loader.application.\(rows)rows",
            closure: { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try input.load())
                }
            },
            teardown: { input.removeFiles() })
    }
}

/// Parsed batches of a generated table, kept in memory so the benchmark
/// measures the loader only.
final class LoaderInput: @unchecked Sendable {
    let bytes: [UInt8]
    let header: EPFHeader
    let batches: [RecordBatch]
    let folder: URL

    init(rows: Int) {
        let bytes = try! FeedGenerator(rows: rows, seed: 11, storefronts: 0).applicationBytes()
        let header = bytes.withUnsafeBytes { raw in
            guard case .header(let header) = try! HeaderParser.parse(raw, isComplete: true) else { fatalError("header") }
            return header
        }
        self.bytes = bytes
        self.header = header
        let parser = RecordParser(header: header)
        var batches: [RecordBatch] = []
        bytes.withUnsafeBytes { raw in
            var position = header.dataOffset
            var records = 0
            repeat {
                let batch = RecordBatch(columnCount: header.columns.count)
                position = parser.parse(raw, from: position, isFinal: true, recordsBefore: records, into: batch)
                records += batch.count
                batches.append(batch)
            } while batches.last!.count == batches.last!.capacity
        }
        self.batches = batches
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-loader-bench-\(UUID().uuidString)")
    }

    /// Removes the catalogs `load()` made (benchmark teardown: the inputs
    /// live as long as the process, so `deinit` would never run).
    func removeFiles() { try? FileManager.default.removeItem(at: folder) }

    /// Loads every batch into a new catalog and builds its key; returns the
    /// records loaded.
    func load() throws -> Int {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("catalog.sqlite").path
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteCatalogStore(path: path)
        let loader = try store.makeLoader(for: StagingTarget(table: "application", header: header, sourceName: "bench"), strict: false)
        var records = 0
        try bytes.withUnsafeBytes { raw in
            for batch in batches {
                try loader.load(batch, chunk: raw, firstRecord: records + 1, chunkOffset: 0)
                records += batch.count
            }
        }
        _ = try loader.finish()
        return records
    }
}
