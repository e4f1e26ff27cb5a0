import EPFImport
import Foundation

/// What `SyncImports` tells while it imports.
package enum SyncEvent: Sendable {
    /// An event of an import pass; `duringDownload` while files still
    /// download (shown below the download's status line, without a status
    /// line of its own).
    case imported(ImportEvent, duringDownload: Bool)
    /// A unit applied while files still download: its files applied and
    /// failed, and the files still downloading.
    case unitImported(path: String, applied: Int, failed: Int, downloading: Int)
    /// Something worth telling: a day held back and why, a plan's note
    /// (told by the last pass).
    case note(String)
}

/// The imports of a sync (`epf sync`), on a thread of their own while the
/// download goes on. Each time a file of the download plan ends, the
/// download folder is planned as `epf import DIR` plans it, less what
/// `IncompleteFeeds` holds back (the days of files that failed or are still
/// downloading, and the later days of their feed), less the days this run
/// already imported; what is left is applied at once, in plan order,
/// through one `CatalogImport`, while the later files keep downloading.
/// When the download is over, a last pass applies the rest and says why
/// anything was held back.
///
/// A thread, not a task: an import pass blocks for as long as it loads
/// (minutes at the feed's real size), and Swift's cooperative pool has a
/// thread per core; the download's own threads must keep going meanwhile.
///
/// Invariant: `pending`, `failed`, `over`, `aborted` and `changed` are
/// touched only under `condition`; the rest only by the thread that runs
/// the passes (the import thread, or the caller of `finish` when none was
/// started), and by `finish` after that thread is done.
package final class SyncImports: @unchecked Sendable {
    /// Where the download lands, and what of it to import.
    package struct Source: Sendable {
        package var folder: String
        package var filter: TableFilter
        /// `--feed`: only these feeds (all when nil).
        package var feeds: Set<String>?
        package var tablePrefix: String

        package init(folder: String, filter: TableFilter, feeds: Set<String>?, tablePrefix: String) {
            self.folder = folder
            self.filter = filter
            self.feeds = feeds
            self.tablePrefix = tablePrefix
        }
    }

    /// How a sync's imports ended.
    package struct Outcome {
        /// The import all passes went through; nil when nothing was imported.
        package var catalogImport: CatalogImport?
        /// Why the last pass found nothing to import, when it found nothing.
        package var nothing: String?
    }

    private let source: Source
    private let open: () throws -> CatalogImport
    private let events: (SyncEvent) -> Void

    private let condition = NSCondition()
    private var pending: [String: RemoteFile]
    private var failed: [RemoteFile] = []
    private var over = false
    private var aborted = false
    private var changed = true

    private var started = false
    private let done = DispatchSemaphore(value: 0)
    private var catalogImport: CatalogImport?
    /// The units handed to the import, by path.
    private var imported: Set<String> = []
    /// Feeds a unit of which failed to import: their later days wait for
    /// the next run (a later day is never applied before an earlier one).
    private var brokenFeeds: [String: String] = [:]
    private var error: (any Error)?
    /// Why the last pass found nothing to import.
    private var nothing: String?

    /// Imports what `files` (the download plan) bring into the catalog
    /// `open` opens (at the first pass that has something to apply).
    package init(
        _ source: Source, files: [RemoteFile], open: @escaping () throws -> CatalogImport, events: @escaping (SyncEvent) -> Void
    ) {
        self.source = source
        self.open = open
        self.events = events
        pending = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Starts the import thread, for passes while the download goes on.
    package func start() {
        started = true
        Thread.detachNewThread {
            self.passes()
            self.done.signal()
        }
    }

    /// A file of the plan ended (called from the thread that fetched it).
    package func fileEnded(_ record: FetchRecord) {
        condition.withLock {
            pending[record.file.path] = nil
            if case .success = record.result {} else { failed.append(record.file) }
            changed = true
            condition.signal()
        }
    }

    /// The download stopped early (the server refused the credentials): no
    /// pass starts any more; waits for the one under way. Returns what a
    /// pass threw, if one did (else it would go unsaid).
    package func abort() -> (any Error)? {
        condition.withLock {
            aborted = true
            condition.signal()
        }
        if started { done.wait() }
        return error
    }

    /// The download is over, `failed` (the files not in place) included:
    /// runs the last pass. Throws what opening the catalog, planning the
    /// folder or reading the journal threw.
    package func finish(failed: [RemoteFile]) throws -> Outcome {
        condition.withLock {
            pending = [:]
            self.failed = failed
            over = true
            changed = true
            condition.signal()
        }
        if started { done.wait() } else { passes() }
        if let error { throw error }
        return Outcome(catalogImport: catalogImport, nothing: nothing)
    }

    /// Runs a pass each time something changed, until the last pass.
    private func passes() {
        while true {
            condition.lock()
            while !changed && !over && !aborted { condition.wait() }
            let stop = aborted
            let last = over
            let waiting = Array(pending.values)
            let failedNow = failed
            changed = false
            condition.unlock()
            if stop { return }
            do {
                try pass(last: last, pending: waiting, failed: failedNow)
            } catch {
                self.error = error
                return
            }
            if last { return }
        }
    }

    /// Plans the folder and applies the days that are whole and not yet
    /// imported. Before the last pass, a folder that cannot be planned yet
    /// is left for the next pass (the last one says what is wrong with it).
    private func pass(last: Bool, pending: [RemoteFile], failed: [RemoteFile]) throws {
        let folder = source.folder
        guard FileManager.default.fileExists(atPath: folder) else {
            if last { nothing = "\(folder) does not exist" }
            return
        }
        let planned: ImportPlan
        do {
            planned = try ImportPlanner.plan(paths: [folder], filter: source.filter, tablePrefix: source.tablePrefix)
        } catch {
            if last { throw error }
            return
        }
        if last {
            for note in planned.notes + planned.uncheckedMD5Notes { events(.note(note)) }
        }
        var (plan, notes) = IncompleteFeeds.withhold(planned, failed: failed, pending: pending, feeds: source.feeds)
        plan.units = plan.units.filter { unit in
            guard !imported.contains(unit.path) else { return false }
            if let name = unit.feed, let broken = brokenFeeds[name.feed] {
                notes.append("\(unit.path): not imported: it comes after \(broken), which failed to import")
                return false
            }
            return true
        }
        if last {
            for note in notes { events(.note(note)) }
            if plan.fileCount == 0 && catalogImport == nil {
                nothing = "no complete feed in \(folder)"
                return
            }
        }
        guard !plan.units.isEmpty else { return }

        let catalogImport = try self.catalogImport ?? open()
        self.catalogImport = catalogImport
        let duringDownload = !last
        let reports = try catalogImport.apply(plan) { [events] in events(.imported($0, duringDownload: duringDownload)) }
        imported.formUnion(plan.units.map(\.path))
        for unit in plan.units {
            let own = reports.filter { report in unit.files.contains { $0.path == report.path } || unit.archive?.path == report.path }
            let applied = own.filter { $0.status == .applied }.count
            if applied < own.count, let name = unit.feed, brokenFeeds[name.feed] == nil { brokenFeeds[name.feed] = unit.path }
            if !last && !own.isEmpty && !pending.isEmpty {
                events(.unitImported(path: unit.path, applied: applied, failed: own.count - applied, downloading: pending.count))
            }
        }
    }
}
