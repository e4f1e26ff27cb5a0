import Benchmark
import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import Foundation

/// A whole `epf import` of a generated feed folder (application, ~2 KB
/// rows, and application_price, compound key) into a new catalog: plan,
/// map, parallel parse, load, keys, swap, journal. Then a FULL re-import of
/// one table over itself against a fresh import of the same file.
let benchmarks: @Sendable () -> Void = {
    // Wide: set on a shared 2-core machine.
    let time: [BenchmarkMetric: BenchmarkThresholds] = [
        .wallClock: .init(relative: [.p50: 60, .p90: 100]),
        .cpuTotal: .init(relative: [.p50: 60, .p90: 100]),
    ]
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 10,
        thresholds: time.merging([
            .mallocCountTotal: .init(relative: [.p50: 10, .p90: 10]),
            .peakMemoryResident: .init(relative: [.p50: 50, .p90: 50]),
        ]) { $1 })

    let feed = GeneratedFeed(rows: 20_000)
    Benchmark(
        "Import.feed.20000apps",
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try feed.importIntoNewCatalog())
            }
        },
        setup: { feed.make() }, teardown: { feed.remove() })

    // A FULL re-import over the table the last one made (the old table
    // dropped, the new one swapped in, in pages the previous swap freed),
    // in WAL mode (readers welcome) and with --exclusive (rollback
    // journal), beside a fresh import of the same file (target:
    // re-import <= 1.3x fresh at 300k rows, `scripts/compare-reimport`).
    // Wall time is noisy on a shared machine; bytes written are steady, and
    // grew by the size of the table when the swap zeroed what it dropped
    // (SQLITE_SECURE_DELETE).
    var reimport = Benchmark.defaultConfiguration
    reimport.metrics = [.wallClock, .cpuTotal, .writeBytesLogical]
    reimport.thresholds = time.merging([.writeBytesLogical: .init(relative: [.p50: 15, .p90: 15])]) { $1 }
    // Each benchmark makes the table in its setup and removes it, with its
    // catalogs, in its teardown.
    let table = GeneratedTable(rows: 50_000)
    Benchmark(
        "Import.application.50000rows.fresh", configuration: reimport,
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try table.importIntoNewCatalog())
            }
        },
        setup: { table.make() }, teardown: { table.remove() })
    for exclusive in [false, true] {
        Benchmark(
            "Import.application.50000rows.reimport\(exclusive ? ".exclusive" : "")", configuration: reimport,
            closure: { benchmark in
                for _ in benchmark.scaledIterations {
                    blackHole(try table.reimport(exclusive: exclusive))
                }
            },
            setup: { table.make() }, teardown: { table.remove() })
    }
}

/// One generated application table in a feed folder, and the catalogs it
/// is imported into: made by a benchmark's setup, removed by its teardown
/// (the object lives as long as the process; `deinit` would never run).
final class GeneratedTable: @unchecked Sendable {
    let rows: Int
    let folder: URL
    let feed: String

    init(rows: Int) {
        self.rows = rows
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-reimport-bench-\(UUID().uuidString)")
        feed = folder.appendingPathComponent("itunes20261101").path
    }

    func make() {
        try! FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        try! FeedGenerator(rows: rows, seed: 5, storefronts: 0).writeApplication(to: feed)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func importIntoNewCatalog() throws -> Int {
        let path = folder.appendingPathComponent("fresh.sqlite").path
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return try run(into: path, exclusive: false)
    }

    /// Imports the table again over the catalog the last call made (the
    /// first call, a warm-up iteration, makes it).
    func reimport(exclusive: Bool) throws -> Int {
        try run(into: folder.appendingPathComponent(exclusive ? "exclusive.sqlite" : "wal.sqlite").path, exclusive: exclusive)
    }

    private func run(into path: String, exclusive: Bool) throws -> Int {
        let plan = try ImportPlanner.plan(paths: [feed], filter: TableFilter())
        let reports = PlanRunner(store: try SQLiteCatalogStore(path: path, exclusive: exclusive)).run(plan)
        precondition(reports.allSatisfy { $0.status == .applied })
        return reports.reduce(0) { $0 + $1.rows }
    }
}

/// A generated feed folder on disk: made by the benchmark's setup, removed
/// (with its catalog) by its teardown.
final class GeneratedFeed: @unchecked Sendable {
    let rows: Int
    let folder: URL
    let feed: String

    init(rows: Int) {
        self.rows = rows
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-import-bench-\(UUID().uuidString)")
        feed = folder.appendingPathComponent("itunes20261101").path
    }

    func make() {
        try! FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        let generator = FeedGenerator(rows: rows, seed: 3, storefronts: 5)
        try! generator.writeApplication(to: feed)
        try! generator.writePrices(to: feed)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func importIntoNewCatalog() throws -> Int {
        let path = folder.appendingPathComponent("catalog.sqlite").path
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let plan = try ImportPlanner.plan(paths: [feed], filter: TableFilter())
        let reports = PlanRunner(store: try SQLiteCatalogStore(path: path)).run(plan)
        precondition(reports.allSatisfy { $0.status == .applied })
        return reports.reduce(0) { $0 + $1.rows }
    }
}
