import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFStoreLocation
import Foundation

/// How `epf import` and `epf sync` run a `CatalogImport`: the store opened
/// from the command's options with a message for each thing worth telling,
/// each plan's events shown as progress, the summary printed in
/// `--format`, and failures mapped to exit status 1.
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
    var storefronts: CatalogImport.Storefronts = .catalogs

    /// Imports `plan`. Returns whether every file was applied (true also
    /// when there was nothing to import); throws `ExitCode(1)` when the
    /// catalog cannot be opened or read.
    func apply(_ plan: ImportPlan) throws -> Bool {
        let run = try open()
        try apply(plan, to: run)
        return finish(run)
    }

    /// Opens the store (a message for each thing worth telling about how it
    /// was opened), for plans to be applied to it one after another.
    /// Throws `ExitCode(1)` when it cannot be opened.
    func open() throws -> CatalogImport {
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
                "note: an interrupted load of \(load.table) (\(load.records) rows committed) resumes if this import reads the same file\(filter); --restart starts over"
            )
        }
        var options = ImportOptions(
            strict: strict, requireMD5: requireMD5, allowShrink: allowShrink, parallelTables: location.loadsTablesAtOnce ? jobs : 1)
        if let chunkBytes = testing.chunkBytes { options.chunkSize = chunkBytes }
        return CatalogImport(store: store, options: options, force: force, storefronts: storefronts)
    }

    /// Applies `plan` through `run`, its events shown by a progress display
    /// whose messages go to `say` (`epf sync` while it downloads: below the
    /// download's status line, and no status line of its own: `live`
    /// false). Throws `ExitCode(1)` when the journal cannot be read or the
    /// storefronts asked for conflict with the catalog's.
    @discardableResult
    func apply(
        _ plan: ImportPlan, to run: CatalogImport, say: @escaping (String) -> Void = { Console.message($0) },
        live: Bool = Console.messagesAreTerminal
    )
        throws -> [FileReport]
    {
        let progress = ProgressDisplay(live: live, say: say)
        defer { progress.finish() }
        do {
            return try run.apply(plan) { progress.show($0) }
        } catch {
            Console.message("epf \(command): \(error)")
            throw ExitCode(1)
        }
    }

    /// Prints the summary (`--format`) of every plan `run` applied.
    /// Returns whether every file was applied (true also when there was
    /// nothing to import).
    func finish(_ run: CatalogImport) -> Bool {
        if run.unitsScheduled == 0 {
            Console.message("epf \(command): nothing to import")
        }
        let summary = run.summary(catalog: location.displayName)
        switch format {
        case .table: Console.message(summary.table())
        case .json: Console.out(summary.json())
        case .csv: Console.out(summary.csv())
        }
        return summary.allApplied
    }
}
