import EPFTestSupport
import Foundation
import Testing

/// `epf lake views --engine duckdb|spark|trino` on the lake of the sample
/// feeds: the SQL each engine is given (DuckDB's and Spark's are run on
/// lakes by `LakeImportTests`, `LakeFeedDaysTests` and `LakeSparkTests`).
@Suite struct LakeViewsCommandTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.create("epf-lake-views") }

    func run(_ arguments: [String]) throws -> EPFRunner.Result { try EPFRunner.run(arguments, in: folder) }

    func importedLake() throws -> String {
        let lake = folder.appendingPathComponent("lake").path
        let imported = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(imported.status == 0, "\(imported.stderr)")
        return lake
    }

    @Test func duckDBViewsAreTheViewsFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = try importedLake()
        let views = try run(["lake", "views", "--lake", lake, "--engine", "duckdb"])
        #expect(views.status == 0, "\(views.stderr)")
        let file = try String(contentsOfFile: lake + "/_epf/views.sql", encoding: .utf8)
        #expect(file.hasSuffix(views.stdout))
        #expect(views.stdout.components(separatedBy: "CREATE OR REPLACE VIEW").count - 1 == 11)
        let root = URL(fileURLWithPath: lake).standardizedFileURL.path
        #expect(views.stdout.contains("read_parquet('\(root)/application/*/*/*.parquet', hive_partitioning = false"))
        #expect(views.stdout.contains("PARTITION BY \"application_id\", \"storefront_id\""))
    }

    @Test func sparkViewsReadTheFilesWithTheirPaths() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = try importedLake()
        let views = try run(["lake", "views", "--lake", lake, "--engine", "spark", "--location", "s3a://bucket/lake/"])
        #expect(views.status == 0, "\(views.stderr)")
        #expect(views.stdout.hasPrefix("SET spark.sql.parquet.mergeSchema = true;\n"))
        #expect(
            views.stdout.contains(
                "CREATE OR REPLACE TEMP VIEW `application_files` AS SELECT *, _metadata.file_path AS _epf_path, _metadata.row_index AS _epf_position FROM parquet.`s3a://bucket/lake/application/*/*/*.parquet`;"
            ))
        #expect(views.stdout.contains("CREATE OR REPLACE TEMP VIEW `application_current` AS"))
        #expect(!views.stdout.contains(lake))
    }

    /// Trino: a Hive connector table per lake table with the lake's types,
    /// partitioned by export_date and mode, its partitions synced, then the view.
    @Test func trinoGetsTablesOverTheFoldersAndViews() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = try importedLake()
        let views = try run(["lake", "views", "--lake", lake, "--engine", "trino", "--schema", "lake.epf"])
        #expect(views.status == 0, "\(views.stderr)")
        let root = URL(fileURLWithPath: lake).standardizedFileURL.path
        #expect(views.stdout.hasPrefix("CREATE SCHEMA IF NOT EXISTS lake.epf;\n"))
        let price = """
            CREATE TABLE IF NOT EXISTS lake.epf."application_price" (
              "application_id" INTEGER,
              "retail_price" DECIMAL(18, 3),
              "currency_code" VARCHAR,
              "storefront_id" INTEGER,
              "export_date" VARCHAR,
              "mode" VARCHAR
            ) WITH (external_location = 'file://\(root)/application_price', format = 'PARQUET', partitioned_by = ARRAY['export_date', 'mode']);
            """
        #expect(views.stdout.contains(price), "\(views.stdout)")
        #expect(views.stdout.contains("\"itunes_release_date\" TIMESTAMP(3) WITH TIME ZONE,"))
        #expect(views.stdout.contains("\"download_size\" BIGINT,"))
        #expect(views.stdout.contains("CALL lake.system.sync_partition_metadata('epf', 'application_price', 'FULL');"))
        #expect(views.stdout.contains("CREATE OR REPLACE VIEW lake.epf.\"application_price_current\" AS"))
        #expect(views.stdout.contains("ORDER BY _epf_day DESC, _epf_mode DESC)"))
    }

    @Test func usageErrorsAndAFolderThatIsNoLake() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let noEngine = try run(["lake", "views", "--lake", folder.path])
        #expect(noEngine.status == 64)
        let badEngine = try run(["lake", "views", "--lake", folder.path, "--engine", "hive"])
        #expect(badEngine.status == 64)
        #expect(badEngine.stderr.contains("'duckdb', 'spark' or 'trino'"))
        let schema = try run(["lake", "views", "--lake", folder.path, "--engine", "spark", "--schema", "hive.epf"])
        #expect(schema.status == 64)
        #expect(schema.stderr.contains("--schema is for --engine trino only"))
        let notLake = try run(["lake", "views", "--lake", folder.path, "--engine", "duckdb"])
        #expect(notLake.status == 1)
        #expect(notLake.stdout.isEmpty)
        #expect(notLake.stderr.contains("is not a lake: it has no \(folder.path)/_epf/journal.jsonl"), "\(notLake.stderr)")
    }
}
