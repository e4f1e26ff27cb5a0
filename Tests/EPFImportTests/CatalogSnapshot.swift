import EPFTestSupport

/// `"name"`, quoted for SQL.
func sqlName(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Everything a reader of the catalog sees: the live tables with their
/// columns and rows, and what the importer knows of them (`epf_table_info`).
struct CatalogSnapshot: Equatable, CustomStringConvertible {
    struct Table: Equatable {
        var columns: [String]
        var rows: [[StoredValue]]
    }

    var tableNames: [String]
    var tables: [String: Table]
    var tableInfo: [[StoredValue]]

    init(path: String) throws {
        let catalog = try RawSQLiteReader(path: path)
        tableNames = try catalog.liveTables()
        var tables: [String: Table] = [:]
        for name in tableNames {
            let result = try catalog.query("SELECT * FROM \(sqlName(name))")
            tables[name] = Table(columns: result.columns, rows: result.rows.sorted(by: StoredValue.rowOrder))
        }
        self.tables = tables
        tableInfo = try catalog.rows("SELECT * FROM epf_table_info ORDER BY table_name")
    }

    var description: String {
        tableNames.map { "\($0): \(tables[$0]?.rows.count ?? 0) rows" }.joined(separator: ", ")
    }
}

extension RawSQLiteReader {
    /// The EPF tables of the catalog: every table whose name starts neither
    /// with `epf_` nor with `sqlite_`.
    func liveTables() throws -> [String] {
        try rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
            .compactMap { $0.first?.string }
            .filter { !$0.hasPrefix("epf_") && !$0.hasPrefix("sqlite_") }
    }

    /// Names of the columns of `table`, in table order.
    func columns(of table: String) throws -> [String] {
        try query("SELECT * FROM \(sqlName(table)) LIMIT 0").columns
    }
}
