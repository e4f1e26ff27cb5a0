import EPFCatalogRead

extension [CatalogTableSummary] {
    /// `epf tables`: one row per table, its export_date as a date.
    package var output: TabularOutput {
        TabularOutput(
            columns: ["table", "rows", "last_mode", "last_import", "export_date", "source", "storefronts"],
            rows: map { table in
                [
                    .text(table.name), .integer(Int64(table.rows)), table.lastMode.map { .text($0) } ?? .null,
                    table.lastImport.map { .text($0) } ?? .null, table.exportDate.map { .integer($0) } ?? .null,
                    table.source.map { .text($0) } ?? .null, table.storefronts.map { .text($0) } ?? .null,
                ]
            },
            forms: ["export_date": .epochMilliseconds])
    }
}
