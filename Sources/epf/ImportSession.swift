import ArgumentParser
import EPFCatalog
import EPFImport
import Foundation

/// A catalog opened by `ImportRun`, that import plans are applied to one
/// after another (`epf import`: one plan; `epf sync`: each feed day as soon
/// as it is downloaded), each scheduled against the journal as it stands
/// then; one summary at the end, of every file of every plan.
final class ImportSession {
    let run: ImportRun
    let store: any CatalogStore
    let options: ImportOptions
    /// Where messages go (`epf sync` while it downloads: below the download
    /// status line, and no import status line of its own).
    var say: (String) -> Void = { Console.message($0) }
    /// Whether the import shows a status line on a terminal.
    var live = Console.messagesAreTerminal
    private(set) var reports: [FileReport] = []
    private var scheduled = 0
    private var elapsed: Duration = .zero

    init(run: ImportRun, store: any CatalogStore, options: ImportOptions) {
        self.run = run
        self.store = store
        self.options = options
    }

    /// Schedules `plan` against the journal (a message per unit skipped)
    /// and imports what is left, with a progress display on a terminal.
    /// Returns this plan's reports; throws `ExitCode(1)` when the journal
    /// cannot be read.
    @discardableResult
    func apply(_ plan: ImportPlan) throws -> [FileReport] {
        let schedule: ImportSchedule
        let storefronts: StorefrontChoice
        do {
            let applied = try store.appliedFiles()
            schedule = ImportSchedule(plan: plan, applied: applied, force: run.force)
            storefronts = try StorefrontChoice(requested: run.storefronts, applied: applied, force: run.force) { schedule.holdsFull }
            try store.confirmUnchanged(schedule.unchangedDownloads)
        } catch {
            Console.message("epf \(run.command): \(error)")
            throw ExitCode(1)
        }
        for skip in schedule.skipped {
            say("skipped: \(skip.what): \(skip.reason)")
        }
        scheduled += schedule.units.count
        let progress = ProgressDisplay(live: live, say: say)
        var options = options
        options.storefronts = storefronts.kept?.filter
        options.replacesStorefronts = storefronts.replaces
        options.separators = plan.separators
        if let note = storefronts.note { say("note: \(note)") }
        let importer = Importer(store: store, options: options) { progress.show($0) }
        let clock = ContinuousClock.now
        let scheduledPlan = schedule.plan(notes: plan.notes)
        progress.start(scheduledPlan)
        let applied = importer.run(scheduledPlan)
        progress.finish()
        elapsed += ContinuousClock.now - clock
        reports += applied
        return applied
    }

    /// Prints the summary (`--format`) of every plan applied. Returns
    /// whether every file was applied (true also when there was nothing to
    /// import).
    func finish() -> Bool {
        if scheduled == 0 {
            Console.message("epf \(run.command): nothing to import")
        }
        let summary = ImportSummary(reports: reports, catalog: run.location.displayName, elapsed: elapsed)
        switch run.format {
        case .table: Console.message(summary.table())
        case .json: Console.out(summary.json())
        case .csv: Console.out(summary.csv())
        }
        return !reports.contains(where: { $0.status != .applied })
    }
}
