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
        let imports = SyncImports(run, options: options, tablePrefix: load.tablePrefix, files: session.plan.files)
        var failed: [RemoteFile] = []
        if session.plan.files.isEmpty {
            try feeds.noFeedFound("epf sync: the server lists no feed at \(session.server.base.absoluteString)")
            Console.message("epf sync: nothing to fetch from \(session.server.base.absoluteString)")
        } else {
            try session.checkSpace(catalog: catalog.location.spaceCheckedPath)
            let progress = session.makeProgress()
            imports.start(progress)
            do {
                failed = try session.download(progress) { imports.fileEnded($0) }.failed
            } catch {
                imports.abort()
                throw error
            }
        }
        let applied = try imports.finish(failed: failed)
        if !applied || !failed.isEmpty { throw ExitCode(1) }
    }
}
