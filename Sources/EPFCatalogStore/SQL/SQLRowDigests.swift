import EPFCatalogCore
import EPFCatalogRead

/// Where a SQL store keeps each table's `RowDigestSet`: one row of
/// `epf_row_digest` per table, written in the apply's transaction, so the
/// digests always belong to the file the table last took.
extension SQLStoreBackend {
    /// `CatalogStore.rowDigests(of:layout:)`: what `table` keeps of its
    /// last applied file, when that file was INCREMENTAL and had `layout`
    /// (`epf_table_info` says which file was last: digests an older epf
    /// left behind a later apply belong to no file and are not used). A
    /// churning table is kept as a row of no digests (`rows` -1).
    package func storedRowDigests(of table: String, layout: Int64) throws -> KeptRowDigests? {
        try withApplyConnection {
            try applyConnection.doing("reading the row digests of \(table)") {
                let digests = CatalogTables.rowDigests
                let info = CatalogTables.tableInfo
                let sql = """
                    SELECT d.digests FROM \(digests) AS d JOIN \(info) AS t ON t.table_name = d.table_name
                    WHERE d.table_name = \(dialect.parameter(1)) AND d.layout = \(dialect.parameter(2))
                        AND t.export_mode = 'INCREMENTAL' AND t.export_date = d.export_date
                    """
                return try applyConnection.withBytes(sql, [.text(table), .integer(layout)]) { bytes -> KeptRowDigests? in
                    if bytes.isEmpty { return .churning }
                    return RowDigestSet(bytes: bytes).map(KeptRowDigests.rows)
                } ?? nil
            }
        }
    }

    /// In the apply's transaction: `table`'s digests become those of the
    /// file applied (`StagedTable.rowDigests`), or none (a FULL file, or a
    /// file whose digests are not kept).
    func saveRowDigests(_ table: StagedTable) throws {
        let connection = applyConnection
        try connection.change(
            "DELETE FROM \(CatalogTables.rowDigests) WHERE table_name = \(dialect.parameter(1))", [.text(table.target.table)])
        guard table.target.header.exportMode == .incremental, let kept = table.rowDigests, let exportDate = table.firstExportDate
        else { return }
        let (bytes, rows): ([UInt8], Int) =
            switch kept {
            case .rows(let set): (set.bytes, set.count)
            case .churning: ([], -1)
            }
        try connection.change(
            """
            INSERT INTO \(CatalogTables.rowDigests) (digests, table_name, export_date, layout, rows)
            VALUES (\(dialect.parameters(5)))
            """, bytes: bytes, [.text(table.target.table), .integer(exportDate), .integer(table.rowDigestLayout), .integer(Int64(rows))])
    }
}
