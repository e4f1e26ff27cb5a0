import Foundation

/// `DIR/_epf/views.sql`: for DuckDB, one view `<table>_current` per table
/// of the journal, the table as a catalog would hold it: the rows of its
/// newest FULL day, then the INCREMENTAL days after it, the last row of
/// each key winning (a later day over an earlier one, a later row of a
/// file over an earlier one); rows absent from the newest FULL day are gone.
/// Only days the journal lists are read (by their files' absolute paths),
/// so a partition left by an interrupted import is never part of a view.
/// Rewritten after every apply.
package enum LakeViews {
    package static func sql(lines: [LakeJournalLine], lake: String) -> String {
        let root = URL(fileURLWithPath: lake).standardizedFileURL.path
        var tables: [String] = []
        var byTable: [String: [LakeJournalLine]] = [:]
        for line in lines {
            if byTable[line.entry.table] == nil { tables.append(line.entry.table) }
            byTable[line.entry.table, default: []].append(line)
        }
        var out = "-- Written by epf import --lake after every import; do not edit.\n"
        out += "-- DuckDB: .read \(root)/_epf/views.sql\n"
        for table in tables.sorted() {
            let days = byTable[table]!
            // Each partition once, its newest journal line deciding its mode.
            var latest: [String: LakeJournalLine] = [:]
            for line in days { latest[line.partition] = line }
            let ordered = latest.values.sorted { $0.partition < $1.partition }
            guard let full = ordered.last(where: { $0.entry.mode == "FULL" }) else { continue }
            let current = ordered.filter { $0.partition >= full.partition }
            let files = current.map { literal(root + "/" + $0.partition + "/part-00000.parquet") }.joined(separator: ", ")
            let key = full.key
            out += "\nCREATE OR REPLACE VIEW \(identifier(table + "_current")) AS\n"
            out += "SELECT * EXCLUDE (filename, file_row_number) FROM read_parquet([\(files)], hive_partitioning = false, union_by_name = true, filename = true, file_row_number = true)"
            if !key.isEmpty {
                let keyList = key.map(identifier).joined(separator: ", ")
                out += "\nQUALIFY row_number() OVER (PARTITION BY \(keyList) ORDER BY filename DESC, file_row_number DESC) = 1"
            }
            out += ";\n"
        }
        return out
    }

    /// Writes the views of `lines` to `DIR/_epf/views.sql` (a temporary
    /// file renamed into place).
    package static func write(lines: [LakeJournalLine], lake: String) throws {
        let path = LakeStore.metaFolder(lake) + "/views.sql"
        let temporary = path + ".tmp"
        try Data(sql(lines: lines, lake: lake).utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw LakeJournal.error("rename", temporary) }
    }

    static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
