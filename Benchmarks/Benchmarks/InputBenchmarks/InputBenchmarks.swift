import Benchmark
@_spi(Benchmarks) import EPFInput
@_spi(Benchmarks) import EPFSynthetic
import Foundation

/// Decompressing bzip2 (how Apple ships the feeds) with the Swift block
/// decoder through `ParallelBzip2Stream`, on every core: MB/s of output,
/// and the malloc count, which grows with the blocks (a job's dispatch)
/// but not with their bytes (the decoders' buffers are reused).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput, InputMetric.megabytesPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 30,
        thresholds: [
            // A shared 2-core machine: wall clock is noisy, allocations much less so.
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .throughput: .init(relative: [.p50: 60, .p90: 100]),
            InputMetric.megabytesPerSecond: .init(relative: [.p50: 60, .p90: 100]),
            .mallocCountTotal: .init(relative: [.p50: 25, .p90: 25]),
        ])

    // 5,000 generated application rows (~10 MB), bzip2 -9: 12 blocks.
    let file = CompressedFile(rows: 5_000)
    Benchmark("Bzip2.decode.application.5000rows") { benchmark in
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            blackHole(file.decompress())
        }
        InputMetric.record(bytes: file.plainSize * benchmark.scaledIterations.count, since: start, in: benchmark)
    }
}

enum InputMetric {
    static let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger)

    /// Records the bytes per second of the work since `start`.
    static func record(bytes: Int, since start: ContinuousClock.Instant, in benchmark: Benchmark) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        benchmark.measurement(megabytesPerSecond, Int(Double(bytes) / 1e6 / max(seconds, 1e-9)))
    }
}

/// A generated application table compressed by the system's bzip2 into a
/// temporary file, made once (and removed when the process ends).
final class CompressedFile: @unchecked Sendable {
    let path: String
    let plainSize: Int
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)

    init(rows: Int) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-bench-bzip2-\(getpid())").path
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plain = try! FeedGenerator(rows: rows, seed: 7, storefronts: 0).writeApplication(to: folder)
        plainSize = Int((try! FileManager.default.attributesOfItem(atPath: plain)[.size] as! NSNumber).int64Value)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "bzip2 -9 -k '\(plain)'"]
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "bzip2 failed")
        path = plain + ".bz2"
        atexit {
            try? FileManager.default.removeItem(
                atPath: FileManager.default.temporaryDirectory.appendingPathComponent("epf-bench-bzip2-\(getpid())").path)
        }
    }

    /// Decompresses the file; returns its size (checked).
    func decompress() -> Int {
        let stream = try! ParallelBzip2Stream(path: path)
        var total = 0
        while true {
            let count = try! stream.read(into: buffer)
            if count == 0 { break }
            total += count
        }
        precondition(total == plainSize)
        return total
    }
}
