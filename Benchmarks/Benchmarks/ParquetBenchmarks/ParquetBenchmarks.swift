import Benchmark
@_spi(Benchmarks) import EPFParquet
@_spi(Benchmarks) import EPFSynthetic
import Foundation

/// The Parquet writer alone: generated application-like rows (IDs, a
/// timestamp, short and long text, a decimal, a flag) appended to a row
/// group's column buffers and written to a new file with zstd level 1, as
/// the lake writes them. The values are made before the benchmark runs, so
/// it measures buffering, encoding, compression and the file's writes.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 20,
        thresholds: [
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .cpuTotal: .init(relative: [.p50: 60, .p90: 100]),
            .throughput: .init(relative: [.p50: 60, .p90: 100]),
            // Buffers grow geometrically: the count is steady run to run.
            .mallocCountTotal: .init(relative: [.p50: 5, .p90: 5]),
        ])

    let input = ParquetInput(rows: 5_000)
    Benchmark(
        "Parquet.write.application.5000rows",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try input.write())
            }
        },
        teardown: { input.removeFiles() })
}

/// Generated rows, kept as values, and the folder their files go to.
final class ParquetInput: @unchecked Sendable {
    static let schema = try! ParquetSchema([
        ParquetColumn("export_date", .timestampMillis),
        ParquetColumn("application_id", .int64),
        ParquetColumn("title", .string),
        ParquetColumn("recommended_age", .string, dictionary: true),
        ParquetColumn("view_url", .string),
        ParquetColumn("description", .string),
        ParquetColumn("download_size", .int64),
        ParquetColumn("price", .decimal(precision: 9, scale: 3)),
        ParquetColumn("is_game", .boolean),
    ])
    static let options = ParquetWriterOptions(compression: .zstd(level: 1))

    let ids: [Int64]
    let titles: [String]
    let ages: [String]
    let urls: [String]
    let descriptions: [String]
    let sizes: [Int64?]
    let folder: URL

    init(rows: Int) {
        let generator = FeedGenerator(rows: rows, seed: 17, storefronts: 0)
        var random = SplitMix64(seed: 17)
        func words(_ count: Int) -> String {
            (0..<count).map { _ in
                String(decoding: FeedGenerator.titleWords[Int(random.next() % UInt64(FeedGenerator.titleWords.count))], as: UTF8.self)
            }.joined(separator: " ")
        }
        ids = (0..<rows).map { Int64(generator.applicationID($0)) }
        titles = (0..<rows).map { _ in words(2 + Int(random.next() % 3)) }
        ages = (0..<rows).map { _ in ["4+", "9+", "12+", "17+"][Int(random.next() % 4)] }
        urls = ids.map { "https://apps.apple.com/us/app/app-\($0)/id\($0)?mt=8" }
        // ~1 KB of description a row, as in the feed's.
        descriptions = (0..<rows).map { _ in words(150 + Int(random.next() % 100)) }
        sizes = (0..<rows).map { _ in random.next() % 10 == 0 ? nil : Int64(1_000_000 + random.next() % 900_000_000) }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-parquet-bench-\(UUID().uuidString)")
    }

    /// Removes the files `write()` made (benchmark teardown: the inputs
    /// live as long as the process, so `deinit` would never run).
    func removeFiles() { try? FileManager.default.removeItem(at: folder) }

    /// Writes every row as one row group of a new file; returns its size.
    func write() throws -> Int64 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var group = ParquetRowGroup(schema: Self.schema, options: Self.options)
        for row in ids.indices {
            group.columns[0].append(Int64(1_793_491_200_000))
            group.columns[1].append(ids[row])
            group.columns[2].append(titles[row])
            group.columns[3].append(ages[row])
            group.columns[4].append(urls[row])
            group.columns[5].append(descriptions[row])
            if let size = sizes[row] { group.columns[6].append(size) } else { group.columns[6].appendNull() }
            _ = group.columns[7].append(decimalUnscaled: Int64(row % 100) * 1_000 + 990)
            group.columns[8].append(row % 7 == 0)
        }
        let file = try ParquetFileWriter(
            path: folder.appendingPathComponent("application.parquet").path, schema: Self.schema, options: Self.options)
        try file.write(group)
        return try file.close()
    }
}
