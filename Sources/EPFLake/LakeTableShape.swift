import EPFFormat

/// What every engine's view of a lake table needs to know, read once from
/// the journal: the table's columns with their lake types (every column any
/// applied day had, in the order first seen, as a catalog adds columns) and
/// its key (the newest day's `#primaryKey`).
///
/// The days themselves, and whether each is FULL or INCREMENTAL, are not
/// part of it: the views read them from the partition paths
/// (`export_date=YYYY-MM-DD/mode=FULL|INCREMENTAL`), so a view stays right
/// for every day written after it, read from the folder alone.
package struct LakeTableShape: Sendable {
    package var table: String
    package var columns: [(name: String, type: LakeColumn)]
    package var key: [String]

    /// One shape per table of the journal, sorted by table name.
    package static func shapes(of lines: [LakeJournalLine]) -> [LakeTableShape] {
        var byTable: [String: LakeTableShape] = [:]
        for line in lines {
            var shape = byTable[line.entry.table] ?? LakeTableShape(table: line.entry.table, columns: [], key: [])
            for (name, declared) in zip(line.columns, line.dbTypes) where !shape.columns.contains(where: { $0.name == name }) {
                shape.columns.append((name, LakeColumn(ColumnType(declared: declared))))
            }
            shape.key = line.key
            byTable[line.entry.table] = shape
        }
        return byTable.keys.sorted().map { byTable[$0]! }
    }
}
