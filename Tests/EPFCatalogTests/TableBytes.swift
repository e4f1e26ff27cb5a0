import EPFTestSupport

/// Builds a table file's bytes: a header and rows of fields (no `##legal`
/// row), through `tableFileBytes`.
struct TableBytes {
    var columns: [String]
    var types: [String]
    var key: [String]
    var mode = "FULL"
    var rows: [[String]] = []

    var bytes: [UInt8] {
        tableFileBytes(columns: columns, types: types, key: key, mode: mode, rows: rows, legal: nil)
    }
}
