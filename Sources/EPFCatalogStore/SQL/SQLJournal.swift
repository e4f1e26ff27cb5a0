import EPFCatalogCore
import EPFCatalogRead
import Foundation

/// The import journal (`epf_journal`) of a SQL catalog, written and read
/// once for every backend.
package enum SQLJournal {
    /// Appends `journal`, inside the caller's transaction. `text` is what
    /// the store lets the journal keep of a message (passwords scrubbed).
    package static func insert(
        _ journal: [JournalEntry], on connection: some SQLConnection, dialect: some SQLDialect, text: (String) -> String = { $0 }
    ) throws {
        let sql = """
            INSERT INTO \(CatalogTables.journal) (feed, feed_date, table_name, export_date, mode, rows, repaired_rows,
                skipped_rows, source_path, source_size, started_at, finished_at, status, message, details, origin_size,
                origin_md5, origin_hash, origin_mtime)
            VALUES (\(dialect.parameters(19)))
            """
        for entry in journal {
            try connection.change(
                sql,
                [
                    .optional(entry.feed), .optional(entry.feedDate), .text(entry.table), .optional(entry.exportDate),
                    .optional(entry.mode), .integer(Int64(entry.rows)), .integer(Int64(entry.repairedRows)),
                    .integer(Int64(entry.skippedRows)), .text(entry.sourcePath), .optional(entry.sourceSize),
                    .text(entry.startedAt), .text(entry.finishedAt), .text(entry.status.rawValue),
                    .optional(entry.message.map(text)), .optional(entry.details.map(text)), .optional(entry.originSize),
                    .optional(entry.originMD5), .optional(entry.originHash), .optional(entry.originModified),
                ])
        }
    }

    /// The files the journal lists as applied, oldest first. Journals of
    /// catalogs written before origins were recorded lack those columns
    /// (`--dry-run` reads a catalog without migrating it).
    package static func appliedFiles(on connection: some SQLConnection) throws -> [AppliedFile] {
        let columns = Set(try connection.columnNames(of: CatalogTables.journal))
        let origin = ["origin_size", "origin_md5", "origin_hash", "origin_mtime"].map { columns.contains($0) ? $0 : "NULL" }
        return try connection.rows(
            """
            SELECT feed, feed_date, table_name, mode, export_date, \(origin.joined(separator: ", ")), details, id
            FROM \(CatalogTables.journal) WHERE status = 'applied' ORDER BY id
            """, []
        ).map { row in
            let details = row[9].textValue.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
            return AppliedFile(
                id: row[10].asInteger, feed: row[0].textValue, feedDate: row[1].textValue, table: row[2].textValue ?? "",
                mode: row[3].textValue, exportDate: row[4].asInteger, originSize: row[5].asInteger, originMD5: row[6].textValue,
                originHash: row[7].textValue, originModified: row[8].asInteger, archiveTables: details?["archiveTables"] as? [String],
                storefronts: StorefrontSet.recorded(inDetails: row[9].textValue))
        }
    }

    /// Records new modification times for downloads whose content was
    /// found unchanged (by `AppliedFile.id`), in one transaction.
    package static func confirmUnchanged(
        _ downloads: [(id: Int64, modified: Int64)], on connection: some SQLConnection, dialect: some SQLDialect
    ) throws {
        guard !downloads.isEmpty else { return }
        try connection.transaction {
            let sql = "UPDATE \(CatalogTables.journal) SET origin_mtime = \(dialect.parameter(1)) WHERE id = \(dialect.parameter(2))"
            for download in downloads { try connection.change(sql, [.integer(download.modified), .integer(download.id)]) }
        }
    }
}

extension SQLStoreBackend {
    /// Appends `journal` inside the open transaction.
    package func insertJournal(_ journal: [JournalEntry]) throws {
        try SQLJournal.insert(journal, on: applyConnection, dialect: dialect, text: journalText)
    }

    /// Records the staged table's columns, key, mode and source in
    /// `epf_table_info`, inside the apply's transaction. The columns are
    /// listed in the live table's order with their declared EPF types;
    /// columns an INCREMENTAL file lacks keep the types known before.
    /// `rows` is the live table's row count after the apply.
    package func saveTableInfo(_ table: StagedTable, rows: Int) throws {
        let connection = applyConnection
        let header = table.target.header
        var known: [String: String] = [:]
        if header.exportMode == .incremental,
            let previous = try connection.scalar(
                "SELECT columns FROM \(CatalogTables.tableInfo) WHERE table_name = \(dialect.parameter(1))", [.text(table.target.table)])?
                .textValue
        {
            known =
                (try? JSONDecoder().decode([ColumnInfo].self, from: Data(previous.utf8)))
                .map { Dictionary($0.map { ($0.name, $0.type) }, uniquingKeysWith: { $1 }) } ?? [:]
        }
        for (name, type) in zip(header.columns, header.types) { known[name] = type.declared }
        let columns = try connection.columnNames(of: table.target.table).map { ColumnInfo(name: $0, type: known[$0] ?? "") }
        // Sorted keys: the same table info from every run and every backend
        // (JSONEncoder's key order otherwise changes from process to process).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let columnsJSON = String(decoding: try encoder.encode(columns), as: UTF8.self)
        let keyJSON = String(decoding: try encoder.encode(header.primaryKey), as: UTF8.self)
        try connection.change(
            """
            INSERT INTO \(CatalogTables.tableInfo) (table_name, feed, export_mode, export_date, columns, primary_key, source_path, applied_at, row_count)
            VALUES (\(dialect.parameters(9)))
            ON CONFLICT (table_name) DO UPDATE SET feed = excluded.feed, export_mode = excluded.export_mode,
                export_date = excluded.export_date, columns = excluded.columns, primary_key = excluded.primary_key,
                source_path = excluded.source_path, applied_at = excluded.applied_at, row_count = excluded.row_count
            """,
            [
                .text(table.target.table), .optional(table.target.feed), .text(header.exportMode.rawValue),
                .optional(table.firstExportDate), .text(columnsJSON), .text(keyJSON), .text(table.target.sourceName),
                .text(Timestamp.now()), .integer(Int64(rows)),
            ])
    }

    /// The row count `epf_table_info` keeps for `table` (what the last
    /// apply left); nil when it has none (a catalog from before the count
    /// was kept, or a table the importer did not make).
    package func storedRowCount(of table: String) throws -> Int? {
        try applyConnection.scalar(
            "SELECT row_count FROM \(CatalogTables.tableInfo) WHERE table_name = \(dialect.parameter(1))", [.text(table)]
        )?.asInteger.map { Int($0) }
    }
}
