/// Reading `epf_checkpoint`, written once for the SQL stores: which load
/// of a staging table can resume, and every load that has a checkpoint.
/// (Writing stays with each backend: SQLite replaces its row at each
/// commit, PostgreSQL inserts one when a load starts and updates it, its
/// `load_id` tying the unfit values kept to the load.)
package enum SQLCheckpoints {
    /// The newest checkpoint of `staging`, with its row's id, if any.
    package static func find(
        staging: String, on connection: some SQLConnection, dialect: some SQLDialect
    ) throws -> (id: Int64, checkpoint: StoredCheckpoint)? {
        let columns = dialect.checkpointColumns
        guard
            let row = try connection.rows(
                """
                SELECT \(columns.id), table_name, source, header, byte_offset, \(columns.records), counts, first_export_date, phase,
                    key_index
                FROM \(CatalogTables.checkpoints) WHERE staging_name = \(dialect.parameter(1)) ORDER BY 1 DESC LIMIT 1
                """, [.text(staging)]
            ).first
        else { return nil }
        let checkpoint = StoredCheckpoint(
            table: row[1].textValue ?? "", byteOffset: row[4].asInteger ?? 0, records: Int(row[5].asInteger ?? 0),
            counts: row[6].textValue, firstExportDate: row[7].asInteger, phase: row[8].textValue, source: row[2].textValue,
            header: row[3].textValue ?? "", keyIndex: row[9].textValue)
        return (row[0].asInteger ?? 0, checkpoint)
    }

    /// Every load with a checkpoint, oldest first, with its catalog table
    /// and the records its last commit holds.
    package static func loads(on connection: some SQLConnection, dialect: some SQLDialect) throws -> [ResumableLoad] {
        let columns = dialect.checkpointColumns
        return try connection.rows(
            "SELECT staging_name, table_name, \(columns.records) FROM \(CatalogTables.checkpoints) ORDER BY \(columns.id)", []
        ).map {
            ResumableLoad(staging: $0[0].textValue ?? "", table: $0[1].textValue ?? "", records: Int($0[2].asInteger ?? 0))
        }
    }
}
