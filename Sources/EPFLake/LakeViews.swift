import EPFCatalogStore
import Foundation

/// The views `<table>_current` of a lake, for each engine (`LakeEngine`):
/// the table as a catalog would hold it. Of the table's files, those of its
/// newest FULL day and every day after it; of those, the last row of each
/// key (a later day over an earlier one, an INCREMENTAL file over the FULL
/// file of its day, a later row of a file over an earlier one). Rows absent
/// from the newest FULL day are gone. With no FULL day at all (INCREMENTAL
/// files forced in), every day counts.
///
/// Days and modes come from the files' paths, not from the journal, so the
/// views are right for the folder alone, and for days written after them.
/// `DIR/_epf/views.sql` holds the DuckDB views, rewritten after every apply.
package enum LakeViews {
    /// The SQL that defines the views of `shapes` in `engine`: statements
    /// ending in `;`, each table's after a comment naming it. `location` is
    /// where the engine finds the lake (its folder, or a bucket's URI);
    /// `schema` qualifies the names (Trino: `catalog.schema`).
    package static func sql(_ shapes: [LakeTableShape], engine: LakeEngine, location: String, schema: String? = nil) -> String {
        var statements: [String] = []
        if engine == .trino, let schema { statements.append("CREATE SCHEMA IF NOT EXISTS \(schema)") }
        // Files of a table whose columns changed over the days: read with every column.
        if engine == .spark { statements.append("SET spark.sql.parquet.mergeSchema = true") }
        for shape in shapes where !shape.columns.isEmpty {
            var (setup, from) = engine.source(of: shape, location: location, schema: schema)
            setup.append(view(of: shape, engine: engine, from: from, schema: schema))
            setup[0] = "-- \(shape.table)\n" + setup[0]
            statements += setup
        }
        return statements.map { $0 + ";\n" }.joined(separator: "\n")
    }

    /// The views of the lake at `lake` (its journal's tables) in `engine`;
    /// `location` replaces the lake's path in them (a copy of it in a
    /// bucket). Throws `notFound` when `lake` has no journal.
    package static func sql(lake: String, engine: LakeEngine, location: String?, schema: String?) throws -> String {
        let journal = LakeJournal(path: LakeStore.journalPath(lake))
        guard FileManager.default.fileExists(atPath: journal.path) else {
            throw CatalogError(
                .notFound, detail: "\(lake) is not a lake: it has no \(journal.path)",
                hint: "Give the folder that epf import --lake wrote")
        }
        let shapes = LakeTableShape.shapes(of: try journal.lines())
        return sql(shapes, engine: engine, location: location ?? engine.location(root: root(lake)), schema: schema)
    }

    /// `CREATE OR REPLACE VIEW <table>_current`: the one view logic, over
    /// each engine's source and day, mode and row expressions.
    static func view(of shape: LakeTableShape, engine: LakeEngine, from: String, schema: String?) -> String {
        let columns = shape.columns.map { engine.identifier($0.name) }.joined(separator: ", ")
        let (day, mode, row) = engine.dayModeRow
        let rowColumn = row.map { ", \($0) AS _epf_row" } ?? ""
        let create = engine == .spark ? "CREATE OR REPLACE TEMP VIEW" : "CREATE OR REPLACE VIEW"
        var sql = """
            \(create) \(engine.name(shape.table + "_current", schema: schema)) AS
            WITH days AS (
              SELECT \(columns), \(day) AS _epf_day, \(mode) AS _epf_mode\(rowColumn) FROM \(from)
            ), newest AS (
              SELECT coalesce(max(_epf_day), '') AS _epf_newest FROM days WHERE _epf_mode = 'FULL'
            )

            """
        if shape.key.isEmpty {
            sql += "SELECT \(columns) FROM days CROSS JOIN newest WHERE _epf_day >= _epf_newest"
        } else {
            let key = shape.key.map(engine.identifier).joined(separator: ", ")
            // 'INCREMENTAL' sorts after 'FULL': a day's INCREMENTAL file wins over its FULL one.
            let order = ["_epf_day DESC", "_epf_mode DESC"] + (row.map { _ in ["_epf_row DESC"] } ?? [])
            sql += """
                SELECT \(columns) FROM (
                  SELECT days.*, row_number() OVER (PARTITION BY \(key) ORDER BY \(order.joined(separator: ", "))) AS _epf_rank
                  FROM days CROSS JOIN newest WHERE _epf_day >= _epf_newest
                ) ranked WHERE _epf_rank = 1
                """
        }
        return sql
    }

    /// The lake's absolute, standardized path.
    package static func root(_ lake: String) -> String { URL(fileURLWithPath: lake).standardizedFileURL.path }

    /// Writes the DuckDB views of `lines` to `DIR/_epf/views.sql` (a
    /// temporary file renamed into place).
    package static func write(lines: [LakeJournalLine], lake: String) throws {
        let path = LakeStore.metaFolder(lake) + "/views.sql"
        let temporary = path + ".tmp"
        let root = root(lake)
        let text =
            "-- Written by epf import --lake after every import; do not edit.\n-- DuckDB: .read \(root)/_epf/views.sql\n\n"
            + sql(LakeTableShape.shapes(of: lines), engine: .duckdb, location: root)
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw LakeJournal.error("rename", temporary) }
    }
}
