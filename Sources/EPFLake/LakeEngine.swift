/// A query engine the lake's views are written for (`epf lake views
/// --engine`): how it reads a table's files, names identifiers and texts,
/// and where it finds a row's day, mode and place in its file. The view's
/// logic itself is `LakeViews`, the same for all.
package enum LakeEngine: String, CaseIterable, Sendable {
    /// `read_parquet` over the table's glob; day and mode from `filename`.
    case duckdb
    /// A temporary view over `parquet.\`glob\``, with the files' hidden
    /// `_metadata.file_path` (day and mode) and `_metadata.row_index` (the
    /// row's place) as columns: a view `USING parquet` hides them.
    case spark
    /// A Hive connector table over the table's folder, partitioned by
    /// `export_date` and `mode` (which replace the file's own `export_date`).
    case trino

    /// The engine's default location of the lake at the absolute path
    /// `root`: Trino's Hive connector wants a URI.
    package func location(root: String) -> String {
        self == .trino ? "file://" + root : root
    }

    package func identifier(_ name: String) -> String {
        switch self {
        case .duckdb, .trino: "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case .spark: "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
        }
    }

    package func literal(_ text: String) -> String {
        switch self {
        case .duckdb, .trino: "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .spark: "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
    }

    /// A table's or view's name in `schema` (Trino: `catalog.schema`).
    func name(_ table: String, schema: String?) -> String {
        (schema.map { $0 + "." } ?? "") + identifier(table)
    }

    /// What a table's rows are read from, and the statements that must run
    /// before (Trino: the table over the folder, its partitions found).
    func source(of shape: LakeTableShape, location: String, schema: String?) -> (setup: [String], from: String) {
        let glob = LakePartition.glob(root: location, table: shape.table)
        switch self {
        case .duckdb:
            return (
                [],
                "read_parquet(\(literal(glob)), hive_partitioning = false, union_by_name = true, filename = true, file_row_number = true)"
            )
        case .spark:
            let relation = name(shape.table + "_files", schema: schema)
            let files = "SELECT *, _metadata.file_path AS _epf_path, _metadata.row_index AS _epf_position FROM parquet.\(identifier(glob))"
            return (["CREATE OR REPLACE TEMP VIEW \(relation) AS \(files)"], relation)
        case .trino:
            let table = name(shape.table, schema: schema)
            // Partition columns come last; the partition's export_date stands for the file's.
            let columns =
                shape.columns.filter { !Self.partitionColumns.contains($0.name) }.map {
                    "  \(identifier($0.name)) \(Self.trinoType($0.type))"
                }
                + Self.partitionColumns.map { "  \(identifier($0)) VARCHAR" }
            let create = """
                CREATE TABLE IF NOT EXISTS \(table) (
                \(columns.joined(separator: ",\n"))
                ) WITH (external_location = \(literal(location + "/" + shape.table)), format = 'PARQUET', partitioned_by = ARRAY['export_date', 'mode'])
                """
            // sync_partition_metadata is a procedure of the table's catalog, given the bare schema.
            let parts = (schema ?? "").split(separator: ".", maxSplits: 1).map(String.init)
            let (catalog, bare) = parts.count == 2 ? (parts[0] + ".", parts[1]) : ("", parts.first ?? "")
            let sync = "CALL \(catalog)system.sync_partition_metadata(\(literal(bare)), \(literal(shape.table)), 'FULL')"
            return ([create, sync], table)
        }
    }

    /// The partition columns of Trino's tables, in the lake's folder order.
    static let partitionColumns = ["export_date", "mode"]

    /// A row's day (`YYYY-MM-DD`), mode (`FULL`/`INCREMENTAL`) and place in
    /// its file (nil: the engine has none; rows of one key in one file then
    /// come in no defined order).
    var dayModeRow: (day: String, mode: String, row: String?) {
        let pattern = literal(LakePartition.pathPattern)
        switch self {
        case .duckdb:
            return ("regexp_extract(filename, \(pattern), 1)", "regexp_extract(filename, \(pattern), 2)", "file_row_number")
        case .spark:
            return ("regexp_extract(_epf_path, \(pattern), 1)", "regexp_extract(_epf_path, \(pattern), 2)", "_epf_position")
        case .trino:
            return (identifier("export_date"), identifier("mode"), nil)
        }
    }

    /// Trino's type for a lake column (the Hive connector reads the Parquet
    /// type of each).
    static func trinoType(_ column: LakeColumn) -> String {
        switch column {
        case .int64: "BIGINT"
        case .int32: "INTEGER"
        case .boolean: "BOOLEAN"
        case .decimal(let scale): "DECIMAL(\(LakeColumn.decimalPrecision), \(scale))"
        case .timestamp: "TIMESTAMP(3) WITH TIME ZONE"
        case .string: "VARCHAR"
        }
    }
}
