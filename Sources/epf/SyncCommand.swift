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
            Does what `epf fetch --to DIR` does (the same options), then what `epf import DIR` \
            does with the catalog (the same planning: each feed's newest FULL export, then \
            the INCREMENTAL days after it; what the import journal lists as applied is \
            skipped). Running it again downloads nothing and imports nothing.

            A feed whose files did not all download is not imported, never half, and neither \
            are the later days of that feed; the message says which. --include and --exclude \
            apply to both the download and the import; with --feed, only those feeds are \
            imported.

            Exit status 0 when everything was downloaded and applied (or there was nothing \
            to do), 1 when something could not be downloaded or imported, 64 for usage errors.
            """
    )

    @OptionGroup var options: FetchOptions

    @OptionGroup var catalog: CatalogOption

    @OptionGroup var load: LoadOptions

    @Option(name: .long, help: "Where the import summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func run() throws {
        let session = try FetchSession(options, command: "sync")
        var failed: [RemoteFile] = []
        if session.plan.files.isEmpty {
            Console.message("epf sync: nothing to fetch from \(session.server.base.absoluteString)")
        } else {
            try session.checkSpace(catalog: catalog.location.spaceCheckedPath)
            failed = try session.download().failed
        }

        guard FileManager.default.fileExists(atPath: options.to) else {
            Console.message("epf sync: nothing to import: \(options.to) does not exist")
            if !failed.isEmpty { throw ExitCode(1) }
            return
        }
        let planned = try PlannedInput.plan(
            [options.to], include: options.include, exclude: options.exclude, tablePrefix: load.tablePrefix, requireMD5: false, command: "sync")
        let (plan, notes) = IncompleteFeeds.withhold(planned, failed: failed, feeds: options.feeds)
        for note in notes { Console.message("note: \(note)") }
        if plan.fileCount == 0 {
            Console.message("epf sync: nothing to import: no complete feed in \(options.to)")
            if !failed.isEmpty { throw ExitCode(1) }
            return
        }
        let run = ImportRun(
            location: catalog.location, command: "sync", strict: load.strict, allowShrink: load.allowShrink, restart: load.restart,
            exclusive: load.exclusive, format: format)
        let applied = try run.apply(plan)
        if !applied || !failed.isEmpty { throw ExitCode(1) }
    }
}
