import EPFCatalogStore

/// Imports plans into one open catalog, each scheduled against the import
/// journal as it stands then: what `epf import` does with its paths, and
/// `epf sync` with each feed day as soon as it is downloaded.
///
/// The schedule is the nightly job's rule: in a download folder, each
/// feed's newest FULL export, then the INCREMENTAL days after it in date
/// order; files the journal lists as applied (same feed, date, table, and
/// the same download by size, then modification time or md5) are skipped,
/// and so are days older than the catalog's. So the same plan applied
/// again imports nothing.
///
/// ```swift
/// let store = try SQLiteCatalogStore(path: "catalog.sqlite")
/// let run = CatalogImport(store: store)
/// try run.apply(try ImportPlanner.plan(paths: ["downloads"]))
/// print(run.summary(catalog: "catalog.sqlite").applied)
/// ```
///
/// Not thread-safe: one caller applies one plan at a time.
public final class CatalogImport {
    /// Which storefronts' rows an import keeps, in tables with a
    /// `storefront_id` column.
    public enum Storefronts: Sendable, Equatable {
        /// The set the catalog holds (every storefront for a new catalog).
        case catalogs
        /// Every storefront.
        case all
        /// Only these. A set other than the catalog's takes a FULL import
        /// (whose tables it replaces) or `force`.
        case only(StorefrontSet)

        /// The storefronts `--storefront` names (`StorefrontSet.parse`:
        /// `US,JP`, `143441`, or `all`); the catalog's when nil.
        package init(argument: String?) throws(CatalogError) {
            guard let argument else {
                self = .catalogs
                return
            }
            self = try StorefrontSet.parse(argument).map { .only($0) } ?? .all
        }
    }

    /// The store the plans are applied to.
    public let store: any CatalogStore
    /// How files are loaded (with `force`, INCREMENTAL files of tables the
    /// catalog lacks are applied too).
    public let options: ImportOptions
    /// Apply again what the journal lists as applied, and days older than
    /// the catalog's.
    public let force: Bool
    /// Which storefronts' rows the imports keep.
    public let storefronts: Storefronts
    /// The reports of every file of every plan applied so far.
    public private(set) var reports: [FileReport] = []
    /// Time spent in `apply`, all plans together.
    public private(set) var elapsed: Duration = .zero
    /// Units the schedules kept, all plans together (0: nothing was new).
    public private(set) var unitsScheduled = 0
    /// Table files the schedules left out (applied before, superseded by a
    /// newer FULL, older than the catalog's day), all plans together.
    public private(set) var filesSkipped = 0

    /// An import into `store` (`SQLiteCatalogStore`, `PostgresCatalogStore`),
    /// with `options`; `force` applies again what the journal lists as
    /// applied (and INCREMENTAL files of tables the catalog lacks), and
    /// `storefronts` says which storefronts' rows are kept.
    public init(
        store: any CatalogStore, options: ImportOptions = ImportOptions(), force: Bool = false, storefronts: Storefronts = .catalogs
    ) {
        var options = options
        if force { options.allowIncrementalWithoutFull = true }
        self.store = store
        self.options = options
        self.force = force
        self.storefronts = storefronts
    }

    /// Schedules `plan` against the journal and imports what is left.
    /// Events, in order: `skipped` for each unit (or part of one) the
    /// schedule leaves out, a `note` on the storefronts kept, `scheduled`
    /// with what will run, then the import's own. Returns this plan's
    /// reports (a failed file is a report, not an error); throws a
    /// `CatalogError` when the journal cannot be read or the storefronts
    /// asked for conflict with the catalog's.
    @discardableResult
    public func apply(_ plan: ImportPlan, events: @escaping (ImportEvent) -> Void = { _ in }) throws -> [FileReport] {
        let applied = try store.appliedFiles()
        let schedule = ImportSchedule(plan: plan, applied: applied, force: force)
        let choice = try StorefrontChoice(requested: storefronts.requested, applied: applied, force: force) { schedule.holdsFull }
        try store.confirmUnchanged(schedule.unchangedDownloads)
        for skip in schedule.skipped { events(.skipped(what: skip.what, reason: skip.reason)) }
        if let note = choice.note { events(.note(note)) }
        unitsScheduled += schedule.units.count
        // And the tables of an archive the journal lists as applied from it,
        // passed over as it is read.
        filesSkipped += schedule.skipped.reduce(0) { $0 + $1.fileCount } + schedule.units.reduce(0) { $0 + $1.skipTables.count }
        var options = options
        options.storefronts = choice.kept?.filter
        options.replacesStorefronts = choice.replaces
        options.separators = plan.separators
        let scheduled = schedule.plan(notes: plan.notes)
        events(.scheduled(scheduled))
        let started = ContinuousClock.now
        let reports = PlanRunner(store: store, options: options, events: events).run(scheduled)
        elapsed += ContinuousClock.now - started
        self.reports += reports
        return reports
    }

    /// The summary of every plan applied so far; `catalog` names the
    /// catalog in it.
    public func summary(catalog: String) -> ImportSummary {
        ImportSummary(catalog: catalog, elapsed: elapsed, files: reports)
    }
}

extension CatalogImport.Storefronts {
    /// As `StorefrontChoice` takes it: nil keeps the catalog's, `.some(nil)`
    /// is every storefront.
    var requested: StorefrontSet?? {
        switch self {
        case .catalogs: nil
        case .all: .some(nil)
        case .only(let set): .some(set)
        }
    }
}
