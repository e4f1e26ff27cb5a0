import EPFCatalogStore
import EPFLake
import EPFLocation
import EPFPostgres
import EPFSQLite
import Foundation

/// The stores of a catalog location, for the commands that write (`epf
/// import`, `epf sync`, `epf verify`): kept out of EPFLocation, so that a
/// reader of catalogs (`epf-server`) links no store, no lake and no
/// Parquet writer.
extension CatalogLocation {
    /// The store `epf verify` checks with: keys as the default (SQLite)
    /// catalog stores them.
    package static func keyCheckStore(_ settings: KeyCheckSettings) -> any KeyCheckingStore {
        SQLiteKeyCheckStore(settings: settings)
    }

    /// Opens the catalog for an import (creating it if missing); a big
    /// file goes to PostgreSQL over `jobs` COPY connections at once.
    package func openStore(restart: Bool, exclusive: Bool, jobs: Int = 1, hooks: LoadHooks) throws -> any CatalogStore {
        switch self {
        case .sqlite(let path):
            return try SQLiteCatalogStore(path: path, restart: restart, exclusive: exclusive, hooks: hooks)
        case .postgres(let target):
            var options = try PostgresStoreOptions(environment: ProcessInfo.processInfo.environment)
            options.copyStreams = jobs
            return try PostgresCatalogStore(target: target, options: options, restart: restart, hooks: hooks)
        case .lake(let path):
            return try LakeStore(path: path, hooks: hooks)
        }
    }

    /// The files the journal lists as applied, read without changing
    /// anything (for `--dry-run`); none when there is no catalog yet.
    package func appliedFiles() throws -> [AppliedFile] {
        switch self {
        case .sqlite(let path): return try SQLiteCatalogStore.appliedFiles(catalogAt: path)
        case .postgres(let target): return try PostgresCatalogStore.appliedFiles(at: target)
        case .lake(let path): return try LakeStore.appliedFiles(lakeAt: path)
        }
    }

    /// `epf compact`: gives back to the disk the space a FULL re-import
    /// left free inside the catalog (SQLite: `SQLiteCompaction`, safe while
    /// readers read); on PostgreSQL there is none (`PostgresCompaction`
    /// says why). `progress` hears how far it is.
    package func compact(hooks: CompactionHooks, progress: (CompactionEvent) -> Void) throws(CatalogError) -> CompactionReport {
        switch self {
        case .sqlite(let path): return try SQLiteCompaction.compact(path: path, hooks: hooks, progress: progress)
        case .postgres(let target): return try PostgresCompaction.compact(target: target)
        case .lake(let path):
            throw CatalogError(
                .usage, detail: "\(path) is a Parquet lake: each import adds files of its own, and there is nothing to compact",
                hint: "Name a SQLite or PostgreSQL catalog with --db")
        }
    }
}
