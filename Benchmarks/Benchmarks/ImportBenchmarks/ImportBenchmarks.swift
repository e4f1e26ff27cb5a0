import Benchmark
import EPFCatalog
import EPFImport
import EPFSynthetic
import Foundation

/// A whole `epf import` of a generated feed folder (application, ~2 KB
/// rows, and application_price, compound key) into a new catalog: plan,
/// map, parallel parse, load, keys, swap, journal.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 10,
        thresholds: [
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .cpuTotal: .init(relative: [.p50: 60, .p90: 100]),
            .mallocCountTotal: .init(relative: [.p50: 10, .p90: 10]),
            .peakMemoryResident: .init(relative: [.p50: 50, .p90: 50]),
        ])

    let feed = GeneratedFeed(rows: 20_000)
    Benchmark("Import.feed.20000apps") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try feed.importIntoNewCatalog())
        }
    }
}

/// A generated feed folder on disk, made once.
final class GeneratedFeed: @unchecked Sendable {
    let folder: URL
    let feed: String

    init(rows: Int) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-import-bench-\(UUID().uuidString)")
        feed = folder.appendingPathComponent("itunes20261101").path
        try! FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        let generator = FeedGenerator(rows: rows, seed: 3, storefronts: 5)
        try! generator.writeApplication(to: feed)
        try! generator.writePrices(to: feed)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func importIntoNewCatalog() throws -> Int {
        let path = folder.appendingPathComponent("catalog.sqlite").path
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let plan = try ImportPlanner.plan(paths: [feed], filter: TableFilter())
        let reports = Importer(store: try SQLiteCatalogStore(path: path)).run(plan)
        precondition(reports.allSatisfy { $0.status == .applied })
        return reports.reduce(0) { $0 + $1.rows }
    }
}
