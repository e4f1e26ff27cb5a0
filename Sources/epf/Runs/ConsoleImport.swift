import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFReport
import EPFStores
import Foundation

/// How `epf import` and `epf sync` catalogImport a `CatalogImport`: the store opened
/// from the command's options with a message for each thing worth telling,
/// each plan's events shown as progress, the summary printed in
/// `--format`, and failures mapped to exit status 1.
struct ConsoleImport {
    /// Where the import goes (`--db`, or whatever store the command names).
    var location: CatalogLocation
    /// `import` or `sync`, for messages.
    var command: String
    var load: LoadOptions
    var format: OutputFormat
    var requireMD5 = false
    var force = false
    var jobs = 2
    var storefronts: CatalogImport.Storefronts = .catalogs
    /// Told of the import once the store is open (`--metrics-file`).
    var metrics: ImportMetricsRecorder?

    /// Imports `plan`. Returns whether every file was applied (true also
    /// when there was nothing to import); throws `ExitCode(1)` when the
    /// catalog cannot be opened or read.
    func apply(_ plan: ImportPlan) throws -> Bool {
        let catalogImport = try open()
        try apply(plan, to: catalogImport)
        return finish(catalogImport)
    }

    /// Opens the store (a message for each thing worth telling about how it
    /// was opened), for plans to be applied to it one after another.
    /// Throws `ExitCode(1)` when it cannot be opened.
    func open() throws -> CatalogImport {
        let testing = TestEnvironment()
        let store = try Console.exitOnFailure(command) {
            try location.openStore(restart: load.restart, exclusive: load.exclusive, jobs: jobs, hooks: testing.hooks)
        }
        for note in store.openingNotes { Console.message("note: \(note)") }
        var options = ImportOptions(
            strict: load.strict, requireMD5: requireMD5, allowShrink: load.allowShrink,
            parallelTables: location.loadsTablesAtOnce ? jobs : 1)
        options.keepHistoryDays = load.keepHistoryDays
        if let chunkBytes = testing.chunkBytes { options.chunkSize = chunkBytes }
        let catalogImport = CatalogImport(store: store, options: options, force: force, storefronts: storefronts)
        metrics?.catalogImport = catalogImport
        return catalogImport
    }

    /// Applies `plan` through `catalogImport`, its events shown as progress on
    /// standard error. Throws `ExitCode(1)` when the journal cannot be read
    /// or the storefronts asked for conflict with the catalog's.
    func apply(_ plan: ImportPlan, to catalogImport: CatalogImport) throws {
        let progress = ImportProgressText(live: Console.messagesAreTerminal, write: Console.show)
        defer { progress.finish() }
        try Console.exitOnFailure(command) { try catalogImport.apply(plan) { progress.show($0) } }
    }

    /// Prints the summary (`--format`) of every plan `catalogImport` applied.
    /// Returns whether every file was applied (true also when there was
    /// nothing to import).
    func finish(_ catalogImport: CatalogImport) -> Bool {
        if catalogImport.unitsScheduled == 0 {
            Console.message("epf \(command): nothing to import")
        }
        let summary = catalogImport.summary(catalog: location.displayName)
        Console.print(summary, as: format)
        return summary.allApplied
    }
}
