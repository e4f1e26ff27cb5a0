import EPFTestSupport
import Foundation
import Testing

/// DuckDB and pyarrow (readers nobody here wrote) run on a lake, through
/// `ReaderPython`.
enum LakeReaders {
    /// What DuckDB and pyarrow read from a lake and a SQLite catalog of the
    /// same import.
    struct Comparison: Decodable {
        struct Table: Decodable {
            /// `<table>_current` of `views.sql`, rows and columns.
            var lakeRows: Int
            var sqliteRows: Int
            var lakeColumns: [String]
            var sqliteColumns: [String]
            /// Rows (normalised to text) of one side missing from the other.
            var onlyInLake: [String]
            var onlyInSQLite: [String]
        }
        var tables: [String: Table]
        /// Rows per `<table>/export_date=.../mode=...` partition, read with
        /// `hive_partitioning` over `DIR/*/*/*/*.parquet`.
        var partitionRows: [String: Int]
        /// Row groups per partition (pyarrow).
        var rowGroups: [String: Int]
        /// Parquet type (pyarrow) of some columns: `table.column`.
        var types: [String: String]
    }

    /// Python shared by the reader scripts: `compare(lake_cols, lake_rows,
    /// db, table)` compares a view's rows, value by value, with the same
    /// table of the SQLite catalog `db`: NULL as NULL, integers and booleans
    /// as integers, decimals as the nearest double (the SQLite catalog
    /// stores doubles), dates as `YYYY-MM-DD HH:MM:SS` UTC, text as it is.
    static let comparison = #"""
        import datetime, decimal, json, sqlite3, sys
        from collections import Counter

        def norm(v, like):
            if v is None: return None
            if isinstance(v, bool): return int(v)
            if isinstance(v, decimal.Decimal): return repr(float(v))
            if isinstance(v, float): return repr(v)
            if isinstance(v, datetime.datetime):
                if v.tzinfo is not None: v = v.astimezone(datetime.timezone.utc)
                return v.strftime("%Y-%m-%d %H:%M:%S")
            if isinstance(v, str) and isinstance(like, datetime.datetime) and len(v) == 10: return v + " 00:00:00"
            if isinstance(v, int) and isinstance(like, (decimal.Decimal, float)): return repr(float(v))
            return v

        def compare(lake_cols, lake_rows, db, table):
            scur = db.execute(f'SELECT * FROM "{table}"')
            sql_cols = [d[0] for d in scur.description]
            sql_rows = scur.fetchall()
            # A type sample per column, from the lake's rows.
            sample = [next((r[i] for r in lake_rows if r[i] is not None), None) for i in range(len(lake_cols))]
            index = {c: i for i, c in enumerate(lake_cols)}
            # Every column but export_date: the catalog keeps a row's date of
            # the export that gave it its values (an INCREMENTAL row the same
            # but for its date is not written), the lake's view the newest
            # export that held it (docs/lake.md).
            def lake_text(r):
                return json.dumps([norm(v, v) for c, v in zip(lake_cols, r) if c != "export_date"], sort_keys=True)
            def sql_text(r):
                return json.dumps(
                    [norm(v, sample[index[c]] if c in index else None) for c, v in zip(sql_cols, r) if c != "export_date"],
                    sort_keys=True)
            ca, cb = Counter(lake_text(r) for r in lake_rows), Counter(sql_text(r) for r in sql_rows)
            return {
                "lakeRows": len(lake_rows), "sqliteRows": len(sql_rows),
                "lakeColumns": list(lake_cols), "sqliteColumns": sql_cols,
                "onlyInLake": sorted((ca - cb).elements())[:5], "onlyInSQLite": sorted((cb - ca).elements())[:5]}

        """#

    /// Reads every table of the lake's journal through `views.sql` with
    /// DuckDB and compares it with the catalog at `sqlite` (`comparison`);
    /// the rows of each partition through `hive_partitioning`; row groups
    /// and some columns' types with pyarrow.
    static let compareScript =
        comparison + #"""
            import duckdb, pyarrow.parquet as pq
            lake, catalog = sys.argv[1], sys.argv[2]
            journal = [json.loads(l) for l in open(lake + "/_epf/journal.jsonl") if l.strip()]
            con = duckdb.connect()
            con.execute("SET TimeZone = 'UTC'")
            con.execute(open(lake + "/_epf/views.sql").read())
            db = sqlite3.connect(catalog)

            out = {"tables": {}, "partitionRows": {}, "rowGroups": {}, "types": {}}
            for table in sorted({j["table"] for j in journal}):
                # Through Arrow: DuckDB's own conversion of zoned timestamps needs pytz.
                arrow = con.sql(f'SELECT * FROM "{table}_current"').to_arrow_table()
                out["tables"][table] = compare(arrow.column_names, [tuple(r[c] for c in arrow.column_names) for r in arrow.to_pylist()], db, table)
            rows = con.execute(
                f"SELECT regexp_extract(filename, '([^/]+)/export_date=', 1) || '/export_date=' || strftime(export_date, '%Y-%m-%d') || '/mode=' || mode, count(*) "
                f"FROM read_parquet('{lake}/*/*/*/*.parquet', hive_partitioning = true, union_by_name = true, filename = true) GROUP BY 1").fetchall()
            out["partitionRows"] = {k: n for k, n in rows}
            out["rowGroups"] = {j["partition"]: pq.ParquetFile(lake + "/" + j["partition"] + "/part-00000.parquet").num_row_groups for j in journal}
            for table, column in [("application", "application_id"), ("application", "export_date"), ("application", "itunes_release_date"),
                                  ("application", "title"), ("application_price", "retail_price"), ("application_price", "storefront_id"),
                                  ("storefront", "country_code")]:
                j = next((j for j in journal if j["table"] == table), None)
                if j is None: continue
                schema = pq.read_schema(lake + "/" + j["partition"] + "/part-00000.parquet")
                out["types"][table + "." + column] = str(schema.field(column).type)
            print(json.dumps(out))
            """#

    /// PySpark in local mode (2 threads, 512 MB, no UI): runs the SQL of
    /// `epf lake views --engine spark` (the file `views`), reads every
    /// `<table>_current` and compares it with the catalog at `sqlite`
    /// (`comparison`), and counts each partition's rows as Spark's own
    /// partition discovery reads the table's folder.
    static let sparkScript =
        comparison + #"""
            import os, time
            os.environ["TZ"] = "UTC"; time.tzset()  # Python's datetimes from Spark's timestamps
            from pyspark.sql import SparkSession
            lake, catalog, views = sys.argv[1], sys.argv[2], sys.argv[3]
            spark = (SparkSession.builder.master("local[2]").appName("epf-lake-test")
                     .config("spark.ui.enabled", "false").config("spark.driver.memory", "512m")
                     .config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate())
            spark.sparkContext.setLogLevel("ERROR")
            for statement in open(views).read().split(";\n"):
                if statement.strip(): spark.sql(statement)
            journal = [json.loads(l) for l in open(lake + "/_epf/journal.jsonl") if l.strip()]
            db = sqlite3.connect(catalog)
            out = {"tables": {}, "partitionRows": {}, "rowGroups": {}, "types": {}}
            for table in sorted({j["table"] for j in journal}):
                frame = spark.table(f"`{table}_current`")
                out["tables"][table] = compare(frame.columns, [tuple(r) for r in frame.collect()], db, table)
                for r in spark.read.parquet(f"{lake}/{table}").groupBy("export_date", "mode").count().collect():
                    out["partitionRows"][f"{table}/export_date={r['export_date'].isoformat()}/mode={r['mode']}"] = r["count"]
            spark.stop()
            print(json.dumps(out))
            """#

    /// What a (possibly killed) lake shows DuckDB: the rows of every file
    /// the `*.parquet` glob finds, by partition (one read of them all with
    /// `hive_partitioning`: a file without its footer would fail it), and
    /// each view of `views.sql` (when there is one) as its row count and an
    /// md5 of its sorted rows.
    struct Sight: Decodable, Equatable {
        var partitionRows: [String: Int]
        var current: [String: String]
    }

    static let sightScript = #"""
        import duckdb, glob, hashlib, json, os, sys
        lake = sys.argv[1]
        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        out = {"partitionRows": {}, "current": {}}
        if glob.glob(lake + "/*/*/*/*.parquet"):
            rows = con.execute(
                f"SELECT regexp_extract(filename, '([^/]+/export_date=[^/]+/mode=[^/]+)/[^/]+$', 1), count(*) "
                f"FROM read_parquet('{lake}/*/*/*/*.parquet', hive_partitioning = true, union_by_name = true, filename = true) GROUP BY 1").fetchall()
            out["partitionRows"] = {k: n for k, n in rows}
        if os.path.exists(lake + "/_epf/views.sql"):
            con.execute(open(lake + "/_epf/views.sql").read())
            for (name,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall():
                rows = sorted(json.dumps(r, sort_keys=True, default=str) for r in con.sql(f'SELECT * FROM "{name}"').to_arrow_table().to_pylist())
                out["current"][name] = f"{len(rows)}:" + hashlib.md5("\n".join(rows).encode()).hexdigest()
        print(json.dumps(out))
        """#

    static func sight(lake: String) throws -> Sight {
        try JSONDecoder().decode(Sight.self, from: ReaderPython.run(sightScript, [lake]))
    }

    static func compare(lake: String, sqlite: String) throws -> Comparison {
        try JSONDecoder().decode(Comparison.self, from: ReaderPython.run(compareScript, [lake, sqlite]))
    }

    static func spark(lake: String, sqlite: String, views: String) throws -> Comparison {
        try JSONDecoder().decode(Comparison.self, from: ReaderPython.run(sparkScript, [lake, sqlite, views]))
    }

    /// The lines of the lake's journal, as JSON objects.
    static func journal(_ lake: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: lake + "/_epf/journal.jsonl", encoding: .utf8)
        return try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Expects what a reader read to be the catalog's: every table of the
    /// journal there, equal value by value, and every partition holding the
    /// rows the journal lists for it.
    static func expectSame(_ read: Comparison, journal: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(Set(read.tables.keys) == Set(journal.compactMap { $0["table"] as? String }), sourceLocation: sourceLocation)
        for (table, result) in read.tables.sorted(by: { $0.key < $1.key }) {
            #expect(result.lakeColumns == result.sqliteColumns, "\(table)", sourceLocation: sourceLocation)
            #expect(result.lakeRows == result.sqliteRows, "\(table)", sourceLocation: sourceLocation)
            #expect(
                result.onlyInLake.isEmpty && result.onlyInSQLite.isEmpty,
                "\(table): lake \(result.onlyInLake) sqlite \(result.onlyInSQLite)",
                sourceLocation: sourceLocation)
        }
        var expected: [String: Int] = [:]
        for line in journal {
            expected[try #require(line["partition"] as? String), default: 0] += try #require(line["rows"] as? Int)
        }
        #expect(read.partitionRows == expected, sourceLocation: sourceLocation)
    }
}
