import EPFCatalogStore

/// The history of `epf_checkpoint` in PostgreSQL catalogs, which now have
/// the table every SQL catalog shares (`SQLCheckpoints`, where it is read
/// and written). `load_id` also ties a load's kept unfit values
/// (`epf_unfit_values`) to it; a resumed load keeps its `load_id`.
package enum PostgresCheckpointTable {
    static let name = CatalogTables.checkpoints

    /// The table as PostgreSQL catalogs first had it (applied by
    /// `CatalogMigration.checkpoints`).
    package static let createSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            load_id BIGSERIAL PRIMARY KEY,
            table_name TEXT NOT NULL,
            staging_name TEXT NOT NULL,
            source_path TEXT NOT NULL,
            export_mode TEXT NOT NULL,
            byte_offset BIGINT NOT NULL,
            rows BIGINT NOT NULL,
            phase TEXT NOT NULL,
            started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
            updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """

    /// What a load resumes from, added when resuming was implemented
    /// (`CatalogMigration.checkpointResumeColumns`).
    package static let resumeColumnsSQL = """
        ALTER TABLE \(name) ADD COLUMN source TEXT, ADD COLUMN header TEXT, ADD COLUMN counts TEXT,
            ADD COLUMN first_export_date BIGINT, ADD COLUMN key_index TEXT
        """

    /// To the shared form, in place (`CatalogMigration.checkpointsShared`):
    /// `load_id`s stay, so do the unfit values tied to them. A checkpoint
    /// written before resuming existed has no source and resumes nothing:
    /// it goes, with its values; its staging table is dropped on open as
    /// any other that no checkpoint resumes.
    static let sharedFormSQL = """
        DELETE FROM \(CatalogTables.unfitValues) WHERE load_id IN (
            SELECT load_id FROM \(name) WHERE source IS NULL OR header IS NULL OR counts IS NULL);
        DELETE FROM \(name) WHERE source IS NULL OR header IS NULL OR counts IS NULL;
        ALTER TABLE \(name) RENAME COLUMN rows TO records;
        ALTER TABLE \(name) DROP COLUMN source_path, DROP COLUMN export_mode, DROP COLUMN started_at,
            ALTER COLUMN source SET NOT NULL, ALTER COLUMN header SET NOT NULL, ALTER COLUMN counts SET NOT NULL,
            ALTER COLUMN updated_at DROP DEFAULT,
            ALTER COLUMN updated_at TYPE TEXT USING to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        """

    /// Deletes the checkpoints of `staging` and the unfit values their
    /// loads kept (in the caller's transaction, if any).
    static func delete(staging: String, on connection: PostgresConnection) throws {
        try connection.change(
            "DELETE FROM \(CatalogTables.unfitValues) WHERE load_id IN (SELECT load_id FROM \(name) WHERE staging_name = $1)",
            [staging])
        try SQLCheckpoints.delete(staging: staging, on: connection, dialect: PostgresDialect())
    }
}
