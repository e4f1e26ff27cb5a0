import EPFCatalogStore

extension SQLiteCatalogStore {
    /// The importer's own tables of a SQLite catalog: the shared ones, and
    /// the checkpoint table.
    ///
    /// SQLite's first checkpoint table had the columns of the shared one
    /// (`SQLCheckpoints`) but `load_id`, keyed by `staging_name` instead:
    /// `checkpoints-shared` copies it into the shared form, its rowid
    /// becoming `load_id`. A catalog that has the shared form already (made
    /// since) goes through the same copy unchanged.
    static func migrations(_ database: SQLiteDatabase) -> SQLMigrations<SQLiteDatabase, SQLiteDialect> {
        SQLMigrations(connection: database, dialect: SQLiteDialect()) { step in
            switch step {
            case .checkpoints: SQLCheckpoints.createSQL(dialect: SQLiteDialect())
            case .checkpointsShared: sharedCheckpointsSQL
            case .journalAndTableInfo, .journalOriginSizeMD5, .checkpointResumeColumns, .journalOriginModified,
                .journalOriginHash, .tableInfoRowCount, .rowDigests, .changeLog, .applicationDigests:
                ""
            }
        }
    }

    static let sharedCheckpointsSQL: String = {
        let table = CatalogTables.checkpoints
        let copy = table + "_shared"
        let columns =
            "staging_name, table_name, source, header, byte_offset, records, counts, first_export_date, phase, key_index, updated_at"
        return """
            \(SQLCheckpoints.createSQL(copy, dialect: SQLiteDialect()));
            INSERT INTO \(copy) (load_id, \(columns)) SELECT rowid, \(columns) FROM \(table);
            DROP TABLE \(table);
            ALTER TABLE \(copy) RENAME TO \(table)
            """
    }()
}
