import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
import Foundation

/// `epf sync --to DIR --db CATALOG`
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Download what the EPF server has that is new, then import it: the nightly job in one command.",
        discussion: """
            Does what `epf fetch --to DIR` does (the same options), and what `epf import DIR` \
            does with the catalog (the same planning: each feed's newest FULL export, then \
            the INCREMENTAL days after it; what the import journal lists as applied is \
            skipped). A feed day is imported as soon as all its files are downloaded, in \
            plan order, while the later files still download. Running it again downloads \
            nothing and imports nothing.

            A feed whose files did not all download is not imported, never half, and neither \
            are the later days of that feed; the message says which. --include and --exclude \
            apply to both the download and the import; with --feed, only those feeds are \
            imported.

            Exit status 0 when everything was downloaded and applied (or there was nothing \
            to do), 1 when something could not be downloaded or imported (or, with \
            --require-feeds, when the server lists no feed at all), 64 for usage errors.
            """
    )

    @OptionGroup var options: FetchOptions

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var load: LoadOptions

    @OptionGroup var feeds: RequireFeedsOption

    @Option(name: .long, help: "Where the import summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func run() throws {
        let session = try FetchSession(options, command: "sync")
        let run = ImportRun(
            location: catalog.location, command: "sync", strict: load.strict, allowShrink: load.allowShrink, restart: load.restart,
            exclusive: load.exclusive, format: format)
        let files = session.plan.files
        let progress = files.isEmpty ? nil : session.makeProgress()
        // Passes while files download speak below the download's status
        // line; the last one as epf import does.
        let during = ProgressDisplay(live: false) { progress?.message($0) ?? Console.message($0) }
        let after = ProgressDisplay(live: Console.messagesAreTerminal)
        let source = SyncImports.Source(
            folder: options.to, filter: try TableFilter(include: options.include, exclude: options.exclude), feeds: options.feeds,
            tablePrefix: load.tablePrefix)
        let imports = SyncImports(source, files: files, open: run.open) { event in
            switch event {
            case .imported(let event, let duringDownload): (duringDownload ? during : after).show(event)
            case .unitImported(let path, let applied, let failed, let downloading):
                during.say("epf sync: \(path): \(applied) file(s) applied, \(failed) failed, while \(downloading) file(s) still download")
            case .note(let text): Console.message("note: \(text)")
            }
        }
        var failed: [RemoteFile] = []
        if let progress {
            try session.checkSpace(catalog: catalog.location.spaceCheckedPath)
            imports.start()
            do {
                failed = try session.download(progress) { imports.fileEnded($0) }.failed
            } catch {
                if let failure = imports.abort(), !(failure is ExitCode) { Console.message("epf sync: \(failure)") }
                throw error
            }
        } else {
            try feeds.noFeedFound("epf sync: the server lists no feed at \(session.server.base.absoluteString)")
            Console.message("epf sync: nothing to fetch from \(session.server.base.absoluteString)")
        }
        let outcome: SyncImports.Outcome
        do {
            defer { after.finish() }
            outcome = try imports.finish(failed: failed)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Console.message("epf sync: \(error)")
            throw ExitCode(1)
        }
        let applied: Bool
        if let nothing = outcome.nothing {
            Console.message("epf sync: nothing to import: \(nothing)")
            applied = true
        } else {
            applied = outcome.importer.map(run.finish) ?? true
        }
        if !applied || !failed.isEmpty { throw ExitCode(1) }
    }
}
