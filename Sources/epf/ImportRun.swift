import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFStoreLocation
import Foundation

/// Applies an import plan to the catalog: what `epf import` does once its
/// paths are planned, and `epf sync` once the download is over. Opens the
/// store, schedules the plan against the import journal, imports, prints
/// the summary.
struct ImportRun {
    /// Where the import goes (`--db`, or whatever store the command names).
    var location: CatalogLocation
    /// `import` or `sync`, for messages.
    var command: String
    var strict = false
    var requireMD5 = false
    var allowShrink = false
    var restart = false
    var exclusive = false
    var force = false
    var jobs = 2
    var format: OutputFormat = .table
    /// `--storefront`: nil when not given (the catalog's set is kept),
    /// `.some(nil)` for `all` (`StorefrontChoice`).
    var storefronts: StorefrontSet?? = nil

    /// Imports `plan`. Returns whether every file was applied (true also
    /// when there was nothing to import); throws `ExitCode(1)` when the
    /// catalog cannot be opened or read.
    func apply(_ plan: ImportPlan) throws -> Bool {
        let session = try open()
        try session.apply(plan)
        return session.finish()
    }

    /// Opens the store (a message for each thing worth telling about how it
    /// was opened), for plans to be applied to it one after another.
    /// Throws `ExitCode(1)` when it cannot be opened.
    func open() throws -> ImportSession {
        let testing = TestEnvironment()
        let store: any CatalogStore
        do {
            store = try location.openStore(restart: restart, exclusive: exclusive, jobs: jobs, hooks: testing.hooks)
            for note in store.notes { Console.message("note: \(note)") }
        } catch {
            Console.message("epf \(command): \(error)")
            throw ExitCode(1)
        }
        for leftover in store.droppedLeftovers {
            Console.message("note: dropped \(leftover), left by an import that did not finish")
        }
        for load in store.resumableLoads {
            // A load resumes only under its own filter: say which.
            let filter = load.storefronts.map { " with --storefront \($0.argument)" } ?? ""
            Console.message(
                "note: an interrupted load of \(load.table) (\(load.records) rows committed) resumes if this import reads the same file\(filter); --restart starts over")
        }
        var options = ImportOptions(
            strict: strict, requireMD5: requireMD5, allowShrink: allowShrink, parallelTables: location.loadsTablesAtOnce ? jobs : 1,
            allowIncrementalWithoutFull: force)
        if let chunkBytes = testing.chunkBytes { options.chunkSize = chunkBytes }
        return ImportSession(run: self, store: store, options: options)
    }
}
