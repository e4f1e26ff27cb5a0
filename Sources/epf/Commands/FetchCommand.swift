import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
import EPFReport
import Foundation

/// `epf fetch --to DIR`
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download the feeds from the EPF server into a download folder, verified.",
        discussion: """
            Plans with the rules of epf import (each feed's newest FULL export, then the \
            INCREMENTAL days after it) and downloads under DIR at the server's paths. Each \
            file goes to NAME.part (resumed by an HTTP Range request), is checked against its \
            .md5 and renamed when it matches; a file already there and matching is kept. No \
            answer or an HTTP 5xx is tried again (--retries). The listed sizes must fit on \
            the disk first.

            Credentials: EPF_USERNAME and EPF_PASSWORD, else ~/.netrc for the URL's host; \
            never printed. Exit status 1 when a file could not be fetched or the server \
            refused the credentials. See docs/fetch.md.
            """
    )

    @OptionGroup var options: FetchOptions

    @OptionGroup var log: LogFormatOption

    @Flag(name: .long, help: "Print the plan (files, listed sizes); download nothing.")
    var dryRun = false

    @Option(name: .long, help: "How --dry-run prints the plan: table, json or csv.")
    var format: OutputFormat = .table

    func run() throws {
        let session = try FetchSession(options, command: "fetch")
        if dryRun {
            return Console.out(session.plan.listing(folder: options.to).render(format))
        }
        if session.plan.files.isEmpty {
            return Console.message("epf fetch: nothing to fetch from \(session.server.base.absoluteString)")
        }
        try session.checkSpace()
        if !(try session.download().failed.isEmpty) { throw ExitCode(1) }
    }
}
