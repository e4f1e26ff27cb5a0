import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
import Foundation

/// `epf fetch --to DIR`
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download the feeds from the EPF server into a download folder, verified.",
        discussion: """
            Reads the server's folder listings and plans, with the rules of `epf import`, \
            each feed's newest FULL export (listed at the base URL) and the INCREMENTAL \
            days after it (listed under incremental/current/). Files go under DIR at the \
            same paths as on the server, the layout `epf import DIR` reads.

            Each file is downloaded to NAME.part (resumed with an HTTP Range request when a \
            .part is there), checked against its .md5, and renamed to NAME only when the \
            md5 matches. A file already there with a matching md5 is not downloaded again. \
            A mismatch deletes the .part and downloads once more, then fails. A request \
            that gets no answer or an HTTP 5xx is tried again (--retries; waits 1 s, 2 s, \
            4 s, ...), a download continuing its .part. --jobs files download at once. \
            Before downloading, the listed sizes must fit in the folder's free space.

            Credentials: EPF_USERNAME and EPF_PASSWORD, else the ~/.netrc entry of the \
            URL's host. They are never printed.

            --dry-run prints the plan to standard output (one row per file). Messages go to \
            standard error. Exit status 1 when a file could not be fetched or the server \
            refused the credentials (which stops at once).
            """
    )

    @OptionGroup var options: FetchOptions

    @Flag(name: .long, help: "Print the plan (files, listed sizes); download nothing.")
    var dryRun = false

    @Option(name: .long, help: "How --dry-run prints the plan: table, json or csv.")
    var format: OutputFormat = .table

    func run() throws {
        let session = try FetchSession(options, command: "fetch")
        if dryRun {
            Console.out(Self.listing(session.plan, folder: options.to).render(format))
            return
        }
        if session.plan.files.isEmpty {
            Console.message("epf fetch: nothing to fetch from \(session.server.base.absoluteString)")
            return
        }
        try session.checkSpace()
        if !(try session.download().failed.isEmpty) { throw ExitCode(1) }
    }

    /// The plan, one row per file, in the order it downloads.
    static func listing(_ plan: RemotePlan, folder: String) -> TabularOutput {
        let rows: [[SQLValue]] = plan.files.map { file in
            [
                .text(file.feed.feed), .text(file.feed.isoDate), .text(file.isFull ? "FULL" : "INCREMENTAL"),
                file.table.map { .text($0) } ?? .text("(whole feed)"), file.size.map { .integer($0) } ?? .null,
                .text(file.md5Path == nil ? "no" : "yes"), .text(file.localPath(in: folder)),
            ]
        }
        return TabularOutput(columns: ["feed", "date", "mode", "table", "size", "md5", "path"], rows: rows)
    }
}
