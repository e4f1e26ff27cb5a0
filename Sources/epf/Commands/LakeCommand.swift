import ArgumentParser
import EPFCatalog
import EPFLake

extension LakeEngine: ExpressibleByArgument {}

/// `epf lake`: what epf tells about a Parquet lake it imported into.
struct LakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lake",
        abstract: "Work with a Parquet lake (epf import --lake DIR).",
        subcommands: [LakeViewsCommand.self])
}

/// `epf lake views --lake DIR --engine duckdb|spark|trino`
struct LakeViewsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "views",
        abstract: "Print the SQL that defines <table>_current over the lake for a query engine.",
        discussion: """
            <table>_current is the table as a catalog holds it: the newest FULL day plus the \
            INCREMENTAL days after it, the last row of each key winning. Days and modes are \
            read from the partition paths, so the views stay right as days are added. DuckDB: \
            read_parquet (also in DIR/_epf/views.sql); Spark SQL: temporary views; Trino: a \
            Hive table per lake table and the view. See docs/lake.md.
            """)

    @Option(name: .long, help: ArgumentHelp("The lake's folder.", valueName: "dir"))
    var lake: String

    @Option(name: .long, help: "The engine the SQL is for.")
    var engine: LakeEngine

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where the engine finds the lake if not at DIR (s3://bucket/lake); default: DIR's absolute path.", valueName: "uri"))
    var location: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Trino only: the catalog.schema of the tables and views (default: hive.epf).", valueName: "catalog.schema"))
    var schema: String?

    func validate() throws {
        if lake.isEmpty { throw ValidationError("--lake needs a folder.") }
        if schema != nil && engine != .trino { throw ValidationError("--schema is for --engine trino only.") }
        if let schema, schema.split(separator: ".", omittingEmptySubsequences: false).count != 2 {
            throw ValidationError("--schema takes catalog.schema, e.g. hive.epf.")
        }
        if location?.isEmpty == true { throw ValidationError("--location needs a folder or URI.") }
    }

    func run() throws {
        let trimmed = location.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        Console.out(
            try Console.exitOnFailure("lake views") {
                try LakeViews.sql(lake: lake, engine: engine, location: trimmed, schema: engine == .trino ? schema ?? "hive.epf" : nil)
            })
    }
}
