import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
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
        let testing = TestEnvironment()
        let store: any CatalogStore
        do {
            store = try location.openStore(restart: restart, exclusive: exclusive, hooks: testing.hooks)
            for note in store.notes { Console.message("note: \(note)") }
        } catch {
            Console.message("epf \(command): \(error)")
            throw ExitCode(1)
        }
        for leftover in store.droppedLeftovers {
            Console.message("note: dropped \(leftover), left by an import that did not finish")
        }
        for load in store.resumableLoads {
            Console.message(
                "note: an interrupted load of \(load.table) (\(load.records) rows committed) resumes if this import reads the same file; --restart starts over")
        }
        let schedule: ImportSchedule
        let storefronts: StorefrontChoice
        do {
            let applied = try store.appliedFiles()
            schedule = ImportSchedule(plan: plan, applied: applied, force: force)
            storefronts = try StorefrontChoice(requested: self.storefronts, applied: applied, force: force) { schedule.holdsFull }
            try store.confirmUnchanged(schedule.unchangedDownloads)
        } catch {
            Console.message("epf \(command): \(error)")
            throw ExitCode(1)
        }
        for skip in schedule.skipped {
            Console.message("skipped: \(skip.what): \(skip.reason)")
        }
        if schedule.units.isEmpty {
            Console.message("epf \(command): nothing to import")
        }

        let progress = ProgressDisplay(live: Console.messagesAreTerminal)
        var options = ImportOptions(
            strict: strict, requireMD5: requireMD5, allowShrink: allowShrink, parallelTables: location.loadsTablesAtOnce ? jobs : 1,
            allowIncrementalWithoutFull: force)
        if let chunkBytes = testing.chunkBytes { options.chunkSize = chunkBytes }
        options.storefronts = storefronts.kept?.filter
        options.replacesStorefronts = storefronts.replaces
        if let note = storefronts.note { Console.message("note: \(note)") }
        let importer = Importer(store: store, options: options) { progress.show($0) }
        let clock = ContinuousClock.now
        let reports = importer.run(schedule.plan(notes: plan.notes))
        progress.finish()
        let elapsed = ContinuousClock.now - clock

        let summary = ImportSummary(reports: reports, catalog: location.displayName, elapsed: elapsed)
        switch format {
        case .table: Console.message(summary.table())
        case .json: Console.out(summary.json())
        case .csv: Console.out(summary.csv())
        }
        return !reports.contains(where: { $0.status != .applied })
    }
}
