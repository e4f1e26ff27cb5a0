import EPFCatalog

/// The PostgreSQL spelling of each `CatalogMigration`, and `epf_schema`
/// read and written through the import store's connection.
struct PostgresMigrations: CatalogMigrationDatabase {
    let connection: PostgresConnection

    func sql(for step: CatalogMigration) -> String {
        let journal = PostgresCatalogStore.journalTable
        switch step {
        case .journalAndTableInfo:
            // PostgreSQL catalogs had the unfit values from the start.
            return """
                CREATE TABLE IF NOT EXISTS \(journal) (
                    id BIGSERIAL PRIMARY KEY,
                    feed TEXT,
                    feed_date TEXT,
                    table_name TEXT NOT NULL,
                    export_date BIGINT,
                    mode TEXT,
                    rows BIGINT NOT NULL,
                    repaired_rows BIGINT NOT NULL,
                    skipped_rows BIGINT NOT NULL,
                    source_path TEXT NOT NULL,
                    source_size BIGINT,
                    started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL,
                    status TEXT NOT NULL,
                    message TEXT,
                    details TEXT
                );
                CREATE TABLE IF NOT EXISTS \(PostgresCatalogStore.tableInfoTable) (
                    table_name TEXT PRIMARY KEY,
                    feed TEXT,
                    export_mode TEXT NOT NULL,
                    export_date BIGINT,
                    columns TEXT NOT NULL,
                    primary_key TEXT NOT NULL,
                    source_path TEXT,
                    applied_at TEXT NOT NULL
                );
                CREATE TABLE IF NOT EXISTS \(PostgresCatalogStore.unfitTable) (
                    load_id BIGINT NOT NULL,
                    table_name TEXT NOT NULL,
                    source_path TEXT NOT NULL,
                    record BIGINT NOT NULL,
                    column_name TEXT NOT NULL,
                    declared_type TEXT NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS \(PostgresCatalogStore.unfitTable)_by_table
                    ON \(PostgresCatalogStore.unfitTable) (table_name, load_id);
                """
        case .journalOriginSizeMD5:
            return "ALTER TABLE \(journal) ADD COLUMN origin_size BIGINT, ADD COLUMN origin_md5 TEXT"
        case .checkpoints:
            return PostgresCheckpointTable.createSQL
        case .checkpointResumeColumns:
            return PostgresCheckpointTable.resumeColumnsSQL
        case .journalOriginModified:
            return "ALTER TABLE \(journal) ADD COLUMN origin_mtime BIGINT"
        case .journalOriginHash:
            return "ALTER TABLE \(journal) ADD COLUMN origin_hash TEXT"
        }
    }

    func execute(_ sql: String) throws(PostgresError) {
        try connection.execute(sql)
    }

    func columnNames(of table: String) throws(PostgresError) -> [String] {
        try PostgresCatalogStore.columnNames(of: table, on: connection)
    }

    func recordedSteps() throws(PostgresError) -> [String] {
        try connection.query("SELECT identifier FROM \(CatalogMigration.schemaTable)").compactMap { $0.first ?? nil }
    }

    func record(_ identifier: String) throws(PostgresError) {
        _ = try connection.change(
            "INSERT INTO \(CatalogMigration.schemaTable) (identifier, applied_at) VALUES ($1, $2)", [identifier, Timestamp.now()])
    }

    func catalogError(_ error: PostgresError, while action: String) -> CatalogError {
        CatalogError(error, while: action)
    }
}
