import EPFCatalogCore
import EPFCatalogRead
import EPFFormat
import Foundation

/// `epf_checkpoint`, written once for the SQL stores: one row per load in
/// progress, saying from which file it loads into which staging table and
/// how far it got, so that an import killed in the middle resumes instead
/// of starting over.
///
/// A load inserts its row (`start`) in the transaction that creates its
/// staging table, updates it (`save`) in the transaction of every commit
/// of rows, so the two always agree, and it is deleted when the staged
/// table is applied or dropped. `load_id` numbers the loads; PostgreSQL
/// ties the unfit values a load keeps (`epf_unfit_values`) to it.
package enum SQLCheckpoints {
    static let name = CatalogTables.checkpoints

    /// A checkpoint as stored, with the load it belongs to.
    package struct Row: Sendable {
        package var loadID: Int64
        package var stored: StoredCheckpoint
        package var checkpoint: LoadCheckpoint { stored.checkpoint }
    }

    /// The table in the form both backends share (since the
    /// `checkpoints-shared` schema step), named `table`.
    package static func createSQL(_ table: String = name, dialect: some SQLDialect) -> String {
        let integer = dialect.integerType
        return """
            CREATE TABLE IF NOT EXISTS \(table) (
                load_id \(dialect.serialKey),
                staging_name TEXT NOT NULL,
                table_name TEXT NOT NULL,
                source TEXT NOT NULL,
                header TEXT NOT NULL,
                byte_offset \(integer) NOT NULL,
                records \(integer) NOT NULL,
                counts TEXT NOT NULL,
                first_export_date \(integer),
                phase TEXT NOT NULL,
                key_index TEXT,
                updated_at TEXT NOT NULL
            )
            """
    }

    /// The columns a row is read back from, in `Row`'s order.
    static let readColumns =
        "load_id, table_name, source, header, byte_offset, records, counts, first_export_date, phase, key_index"

    /// The newest checkpoint of `staging`, if any.
    package static func find(staging: String, on connection: some SQLConnection, dialect: some SQLDialect) throws -> Row? {
        guard
            let row = try connection.rows(
                "SELECT \(readColumns) FROM \(name) WHERE staging_name = \(dialect.parameter(1)) ORDER BY load_id DESC LIMIT 1",
                [.text(staging)]
            ).first
        else { return nil }
        let stored = StoredCheckpoint(
            table: row[1].textValue ?? "", byteOffset: row[4].asInteger ?? 0, records: Int(row[5].asInteger ?? 0),
            counts: row[6].textValue, firstExportDate: row[7].asInteger, phase: row[8].textValue, source: row[2].textValue,
            header: row[3].textValue ?? "", keyIndex: row[9].textValue)
        return Row(loadID: row[0].asInteger ?? 0, stored: stored)
    }

    /// Every load with a checkpoint, oldest first, with its catalog table,
    /// the records its last commit holds and the storefronts it keeps.
    package static func loads(on connection: some SQLConnection) throws -> [ResumableLoad] {
        let decoder = JSONDecoder()
        return try connection.rows("SELECT staging_name, table_name, records, source FROM \(name) ORDER BY load_id", []).map {
            let source = $0[3].textValue.flatMap { try? decoder.decode(SourceIdentity.self, from: Data($0.utf8)) }
            return ResumableLoad(
                staging: $0[0].textValue ?? "", table: $0[1].textValue ?? "", records: Int($0[2].asInteger ?? 0),
                storefronts: source?.storefronts.flatMap { $0.isEmpty ? nil : StorefrontSet(ids: $0) })
        }
    }

    /// Inserts the checkpoint of a new load of `target` into `staging`, at
    /// its first record (in the caller's transaction); returns its
    /// `load_id`.
    package static func start(
        staging: String, target: StagingTarget, on connection: some SQLConnection, dialect: some SQLDialect
    ) throws -> Int64 {
        let checkpoint = LoadCheckpoint(
            byteOffset: Int64(target.header.dataOffset), records: 0, counts: LoadCounts(), firstExportDate: nil, staged: false)
        let row = try connection.rows(
            """
            INSERT INTO \(name) (staging_name, table_name, source, header, byte_offset, records, counts, first_export_date, phase,
                updated_at)
            VALUES (\(dialect.parameters(10))) RETURNING load_id
            """,
            [
                .text(staging), .text(target.table), .text(StoredCheckpoint.json(target.source) ?? "null"),
                .text(EPFHeaderSignature(target.header).text),
            ] + progressValues(checkpoint, counts: noCounts) + [.text(Timestamp.now())])
        guard let id = row.first?.first?.asInteger else {
            throw CatalogError(.failed, detail: "the checkpoint of \(target.table) got no load_id", hint: "")
        }
        return id
    }

    /// Writes how far load `loadID` got (in the caller's transaction), and,
    /// for a staging table that is complete, the name of its key index.
    package static func save(
        _ checkpoint: LoadCheckpoint, loadID: Int64, keyIndex: String? = nil, on connection: some SQLConnection,
        dialect: some SQLDialect
    ) throws {
        let p = dialect.parameter
        try connection.change(
            """
            UPDATE \(name) SET byte_offset = \(p(1)), records = \(p(2)), counts = \(p(3)), first_export_date = \(p(4)),
                phase = \(p(5)), key_index = \(p(6)), updated_at = \(p(7))
            WHERE load_id = \(p(8))
            """,
            progressValues(checkpoint) + [keyIndex.map(SQLValue.text) ?? .null, .text(Timestamp.now()), .integer(loadID)])
    }

    /// Deletes the checkpoints of `staging` (in the caller's transaction,
    /// if any).
    package static func delete(staging: String, on connection: some SQLConnection, dialect: some SQLDialect) throws {
        try connection.change("DELETE FROM \(name) WHERE staging_name = \(dialect.parameter(1))", [.text(staging)])
    }

    /// The counts of a load that has read nothing, encoded once.
    private static let noCounts = StoredCheckpoint.json(LoadCounts()) ?? "{}"

    /// byte_offset, records, counts, first_export_date, phase.
    private static func progressValues(_ checkpoint: LoadCheckpoint, counts: String? = nil) -> [SQLValue] {
        [
            .integer(checkpoint.byteOffset), .integer(Int64(checkpoint.records)),
            .text(counts ?? StoredCheckpoint.json(checkpoint.counts) ?? "{}"),
            checkpoint.firstExportDate.map(SQLValue.integer) ?? .null, .text(StoredCheckpoint.phase(checkpoint)),
        ]
    }
}
