import EPFCatalog

extension SQLiteCatalogStore {
    /// The importer's own tables of a SQLite catalog: the shared ones, and
    /// the checkpoint table (SQLite's had the resume columns from the start).
    static func migrations(_ database: SQLiteDatabase) -> SQLMigrations<SQLiteDatabase, SQLiteDialect> {
        SQLMigrations(connection: database, dialect: SQLiteDialect()) { step in
            step == .checkpoints ? CheckpointTable.createSQL : ""
        }
    }
}
