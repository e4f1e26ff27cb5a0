// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The root package is a path dependency; its identity is its folder's name,
// which is whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let benchmark = Target.Dependency.product(name: "Benchmark", package: "benchmark")
let plugins: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "epf-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFFormat", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/ParserBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "LoaderBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFFormat", package: root),
                .product(name: "EPFCatalog", package: root),
                .product(name: "EPFCatalogStore", package: root),
                .product(name: "EPFSQLite", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/LoaderBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "InputBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFInput", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/InputBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "ImportBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFImport", package: root),
                .product(name: "EPFCatalog", package: root),
                .product(name: "EPFSQLite", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/ImportBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "QueryBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFImport", package: root),
                .product(name: "EPFCatalog", package: root),
                .product(name: "EPFSQLite", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/QueryBenchmarks",
            plugins: plugins
        ),
        .executableTarget(
            name: "ParquetBenchmarks",
            dependencies: [
                benchmark,
                .product(name: "EPFParquet", package: root),
                .product(name: "EPFSynthetic", package: root),
            ],
            path: "Benchmarks/ParquetBenchmarks",
            plugins: plugins
        ),
    ]
)
