import EPFTestSupport
import Foundation
import Testing

/// Two Parquet readers nobody here wrote, pyarrow (Arrow's C++ reader) and
/// DuckDB (its own), run on the files the tests write, through
/// `ReaderPython`.
enum PythonReaders {
    /// What pyarrow reads from a file: every value as text (NULL as nil),
    /// the Arrow and the Parquet schema, and each column chunk's metadata.
    struct File: Decodable {
        struct Field: Decodable, Equatable {
            var name: String
            var type: String
            var nullable: Bool
        }
        struct ParquetColumn: Decodable, Equatable {
            var name: String
            var physicalType: String
            var logicalType: String
            var convertedType: String
            var maxDefinitionLevel: Int
        }
        struct Chunk: Decodable, Equatable {
            var column: String
            var numValues: Int
            var nullCount: Int?
            var hasMinMax: Bool
            var min: String?
            var max: String?
            var encodings: [String]
            var hasDictionaryPage: Bool
            var compression: String
        }
        var pyarrowVersion: String
        var createdBy: String
        var formatVersion: String
        var numRows: Int
        var fields: [Field]
        var parquetColumns: [ParquetColumn]
        var columns: [String: [String?]]
        var rowGroups: [[Chunk]]
        var rowGroupRows: [Int]
    }

    /// Values as text: integers in decimal, decimals in fixed notation
    /// (`2.990`), timestamps as milliseconds since 1970 UTC, booleans as
    /// true/false, strings as they are.
    static let pyarrowScript = #"""
        import datetime, decimal, json, sys
        import pyarrow as pa, pyarrow.parquet as pq

        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        def text(v):
            if v is None: return None
            if isinstance(v, bool): return "true" if v else "false"
            if isinstance(v, int): return str(v)
            if isinstance(v, decimal.Decimal): return format(v, "f")
            if isinstance(v, datetime.datetime):
                if v.tzinfo is None: v = v.replace(tzinfo=datetime.timezone.utc)
                return str((v - epoch) // datetime.timedelta(milliseconds=1))
            if isinstance(v, bytes): return "bytes:" + v.hex()
            return str(v)

        path = sys.argv[1]
        f = pq.ParquetFile(path)
        table = f.read()
        md = f.metadata
        out = {
            "pyarrowVersion": pa.__version__,
            "createdBy": md.created_by,
            "formatVersion": md.format_version,
            "numRows": md.num_rows,
            "fields": [{"name": x.name, "type": str(x.type), "nullable": x.nullable} for x in table.schema],
            "parquetColumns": [
                {"name": c.name, "physicalType": c.physical_type, "logicalType": str(c.logical_type),
                 "convertedType": c.converted_type, "maxDefinitionLevel": c.max_definition_level}
                for c in (f.schema.column(i) for i in range(len(f.schema)))],
            "columns": {name: [text(v) for v in table.column(name).to_pylist()] for name in table.column_names},
            "rowGroups": [],
            "rowGroupRows": [],
        }
        for g in range(md.num_row_groups):
            rg = md.row_group(g)
            out["rowGroupRows"].append(rg.num_rows)
            chunks = []
            for i in range(rg.num_columns):
                c = rg.column(i)
                s = c.statistics
                chunks.append({
                    "column": c.path_in_schema, "numValues": c.num_values,
                    "nullCount": s.null_count if s is not None and s.has_null_count else None,
                    "hasMinMax": bool(s is not None and s.has_min_max),
                    "min": text(s.min) if s is not None and s.has_min_max else None,
                    "max": text(s.max) if s is not None and s.has_min_max else None,
                    "encodings": sorted(c.encodings), "hasDictionaryPage": c.has_dictionary_page,
                    "compression": c.compression,
                })
            out["rowGroups"].append(chunks)
        print(json.dumps(out))
        """#

    /// Reads `path` with pyarrow.
    static func pyarrow(_ path: String) throws -> File {
        try JSONDecoder().decode(File.self, from: run(pyarrowScript, path))
    }

    /// What DuckDB reads from a file: its SQL types, every value as text
    /// (as pyarrow's), each chunk's null count, encodings, codec and
    /// min/max (as DuckDB prints them).
    struct DuckDBFile: Decodable {
        struct Chunk: Decodable, Equatable {
            var rowGroup: Int
            var column: String
            var nullCount: Int?
            var encodings: String
            var compression: String
            var min: String?
            var max: String?
        }
        var duckdbVersion: String
        var types: [String: String]
        var columns: [String: [String?]]
        var chunks: [Chunk]
    }

    static let duckdbScript = #"""
        import decimal, json, sys
        import duckdb

        def text(v):
            if v is None: return None
            if isinstance(v, bool): return "true" if v else "false"
            if isinstance(v, int): return str(v)
            if isinstance(v, decimal.Decimal): return format(v, "f")
            return str(v)

        path = sys.argv[1]
        con = duckdb.connect()
        con.execute("SET threads = 1")
        described = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [path]).fetchall()
        names = [d[0] for d in described]
        types = [d[1] for d in described]
        select = ", ".join(
            (f'epoch_ms("{n}")' if t.startswith("TIMESTAMP") else f'"{n}"') for n, t in zip(names, types))
        rows = con.execute(f"SELECT {select} FROM read_parquet(?)", [path]).fetchall()
        chunks = con.execute(
            "SELECT row_group_id, path_in_schema, stats_null_count, encodings, compression, "
            "stats_min_value, stats_max_value FROM parquet_metadata(?) ORDER BY row_group_id, column_id",
            [path]).fetchall()
        print(json.dumps({
            "duckdbVersion": duckdb.__version__,
            "types": dict(zip(names, types)),
            "columns": {n: [text(r[i]) for r in rows] for i, n in enumerate(names)},
            "chunks": [{"rowGroup": c[0], "column": c[1], "nullCount": c[2], "encodings": c[3],
                        "compression": c[4], "min": c[5], "max": c[6]} for c in chunks],
        }))
        """#

    /// Reads `path` with DuckDB.
    static func duckdb(_ path: String) throws -> DuckDBFile {
        try JSONDecoder().decode(DuckDBFile.self, from: run(duckdbScript, path))
    }

    /// Runs `script` with `path` as its argument; its standard output.
    private static func run(_ script: String, _ path: String) throws -> Data {
        try ReaderPython.run(script, [path])
    }
}
