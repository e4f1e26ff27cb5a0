import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
import EPFReport
import Foundation

/// `epf sync --to DIR --db CATALOG`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download what the EPF server has that is new, then import it: the nightly job in one command.",
        discussion: """
            epf fetch --to DIR, then epf import DIR, with the same options: a feed day is \
            imported as soon as its files are in, while later files still download. Running \
            it again downloads and imports nothing. A day whose files did not all download \
            is not imported, nor the later days of its feed; the message says which.

            Exit status 1 when something could not be downloaded or imported (or, with \
            --require-feeds, when the server lists no feed). See docs/operations.md.
            """
    )

    @OptionGroup var options: FetchOptions

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var load: LoadOptions

    @OptionGroup var job: NightlyJobOptions

    @Option(name: .long, help: "Where the import summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func run() throws {
        try job.recording("sync") { metrics in try sync(metrics) }
    }

    private func sync(_ metrics: ImportMetricsRecorder?) throws {
        metrics?.download = ImportMetrics.Download()
        let session = try FetchSession(options, command: "sync", metrics: metrics)
        let console = ConsoleImport(location: catalog.location, command: "sync", load: load, format: format, metrics: metrics)
        let files = session.plan.files
        let progress = files.isEmpty ? nil : session.makeProgress()
        let display = SyncProgressText(live: Console.messagesAreTerminal, below: progress, write: Console.show)
        let source = SyncImports.Source(
            folder: options.to, filter: try options.tables.filter(), feeds: options.feeds, tablePrefix: load.tablePrefix)
        let imports = SyncImports(source, files: files, open: console.open, events: display.show)
        var failed: [RemoteFile] = []
        if let progress {
            try session.checkSpace(catalog: catalog.location.spaceCheckedPath)
            imports.start()
            do {
                failed = try session.download(progress, metrics: metrics) { imports.fileEnded($0) }.failed
            } catch {
                if let failure = imports.abort(), !(failure is ExitCode) { Console.failure("epf sync: \(failure)") }
                throw error
            }
        } else {
            try job.noFeedFound("epf sync: the server lists no feed at \(session.server.base.absoluteString)")
            Console.message("epf sync: nothing to fetch from \(session.server.base.absoluteString)")
        }
        let outcome = try Console.exitOnFailure("sync") {
            defer { display.finish() }
            return try imports.finish(failed: failed)
        }
        if let nothing = outcome.nothing { Console.message("epf sync: nothing to import: \(nothing)") }
        // The last pass found nothing new: no summary to print.
        let applied = outcome.nothing != nil || (outcome.catalogImport.map(console.finish) ?? true)
        if !applied || !failed.isEmpty { throw ExitCode(1) }
    }
}
