import EPFCatalog
import EPFFormat
import Foundation

/// `epf_checkpoint` in PostgreSQL: one row per staging table a load has
/// committed to (the same facts as the SQLite store's checkpoint table:
/// the file, its header, how far the load got, the counters so far, and
/// whether the file is staged completely), written in the same transaction
/// as the rows it counts, so that a killed import resumes from it.
///
/// `load_id` also ties a load's kept unfit values (`epf_unfit_values`) to
/// it; a resumed load keeps its `load_id`.
enum PostgresCheckpointTable {
    static let name = CatalogTables.checkpoints

    /// The table as PostgreSQL catalogs first had it (applied by
    /// `CatalogMigration.checkpoints`).
    static let createSQL = """
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
    static let resumeColumnsSQL = """
        ALTER TABLE \(name) ADD COLUMN source TEXT, ADD COLUMN header TEXT, ADD COLUMN counts TEXT,
            ADD COLUMN first_export_date BIGINT, ADD COLUMN key_index TEXT
        """

    /// A checkpoint as stored, with the load it belongs to.
    struct Row: Sendable {
        var loadID: String
        var stored: StoredCheckpoint
        var checkpoint: LoadCheckpoint { stored.checkpoint }
        var keyIndex: String? { stored.keyIndex }
    }

    /// The checkpoint of `staging` (the newest, should there be several).
    static func find(staging: String, on connection: PostgresConnection) throws -> Row? {
        try SQLCheckpoints.find(staging: staging, on: connection, dialect: PostgresDialect()).map {
            Row(loadID: String($0.id), stored: $0.checkpoint)
        }
    }

    /// Starts the checkpoint of a new load (in the caller's transaction);
    /// returns its `load_id`.
    static func insert(
        _ checkpoint: LoadCheckpoint, staging: String, target: StagingTarget, on connection: PostgresConnection
    ) throws(PostgresError) -> String {
        try connection.scalar(
            """
            INSERT INTO \(name) (table_name, staging_name, source_path, export_mode, byte_offset, rows, phase, source, header,
                counts, first_export_date)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING load_id
            """,
            [
                target.table, staging, target.sourceName, target.header.exportMode.rawValue, String(checkpoint.byteOffset),
                String(checkpoint.records), StoredCheckpoint.phase(checkpoint), StoredCheckpoint.json(target.source), EPFHeaderSignature(target.header).text,
                StoredCheckpoint.json(checkpoint.counts), checkpoint.firstExportDate.map { String($0) },
            ]) ?? "0"
    }

    /// Writes how far load `loadID` got (in the caller's transaction).
    static func save(_ checkpoint: LoadCheckpoint, loadID: String, keyIndex: String? = nil, on connection: PostgresConnection)
        throws(PostgresError)
    {
        try connection.change(
            """
            UPDATE \(name) SET byte_offset = $1, rows = $2, counts = $3, first_export_date = $4, phase = $5, key_index = $6,
                updated_at = now()
            WHERE load_id = $7
            """,
            [
                String(checkpoint.byteOffset), String(checkpoint.records), StoredCheckpoint.json(checkpoint.counts),
                checkpoint.firstExportDate.map { String($0) }, StoredCheckpoint.phase(checkpoint), keyIndex, loadID,
            ])
    }

    /// Deletes the checkpoints of `staging` and the unfit values their
    /// loads kept (in the caller's transaction, if any).
    static func delete(staging: String, on connection: PostgresConnection) throws(PostgresError) {
        try connection.change(
            "DELETE FROM \(PostgresCatalogStore.unfitTable) WHERE load_id IN (SELECT load_id FROM \(name) WHERE staging_name = $1)",
            [staging])
        try connection.change("DELETE FROM \(name) WHERE staging_name = $1", [staging])
    }
}
