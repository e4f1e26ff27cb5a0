import EPFCatalogStore
import EPFFormat
import Foundation

/// The Parquet lake as a store behind the importer's seam: append-only
/// history, one Hive partition per applied table file.
///
/// ```
/// DIR/<table>/export_date=YYYY-MM-DD/mode=FULL/part-00000.parquet
/// DIR/<table>/export_date=YYYY-MM-DD/mode=INCREMENTAL/part-00000.parquet
/// DIR/_epf/journal.jsonl       one line per applied file (LakeJournalLine)
/// DIR/_epf/views.sql           DuckDB views <table>_current (LakeViews)
/// DIR/_epf/import.lock         one import at a time
/// ```
///
/// A loader (`LakeTableLoader`) writes a file's rows to a temporary file in
/// the table's folder and syncs it; `apply` renames each into its
/// partition (replacing a partition of the same day and mode that an
/// interrupted or forced run left), syncs the folders, then appends the journal lines and
/// syncs the journal. A reader sees a day whole or not at all; an apply
/// that fails removes the days it renamed into place; a kill before the
/// journal line leaves a partition that the rerun writes again.
/// Files that fail leave nothing: their temporary file is removed, and
/// the journal lists applied files only (failures are in the report).
///
/// Opened inside the package only (`epf import --lake`, through
/// EPFStores): `package`, like the rest of EPFLake, which is no
/// library product.
package final class LakeStore: CatalogStore {
    /// The lake's folder.
    package let path: String
    let journal: LakeJournal
    let lock: ImportLock
    /// Bytes of buffered values after which a row group is written.
    let rowGroupBytes: Int
    let hooks: LoadHooks
    package private(set) var droppedLeftovers: [String] = []

    /// Row groups of about 128 MB of values.
    package static let defaultRowGroupBytes = 128 << 20

    /// Opens (creating it if missing) the lake at `path` for an import:
    /// takes its import lock and removes temporary files left by imports
    /// that did not finish. `hooks.checkpointBytes`, when set, is the row
    /// group size instead of `rowGroupBytes` (tests: many row groups).
    package init(path: String, rowGroupBytes: Int = LakeStore.defaultRowGroupBytes, hooks: LoadHooks = LoadHooks()) throws {
        self.path = path
        // Where a catalog commits a checkpoint, the lake writes a row group.
        self.rowGroupBytes = hooks.checkpointBytes.map { Int(clamping: $0) } ?? rowGroupBytes
        self.hooks = hooks
        let meta = Self.metaFolder(path)
        do {
            try FileManager.default.createDirectory(atPath: meta, withIntermediateDirectories: true)
        } catch {
            throw CatalogError(
                .readOnly, detail: "cannot create the lake folder \(meta): \(error.localizedDescription)",
                hint: "Check that the folder is writable")
        }
        lock = try ImportLock(catalogPath: meta + "/import")
        journal = LakeJournal(path: Self.journalPath(path))
        droppedLeftovers = removeLeftovers()
        // An import killed between its journal line and the views' rename
        // leaves views.sql.tmp, and views.sql perhaps without the tables
        // of that line: written again from the journal, which the rerun
        // would otherwise leave as it is (it has nothing to apply).
        let views = Self.metaFolder(path) + "/views.sql.tmp"
        if unlink(views) == 0 {
            droppedLeftovers.append(views)
            try LakeViews.write(lines: try journal.lines(), lake: path)
        }
    }

    static func metaFolder(_ lake: String) -> String { lake + "/_epf" }
    static func journalPath(_ lake: String) -> String { metaFolder(lake) + "/journal.jsonl" }

    /// The files the journal of the lake at `path` lists as applied, read
    /// without changing anything (for `--dry-run`); none when there is no
    /// lake yet.
    package static func appliedFiles(lakeAt path: String) throws -> [AppliedFile] {
        try LakeJournal(path: journalPath(path)).lines().enumerated().map { $1.applied(id: Int64($0 + 1)) }
    }

    /// Temporary files (`.part-*.tmp`) in the tables' folders.
    private func removeLeftovers() -> [String] {
        let manager = FileManager.default
        var removed: [String] = []
        for table in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where !table.hasPrefix("_") {
            let folder = path + "/" + table
            for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(".part-") && name.hasSuffix(".tmp") {
                if unlink(folder + "/" + name) == 0 { removed.append(folder + "/" + name) }
            }
        }
        return removed
    }

    package func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        let folder = path + "/" + target.table
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CatalogError(
                .readOnly, detail: "cannot create \(folder): \(error.localizedDescription)",
                hint: "Check that the lake's folder is writable")
        }
        let temporary = folder + "/.part-\(UUID().uuidString.lowercased()).parquet.tmp"
        return try LakeTableLoader(target: target, strict: strict, temporaryPath: temporary, rowGroupBytes: rowGroupBytes, hooks: hooks)
    }

    /// The partition a staged file goes to: its first row's `export_date`
    /// as a UTC day, else (a file without rows) its feed's date, and its
    /// export mode (a FULL and an INCREMENTAL file of one day do not clash).
    func partition(of table: StagedTable, entry: JournalEntry) throws -> String {
        let day: String
        if let exportDate = table.firstExportDate {
            day = LakeValues.isoDay(milliseconds: exportDate)
        } else if let feedDate = entry.feedDate {
            day = feedDate
        } else {
            throw CatalogError(
                .failed, detail: "\(table.target.sourceName) has no rows and no feed date: its day is unknown",
                hint: "Import it from its feed folder (itunesYYYYMMDD/...), whose name gives the day")
        }
        return LakePartition.path(table: table.target.table, day: day, mode: table.target.header.exportMode.rawValue)
    }

    package func apply(_ staged: [StagedTable], journal entries: [JournalEntry]) throws -> [ApplyOutcome] {
        precondition(staged.count == entries.count, "one journal entry per staged table")
        var lines: [LakeJournalLine] = []
        var placed: [String] = []
        do {
            for (table, entry) in zip(staged, entries) {
                let partition = try partition(of: table, entry: entry)
                let folder = path + "/" + partition
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw CatalogError(
                        .readOnly, detail: "cannot create \(folder): \(error.localizedDescription)",
                        hint: "Check that the lake's folder is writable")
                }
                let final = folder + "/part-00000.parquet"
                guard rename(table.stagingName, final) == 0 else { throw LakeJournal.error("rename", "\(table.stagingName) to \(final)") }
                placed.append(final)
                try Self.syncFolder(folder)
                try Self.syncFolder((folder as NSString).deletingLastPathComponent)
                try Self.syncFolder(path + "/" + table.target.table)
                let header = table.target.header
                lines.append(
                    LakeJournalLine(
                        entry: entry, partition: partition, key: header.primaryKey, columns: header.columns,
                        dbTypes: header.types.map(\.declared)))
            }
            hooks.reach(.inApply)
            try journal.append(lines)
        } catch {
            // Not journaled: the days of this apply are not part of the lake.
            for file in placed { unlink(file) }
            throw error
        }
        try LakeViews.write(lines: try journal.lines(), lake: path)
        return staged.map { table in
            let rows = table.counts.rowsRead
            return ApplyOutcome(rowsAfter: rows, inserted: rows, updated: 0, addedColumns: [])
        }
    }

    static func syncFolder(_ folder: String) throws {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LakeJournal.error("open", folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw LakeJournal.error("fsync", folder) }
    }

    package func discard(_ staged: [StagedTable]) {
        for table in staged { unlink(table.stagingName) }
    }

    /// Nothing: the lake's journal lists applied files only; a file that
    /// failed leaves no line (the import's report says why it failed).
    package func record(_ journal: [JournalEntry]) throws {}

    package func appliedFiles() throws -> [AppliedFile] {
        try journal.lines().enumerated().map { $1.applied(id: Int64($0 + 1)) }
    }

    /// Rows of the table's newest FULL day; nil when the journal lists no
    /// day of the table (an INCREMENTAL file is then refused unless forced).
    /// The lake keeps every day, so this is what the shrink check compares
    /// a new FULL file with.
    package func rowCount(of table: String) throws -> Int? {
        let days = try journal.lines().filter { $0.entry.table == table }
        guard !days.isEmpty else { return nil }
        return days.last { $0.entry.mode == ExportMode.full.rawValue }?.entry.rows ?? 0
    }

    /// Parquet sets no limit; the decoder's per-column tables stay small.
    package var maximumColumns: Int { 10_000 }

    /// Bytes free to unprivileged writers on the lake's file system
    /// (`FileSystemSpace.availableBytes`).
    package func freeBytes() -> Int64? {
        hooks.freeBytes ?? FileSystemSpace.availableBytes(at: path)
    }
}
