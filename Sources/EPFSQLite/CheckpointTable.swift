import EPFFormat
import Foundation
import EPFCatalog

/// `epf_checkpoint`: one row per staging table that a load has committed
/// to, saying how far it got and from which file, so that an import killed
/// in the middle resumes instead of starting over. The row is written in
/// the same transaction as the rows it counts, so the two always agree.
///
/// A row lives from the first commit of a load until its staged table is
/// applied (deleted in the apply transaction) or dropped.
enum CheckpointTable {
    static let name = CatalogTables.checkpoints

    /// The table as SQLite catalogs have had it since it first shipped
    /// (applied by `CatalogMigration.checkpoints`).
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS \(name) (
            staging_name TEXT PRIMARY KEY,
            table_name TEXT NOT NULL,
            source TEXT NOT NULL,
            header TEXT NOT NULL,
            byte_offset INTEGER NOT NULL,
            records INTEGER NOT NULL,
            counts TEXT NOT NULL,
            first_export_date INTEGER,
            phase TEXT NOT NULL,
            key_index TEXT,
            updated_at TEXT NOT NULL
        )
        """

    /// Writes the checkpoint of `staging` (in the caller's transaction).
    static func save(
        _ checkpoint: LoadCheckpoint, staging: String, target: StagingTarget, keyIndex: String? = nil, in database: SQLiteDatabase
    ) throws(SQLiteError) {
        let source = StoredCheckpoint.json(target.source) ?? "null"
        let counts = StoredCheckpoint.json(checkpoint.counts) ?? "{}"
        try database.execute(
            """
            INSERT OR REPLACE INTO \(name) (staging_name, table_name, source, header, byte_offset, records, counts,
                first_export_date, phase, key_index, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(staging), .text(target.table), .text(source), .text(EPFHeaderSignature(target.header).text),
                .integer(checkpoint.byteOffset), .integer(Int64(checkpoint.records)), .text(counts),
                checkpoint.firstExportDate.map(SQLValue.integer) ?? .null, .text(StoredCheckpoint.phase(checkpoint)),
                keyIndex.map(SQLValue.text) ?? .null, .text(Timestamp.now()),
            ])
    }

    static func delete(staging: String, in database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("DELETE FROM \(name) WHERE staging_name = ?", [.text(staging)])
    }
}
