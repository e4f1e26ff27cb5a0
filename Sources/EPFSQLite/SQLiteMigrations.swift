import EPFCatalog
/// The SQLite spelling of each `CatalogMigration`, and `epf_schema` read
/// and written through one connection (the import store's).
struct SQLiteMigrations: CatalogMigrationDatabase {
    let database: SQLiteDatabase

    func sql(for step: CatalogMigration) -> String {
        let journal = SQLiteCatalogStore.journalTable
        switch step {
        case .journalAndTableInfo:
            return """
                CREATE TABLE IF NOT EXISTS \(journal) (
                    id INTEGER PRIMARY KEY,
                    feed TEXT,
                    feed_date TEXT,
                    table_name TEXT NOT NULL,
                    export_date INTEGER,
                    mode TEXT,
                    rows INTEGER NOT NULL,
                    repaired_rows INTEGER NOT NULL,
                    skipped_rows INTEGER NOT NULL,
                    source_path TEXT NOT NULL,
                    source_size INTEGER,
                    started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL,
                    status TEXT NOT NULL,
                    message TEXT,
                    details TEXT
                );
                CREATE TABLE IF NOT EXISTS \(SQLiteCatalogStore.tableInfoTable) (
                    table_name TEXT PRIMARY KEY,
                    feed TEXT,
                    export_mode TEXT NOT NULL,
                    export_date INTEGER,
                    columns TEXT NOT NULL,
                    primary_key TEXT NOT NULL,
                    source_path TEXT,
                    applied_at TEXT NOT NULL
                );
                """
        case .journalOriginSizeMD5:
            return """
                ALTER TABLE \(journal) ADD COLUMN origin_size INTEGER;
                ALTER TABLE \(journal) ADD COLUMN origin_md5 TEXT;
                """
        case .checkpoints:
            return CheckpointTable.createSQL
        case .checkpointResumeColumns:
            return ""  // SQLite's checkpoint table had them from the start.
        case .journalOriginModified:
            return "ALTER TABLE \(journal) ADD COLUMN origin_mtime INTEGER"
        case .journalOriginHash:
            return "ALTER TABLE \(journal) ADD COLUMN origin_hash TEXT"
        }
    }

    func execute(_ sql: String) throws(SQLiteError) {
        try database.execute(sql)
    }

    func columnNames(of table: String) throws(SQLiteError) -> [String] {
        try database.columnNames(of: table)
    }

    func recordedSteps() throws(SQLiteError) -> [String] {
        try database.rows("SELECT identifier FROM \(CatalogMigration.schemaTable)").compactMap { $0.first?.textValue }
    }

    func record(_ identifier: String) throws(SQLiteError) {
        try database.execute(
            "INSERT INTO \(CatalogMigration.schemaTable) (identifier, applied_at) VALUES (?, ?)",
            [.text(identifier), .text(Timestamp.now())])
    }

    func catalogError(_ error: SQLiteError, while action: String) -> CatalogError {
        CatalogError(error, while: action)
    }
}
