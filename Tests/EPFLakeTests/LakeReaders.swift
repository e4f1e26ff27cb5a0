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

    /// Reads every table of the lake's journal through `views.sql` and
    /// compares it value by value with the same table of the catalog at
    /// `sqlite`: NULL as NULL, integers and booleans as integers, decimals
    /// as the nearest double (the SQLite catalog stores doubles), dates as
    /// `YYYY-MM-DD HH:MM:SS` UTC, text as it is.
    static let compareScript = #"""
        import datetime, decimal, json, sqlite3, sys
        import duckdb, pyarrow.parquet as pq
        lake, catalog = sys.argv[1], sys.argv[2]
        journal = [json.loads(l) for l in open(lake + "/_epf/journal.jsonl") if l.strip()]
        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        con.execute(open(lake + "/_epf/views.sql").read())
        db = sqlite3.connect(catalog)

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

        out = {"tables": {}, "partitionRows": {}, "rowGroups": {}, "types": {}}
        for table in sorted({j["table"] for j in journal}):
            # Through Arrow: DuckDB's own conversion of zoned timestamps needs pytz.
            arrow = con.sql(f'SELECT * FROM "{table}_current"').to_arrow_table()
            lake_cols = arrow.column_names
            lake_rows = [tuple(r[c] for c in lake_cols) for r in arrow.to_pylist()]
            scur = db.execute(f'SELECT * FROM "{table}"')
            sql_cols = [d[0] for d in scur.description]
            sql_rows = scur.fetchall()
            # A type sample per column, from the lake's rows.
            sample = [next((r[i] for r in lake_rows if r[i] is not None), None) for i in range(len(lake_cols))]
            index = {c: i for i, c in enumerate(lake_cols)}
            def lake_text(r): return json.dumps([norm(v, v) for v in r], sort_keys=True)
            def sql_text(r):
                return json.dumps([norm(v, sample[index[c]] if c in index else None) for c, v in zip(sql_cols, r)], sort_keys=True)
            a = sorted(lake_text(r) for r in lake_rows)
            b = sorted(sql_text(r) for r in sql_rows)
            from collections import Counter
            ca, cb = Counter(a), Counter(b)
            out["tables"][table] = {
                "lakeRows": len(lake_rows), "sqliteRows": len(sql_rows),
                "lakeColumns": lake_cols, "sqliteColumns": sql_cols,
                "onlyInLake": sorted((ca - cb).elements())[:5], "onlyInSQLite": sorted((cb - ca).elements())[:5]}
        rows = con.execute(
            f"SELECT regexp_extract(filename, '([^/]+)/export_date=', 1) || '/export_date=' || strftime(export_date, '%Y-%m-%d') || '/mode=' || mode, count(*) "
            f"FROM read_parquet('{lake}/*/*/*/*.parquet', hive_partitioning = true, union_by_name = true, filename = true) GROUP BY 1").fetchall()
        out["partitionRows"] = {k: n for k, n in rows}
        out["rowGroups"] = {j["partition"]: pq.ParquetFile(lake + "/" + j["partition"] + "/part-00000.parquet").num_row_groups for j in journal}
        for table, column in [("application", "application_id"), ("application", "export_date"), ("application", "itunes_release_date"),
                              ("application", "title"), ("application_price", "retail_price"), ("application_price", "storefront_id"),
                              ("storefront", "country_code")]:
            j = next(j for j in journal if j["table"] == table)
            schema = pq.read_schema(lake + "/" + j["partition"] + "/part-00000.parquet")
            out["types"][table + "." + column] = str(schema.field(column).type)
        print(json.dumps(out))
        """#

    static func compare(lake: String, sqlite: String) throws -> Comparison {
        try JSONDecoder().decode(Comparison.self, from: ReaderPython.run(compareScript, [lake, sqlite]))
    }
}
