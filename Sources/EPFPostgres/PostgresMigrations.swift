import EPFCatalogStore

extension PostgresCatalogStore {
    /// The importer's own tables of a PostgreSQL catalog: the shared ones,
    /// the values that did not fit their column (there from the first
    /// catalog), and the checkpoint table, whose first form lacked what a
    /// load resumes from, and named a load's progress `rows`.
    static func migrations(_ connection: PostgresConnection) -> SQLMigrations<PostgresConnection, PostgresDialect> {
        SQLMigrations(connection: connection, dialect: PostgresDialect()) { step in
            switch step {
            case .journalAndTableInfo: return unfitTableSQL
            case .checkpoints: return PostgresCheckpointTable.createSQL
            case .checkpointResumeColumns: return PostgresCheckpointTable.resumeColumnsSQL
            case .checkpointsShared: return PostgresCheckpointTable.sharedFormSQL
            // Hashes do not compress: stored out of line as they are.
            case .rowDigests: return "ALTER TABLE \(CatalogTables.rowDigests) ALTER COLUMN digests SET STORAGE EXTERNAL"
            case .applicationDigests:
                return "ALTER TABLE \(CatalogTables.applicationDigests) ALTER COLUMN digests SET STORAGE EXTERNAL"
            case .journalOriginSizeMD5, .journalOriginModified, .journalOriginHash, .tableInfoRowCount, .changeLog: return ""
            }
        }
    }

    static let unfitTableSQL = """
        CREATE TABLE IF NOT EXISTS \(CatalogTables.unfitValues) (
            load_id BIGINT NOT NULL,
            table_name TEXT NOT NULL,
            source_path TEXT NOT NULL,
            record BIGINT NOT NULL,
            column_name TEXT NOT NULL,
            declared_type TEXT NOT NULL,
            value TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS \(CatalogTables.unfitValues)_by_table ON \(CatalogTables.unfitValues) (table_name, load_id)
        """
}
