import ArgumentParser
import EPFFetch
import EPFImport
import Foundation

/// `epf sync`'s imports, on a thread of their own while the download goes
/// on. Each time a file of the plan ends, the download folder is planned as
/// `epf import DIR` plans it, less what `IncompleteFeeds` holds back (the
/// days of files that failed or are still downloading, and the later days
/// of their feed), less the days this run already imported; what is left is
/// applied at once, in plan order, through one `CatalogImport`, while the
/// later files keep downloading. When the download is over, a last pass
/// applies the rest and says why anything was held back.
///
/// Invariant: `pending`, `failed`, `over`, `aborted` and `changed` are
/// touched only under `condition`; the rest only by the thread that runs
/// the passes (the import thread, or the caller of `finish` when none was
/// started), and by `finish` after that thread is done.
final class SyncImports: @unchecked Sendable {
    let run: ImportRun
    let options: FetchOptions
    let tablePrefix: String

    private let condition = NSCondition()
    private var pending: [String: RemoteFile]
    private var failed: [RemoteFile] = []
    private var over = false
    private var aborted = false
    private var changed = true

    private var started = false
    private let done = DispatchSemaphore(value: 0)
    private var progress: DownloadProgress?
    private var session: CatalogImport?
    /// The units handed to the session, by path.
    private var imported: Set<String> = []
    /// Feeds a unit of which failed to import: their later days wait for
    /// the next run (a later day is never applied before an earlier one).
    private var brokenFeeds: [String: String] = [:]
    private var error: (any Error)?
    /// Why the last pass found nothing to import.
    private var nothing: String?

    /// Imports into `run`'s catalog what `files` (the download plan) bring.
    init(_ run: ImportRun, options: FetchOptions, tablePrefix: String, files: [RemoteFile]) {
        self.run = run
        self.options = options
        self.tablePrefix = tablePrefix
        pending = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Starts the import thread; its messages go through `progress` (below
    /// the download's status line) while the download goes on.
    func start(_ progress: DownloadProgress) {
        self.progress = progress
        started = true
        Thread.detachNewThread {
            self.passes()
            self.done.signal()
        }
    }

    /// A file of the plan ended (called from the thread that fetched it).
    func fileEnded(_ record: FetchRecord) {
        condition.withLock {
            pending[record.file.path] = nil
            if case .success = record.result {} else { failed.append(record.file) }
            changed = true
            condition.signal()
        }
    }

    /// The download stopped early (the server refused the credentials): no
    /// pass starts any more; waits for the one under way.
    func abort() {
        condition.withLock {
            aborted = true
            condition.signal()
        }
        if started { done.wait() }
    }

    /// The download is over, `failed` (the files not in place) included:
    /// runs the last pass, then prints the import summary. Returns whether
    /// every file imported was applied; throws `ExitCode(1)` as `ImportRun`
    /// does (the catalog or the folder could not be read).
    func finish(failed: [RemoteFile]) throws -> Bool {
        condition.withLock {
            pending = [:]
            self.failed = failed
            over = true
            changed = true
            condition.signal()
        }
        if started { done.wait() } else { passes() }
        if let error { throw error }
        if let nothing {
            Console.message("epf \(run.command): nothing to import: \(nothing)")
            return true
        }
        return session.map(run.finish) ?? true
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
        let folder = options.to
        guard FileManager.default.fileExists(atPath: folder) else {
            if last { nothing = "\(folder) does not exist" }
            return
        }
        let planned: ImportPlan
        if last {
            planned = try PlannedInput.plan(
                [folder], include: options.include, exclude: options.exclude, tablePrefix: tablePrefix, requireMD5: false, command: run.command)
        } else {
            guard let filter = try? TableFilter(include: options.include, exclude: options.exclude),
                let plan = try? ImportPlanner.plan(paths: [folder], filter: filter, tablePrefix: tablePrefix)
            else { return }
            planned = plan
        }
        var (plan, notes) = IncompleteFeeds.withhold(planned, failed: failed, pending: pending, feeds: options.feeds)
        plan.units = plan.units.filter { unit in
            guard !imported.contains(unit.path) else { return false }
            if let name = unit.feed, let broken = brokenFeeds[name.feed] {
                notes.append("\(unit.path): not imported: it comes after \(broken), which failed to import")
                return false
            }
            return true
        }
        if last {
            for note in notes { Console.message("note: \(note)") }
            if plan.fileCount == 0 && session == nil {
                nothing = "no complete feed in \(folder)"
                return
            }
        }
        guard !plan.units.isEmpty else { return }

        let session = try self.session ?? run.open()
        self.session = session
        let say: (String) -> Void
        if let progress, !last { say = { progress.message($0) } } else { say = { Console.message($0) } }
        let reports = try run.apply(plan, to: session, say: say, live: last || progress == nil ? Console.messagesAreTerminal : false)
        imported.formUnion(plan.units.map(\.path))
        for unit in plan.units {
            let own = reports.filter { report in unit.files.contains { $0.path == report.path } || unit.archive?.path == report.path }
            let applied = own.filter { $0.status == .applied }.count
            if applied < own.count, let name = unit.feed, brokenFeeds[name.feed] == nil { brokenFeeds[name.feed] = unit.path }
            if !last && !own.isEmpty && !pending.isEmpty {
                say(
                    "epf \(run.command): \(unit.path): \(applied) file(s) applied, \(own.count - applied) failed, while \(pending.count) file(s) still download")
            }
        }
    }
}
