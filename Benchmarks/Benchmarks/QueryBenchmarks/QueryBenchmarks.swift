import Benchmark
import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import Foundation

/// The query API on a catalog of generated applications with prices (5
/// storefronts), genres, artists, devices and the popularity charts (the
/// top 200 of 16 genres in 175 storefronts, 560,000 rows): 1,000,000
/// applications by default (`EPF_QUERY_ROWS`), built once and kept in
/// `$TMPDIR/epf-query-bench-v2-ROWS/` (`EPF_QUERY_CATALOG` names another).
///
/// Each iteration is one question, so the percentiles are per question.
/// Targets on 1M applications: lookup p50 under 50 µs; a one-word search
/// (tens of thousands of matches, the storefront's chart first) p50 under
/// 5 ms and p99 under 20 ms; `epf lookup` as a whole process under 50 ms.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .seconds(20),
        maxIterations: 1000,
        thresholds: [
            .wallClock: .init(relative: [.p50: 60, .p90: 100]),
            .mallocCountTotal: .init(relative: [.p50: 10, .p90: 10]),
        ])

    let setup = QueryCatalog.shared
    // Lookup by Apple ID, joins and JSON (`jsonBytes`, as `epf lookup` prints it) included.
    Benchmark("Query.lookup.id") { benchmark in
        let ids = setup.randomIDs
        let catalog = setup.catalog
        let storefront = try catalog.storefront(for: "US")
        for iteration in benchmark.scaledIterations {
            let response = try catalog.lookup(ids: [ids[iteration % ids.count]], in: storefront)
            blackHole(response.jsonBytes())
        }
    }
    // The same lookups without the JSON: what the joins cost alone.
    Benchmark("Query.lookup.id.withoutJSON") { benchmark in
        let ids = setup.randomIDs
        let catalog = setup.catalog
        let storefront = try catalog.storefront(for: "US")
        for iteration in benchmark.scaledIterations {
            blackHole(try catalog.lookup(ids: [ids[iteration % ids.count]], in: storefront))
        }
    }
    // Search by one word of the title vocabulary (each in about 85,000 of
    // 1M titles), limit 20, JSON included: the US chart's matches first.
    Benchmark("Query.search.word") { benchmark in
        let words = setup.randomWords
        let catalog = setup.catalog
        let storefront = try catalog.storefront(for: "US")
        for iteration in benchmark.scaledIterations {
            let response = try catalog.search(term: words[iteration % words.count], in: storefront, limit: 20)
            blackHole(response.jsonBytes())
        }
    }
    // `epf lookup ID` as a whole process. Registered only when the root
    // package has a release build (`swift build -c release` there makes
    // .build/release/epf): without it there is nothing to time.
    guard let epf = setup.releaseBinary else {
        print("Query.lookup.process left out: no .build/release/epf in the root package (run swift build -c release there)")
        return
    }
    Benchmark(
        "Query.lookup.process",
        configuration: .init(metrics: [.wallClock], timeUnits: .milliseconds, warmupIterations: 2, maxIterations: 50)
    ) { benchmark in
        for iteration in benchmark.scaledIterations {
            let process = Process()
            process.executableURL = epf
            process.arguments = ["lookup", "--db", setup.path, String(setup.randomIDs[iteration % setup.randomIDs.count])]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            precondition(process.terminationStatus == 0, "epf lookup failed")
        }
    }
}

/// The benchmark catalog, built on first use.
final class QueryCatalog: @unchecked Sendable {
    static let shared = QueryCatalog()

    let path: String
    let catalog: Catalog
    /// 1,000 Apple IDs of the catalog, in random order.
    let randomIDs: [Int64]
    /// 1,000 words drawn from the title vocabulary.
    let randomWords: [String]
    let releaseBinary: URL?

    private init() {
        let environment = ProcessInfo.processInfo.environment
        let rows = environment["EPF_QUERY_ROWS"].flatMap(Int.init) ?? 1_000_000
        let generator = FeedGenerator(rows: rows, seed: 7, storefronts: 5)
        if let given = environment["EPF_QUERY_CATALOG"] {
            path = given
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-query-bench-v2-\(rows)")
            path = folder.appendingPathComponent("catalog.sqlite").path
            if !FileManager.default.fileExists(atPath: path) {
                Self.build(generator, in: folder, catalog: path)
            }
        }
        catalog = try! Catalog(path: path)
        var random = SplitMix64(seed: 42)
        randomIDs = (0..<1000).map { _ in Int64(generator.applicationID(Int(random.next() % UInt64(rows)))) }
        randomWords = (0..<1000).map { _ in
            String(decoding: FeedGenerator.titleWords[Int(random.next() % UInt64(FeedGenerator.titleWords.count))], as: UTF8.self)
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let binary = root.appendingPathComponent(".build/release/epf")
        releaseBinary = FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
    }

    private static func build(_ generator: FeedGenerator, in folder: URL, catalog: String) {
        print("Building the query benchmark catalog (\(generator.rows) applications) in \(folder.path) ...")
        let feed = folder.appendingPathComponent("itunes20261201").path
        try! FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        try! generator.writeApplication(to: feed)
        try! generator.writePrices(to: feed)
        try! generator.writeCatalogTables(to: feed)
        try! generator.writePopularity(to: feed)
        let plan = try! ImportPlanner.plan(paths: [feed], filter: TableFilter())
        let reports = PlanRunner(store: try! SQLiteCatalogStore(path: catalog)).run(plan)
        precondition(reports.allSatisfy { $0.status == .applied }, "the benchmark catalog did not import")
        try? FileManager.default.removeItem(atPath: feed)
    }
}
