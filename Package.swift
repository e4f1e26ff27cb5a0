// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "epf-importer",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "epf", targets: ["epf"]),
        .executable(name: "epf-server", targets: ["epf-server"]),
        // The libraries a user imports (docs/DESIGN.md, "Access: public and
        // package"); EPFInput, EPFSynthetic and EPFParquet are products for
        // the benchmark package (Benchmarks/), which uses their SPI.
        .library(name: "EPFFormat", targets: ["EPFFormat"]),
        .library(name: "EPFInput", targets: ["EPFInput"]),
        .library(name: "EPFCatalog", targets: ["EPFCatalog"]),
        // The catalog's parts, for a program that needs one side only (a
        // reader that links no store: EPFCatalogRead); EPFCatalogStore also
        // for the loader benchmark's SPI.
        .library(name: "EPFCatalogCore", targets: ["EPFCatalogCore"]),
        .library(name: "EPFCatalogRead", targets: ["EPFCatalogRead"]),
        .library(name: "EPFCatalogStore", targets: ["EPFCatalogStore"]),
        .library(name: "EPFSQLiteReader", targets: ["EPFSQLiteReader"]),
        .library(name: "EPFSQLite", targets: ["EPFSQLite"]),
        .library(name: "EPFImport", targets: ["EPFImport"]),
        .library(name: "EPFSynthetic", targets: ["EPFSynthetic"]),
        .library(name: "EPFPostgresReader", targets: ["EPFPostgresReader"]),
        .library(name: "EPFPostgres", targets: ["EPFPostgres"]),
        .library(name: "EPFParquet", targets: ["EPFParquet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (DocC): a command plugin,
        // nothing of it is built into the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTTP server (`epf-server` only: `epf` builds none of it).
        // No traits: swift-configuration's reader is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // `epf-server`'s /metrics: Prometheus's text format from a registry
        // of counters, gauges and histograms (built on swift-metrics).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // HTTP parts as Hummingbird's pipeline carries them (the /lookup
        // handler on the event loop); both are Hummingbird's own dependencies.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // System C libraries (Debian: libsqlite3-dev, zlib1g-dev, libbz2-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),

        // Debian: libbz2-dev (no pkg-config file).
        .systemLibrary(
            name: "CBZip2",
            providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]
        ),

        // Debian: libpq-dev (PostgreSQL's client library).
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),

        // Debian: libzstd-dev (Parquet pages compressed with zstd).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),

        // The file format: bytes in, header and records out.
        .target(name: "EPFFormat"),
        // Where bytes come from: mapped files, compressed streams, folders.
        .target(name: "EPFInput", dependencies: ["EPFFormat", "CZlib", "CBZip2"]),
        // Search: the tokenizer (SQLite's FTS5 unicode61 rules in Swift,
        // over tables read off SQLite, so the PostgreSQL index holds the
        // SQLite index's words and links no SQLite), the query, the order
        // and the ranking. Imports nothing of ours; the SQL is the catalog's
        // read engine's and the backends'.
        .target(name: "EPFTextSearch"),
        // The catalog, backend-neutral, in three modules along the line
        // between reading and writing (as HummingbirdCore and Hummingbird):
        // the model both sides share (errors, timestamps, storefront sets,
        // the catalog's table names, SQL values),
        .target(name: "EPFCatalogCore", dependencies: ["EPFFormat", "EPFTextSearch"]),
        // the read side (the reader protocols, the read engine, the result
        // model: Search API JSON, charts, the journal as read): what
        // epf-server links,
        .target(name: "EPFCatalogRead", dependencies: ["EPFCatalogCore", "EPFTextSearch"]),
        // and the store side (the store protocol, loads, checkpoints, the
        // journal as written, migrations, the import lock, the algorithms
        // every SQL store shares): what the stores and the importer link.
        .target(name: "EPFCatalogStore", dependencies: ["EPFCatalogCore", "EPFCatalogRead", "EPFFormat"]),
        // `import EPFCatalog`: the three at once, for library users.
        .target(name: "EPFCatalog", dependencies: ["EPFCatalogCore", "EPFCatalogRead", "EPFCatalogStore"]),
        // Reading a SQLite catalog: connection, statements, rows, the read
        // source (`Catalog(path:)`, `SQLiteCatalogAdmin`), the search index's
        // version check. No store: epf-server reads through it alone.
        .target(name: "EPFSQLiteReader", dependencies: ["EPFCatalogRead", "EPFTextSearch", "CSQLite"]),
        // The SQLite store: loader, FTS5 index upkeep, WAL checkpoints,
        // `epf verify`'s key check; re-exports EPFSQLiteReader.
        .target(name: "EPFSQLite", dependencies: ["EPFSQLiteReader", "EPFFormat", "EPFCatalogStore", "EPFTextSearch", "CSQLite"]),
        // Reading a PostgreSQL catalog: libpq connection and pipeline, rows,
        // URLs (`PostgresTarget`), the read source (`Catalog(target:)`,
        // `PostgresCatalogAdmin`), the search index's tsquery. No store.
        .target(name: "EPFPostgresReader", dependencies: ["EPFCatalogRead", "EPFTextSearch", "CLibPQ"]),
        // The PostgreSQL store: same protocol, COPY through libpq (the
        // connection's write methods are the store's), tsvector index
        // upkeep; re-exports EPFPostgresReader.
        .target(name: "EPFPostgres", dependencies: ["EPFPostgresReader", "EPFFormat", "EPFCatalogStore", "EPFTextSearch", "CLibPQ"]),
        // Deterministic synthetic feeds for benchmarks and stress tests.
        .target(name: "EPFSynthetic", dependencies: ["EPFFormat", "EPFCatalog", "EPFReport"]),
        // What the tools print, as text: rows as an aligned table, CSV or
        // JSON; counts, bytes and durations for people; status lines.
        .target(name: "EPFReport", dependencies: ["EPFCatalogRead"]),
        // The pipeline: plan, parse, load; progress as values, and as text.
        .target(name: "EPFImport", dependencies: ["EPFFormat", "EPFInput", "EPFCatalogStore", "EPFReport"]),
        // The EPF server client: listings, the remote plan (EPFImport's
        // rules), ranged resumable downloads checked by md5. HTTP through
        // the toolchain's FoundationNetworking: no package to build.
        .target(name: "EPFFetch", dependencies: ["EPFImport", "EPFInput", "EPFCatalog", "EPFReport"]),
        // Where a catalog is (`--db`): with EPFStores, one of the two
        // modules above the backends that name them; this one names their
        // readers. `epf`, `epf-server` and EPFServer open catalogs through
        // it to read them. It links the readers only: no store, no lake (no
        // Parquet, no zstd).
        .target(name: "EPFLocation", dependencies: ["EPFCatalogRead", "EPFSQLiteReader", "EPFPostgresReader"]),
        // The stores of a location (`openStore`: SQLite, PostgreSQL, the
        // lake), for the commands that write: the other module that names
        // the backends, kept apart so that epf-server links no store. Only
        // `epf` links it.
        .target(name: "EPFStores", dependencies: ["EPFLocation", "EPFCatalogStore", "EPFSQLite", "EPFPostgres", "EPFLake"]),
        // HTTP: /lookup, /search and /health over the read engine
        // (Hummingbird); SQLite reads on the event loops, PostgreSQL reads on
        // threads of their own.
        .target(
            name: "EPFServer",
            dependencies: [
                "EPFCatalogRead", "EPFLocation", "EPFReport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The server's command line: options, logging, exit codes.
        .executableTarget(
            name: "epf-server",
            dependencies: [
                "EPFServer", "EPFLocation", "EPFCatalogRead", "EPFReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The lake's file format: a Parquet writer (Thrift compact footer,
        // data pages v1, RLE/bit-packed levels, dictionary, statistics, zstd).
        .target(name: "EPFParquet", dependencies: ["CZstd"]),
        // The lake store: one Hive partition of Parquet per applied table
        // file, a JSON-lines journal, DuckDB views of the current tables.
        .target(name: "EPFLake", dependencies: ["EPFParquet", "EPFCatalogStore", "EPFFormat"]),
        // The command line.
        .executableTarget(
            name: "epf",
            dependencies: [
                "EPFFormat", "EPFCatalog", "EPFLocation", "EPFStores", "EPFLake", "EPFImport", "EPFSynthetic", "EPFFetch",
                "EPFReport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Helpers the test targets share: temporary folders, the sample
        // feeds, EPF file bytes, the epf and shell runners, crash-test kills,
        // a seeded generator (EPFSynthetic's SplitMix64); under SQLite/, a
        // raw SQLite reader (the one part that needs CSQLite).
        .target(name: "EPFTestSupport", dependencies: ["EPFSynthetic", "CSQLite"], path: "Tests/EPFTestSupport"),

        .testTarget(name: "EPFFormatTests", dependencies: ["EPFFormat", "EPFTestSupport"]),
        .testTarget(name: "EPFParquetTests", dependencies: ["EPFParquet", "EPFTestSupport"]),
        .testTarget(name: "EPFLakeTests", dependencies: ["EPFLake", "EPFCatalog", "EPFFormat", "EPFTestSupport", "epf"]),
        .testTarget(name: "EPFInputTests", dependencies: ["EPFInput", "EPFFormat", "CBZip2", "EPFTestSupport"]),
        // Search without a database: EPFTextSearch alone. (The tests that
        // hold it to SQLite's FTS5 are EPFCatalogTests'.)
        .testTarget(name: "EPFTextSearchTests", dependencies: ["EPFTextSearch"]),
        .testTarget(
            name: "EPFCatalogTests", dependencies: ["EPFCatalog", "EPFSQLite", "EPFTextSearch", "EPFFormat", "CSQLite", "EPFTestSupport"]),
        .testTarget(
            name: "EPFImportTests",
            dependencies: ["EPFImport", "EPFCatalog", "EPFSQLite", "EPFInput", "EPFFormat", "EPFSynthetic", "EPFTestSupport"]),
        .testTarget(name: "EPFFetchTests", dependencies: ["EPFFetch", "EPFImport", "EPFInput", "EPFReport", "EPFTestSupport"]),
        .testTarget(name: "EPFCLITests", dependencies: ["epf", "EPFCatalog", "EPFSQLite", "EPFSynthetic", "EPFReport", "EPFTestSupport"]),
        .testTarget(
            name: "EPFServerTests",
            dependencies: [
                "EPFServer", "EPFLocation", "EPFCatalog", "EPFPostgres", "EPFTestSupport", "epf", "epf-server",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // promtool's unit tests of docs/alerts.yml, which PrometheusTests runs.
            exclude: ["alerts-test.yml"]),
        .testTarget(
            name: "EPFPostgresTests",
            dependencies: [
                "EPFPostgres", "EPFImport", "EPFCatalog", "EPFSQLite", "EPFInput", "EPFFormat", "EPFSynthetic", "CLibPQ", "EPFTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
