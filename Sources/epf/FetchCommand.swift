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
            A mismatch deletes the .part and downloads once more, then fails.

            Credentials: EPF_USERNAME and EPF_PASSWORD, else the ~/.netrc entry of the \
            URL's host. They are never printed.

            --dry-run prints the plan to standard output (one row per file). Messages go to \
            standard error. Exit status 1 when a file could not be fetched or the server \
            refused the credentials (which stops at once).
            """
    )

    static let defaultURL = "https://feeds.itunes.apple.com/feeds/epf/v5/current/"

    @Option(name: .long, help: ArgumentHelp("The download folder (created when missing).", valueName: "dir"))
    var to: String

    @Option(name: .long, help: ArgumentHelp("The feed's base URL (a mirror, a test server).", valueName: "url"))
    var url: String = FetchCommand.defaultURL

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp("Fetch only these feeds, comma-separated (itunes,pricing,popularity); all when absent.", valueName: "feeds"))
    var feed: [String] = []

    @Option(name: .long, help: ArgumentHelp("Fetch only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

    @Flag(name: .long, help: "Print the plan (files, listed sizes); download nothing.")
    var dryRun = false

    @Option(name: .long, help: "How --dry-run prints the plan: table, json or csv.")
    var format: OutputFormat = .table

    var feeds: Set<String>? {
        let names = feed.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : Set(names)
    }

    func validate() throws {
        if to.isEmpty { throw ValidationError("--to needs a folder.") }
        do {
            _ = try TableFilter(include: include, exclude: exclude)
        } catch {
            throw ValidationError(error.description)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            parsed.host?.isEmpty == false
        else {
            throw ValidationError("--url must be an http:// or https:// URL (the feed's folder).")
        }
        let environment = ProcessInfo.processInfo.environment
        if (environment["EPF_USERNAME"] ?? "").isEmpty != (environment["EPF_PASSWORD"] ?? "").isEmpty {
            throw ValidationError("Set both EPF_USERNAME and EPF_PASSWORD, or neither (then ~/.netrc is read).")
        }
    }

    func run() throws {
        let server: FeedServer
        do {
            server = try FeedServer(base: URL(string: url)!, credentials: Self.credentials(for: URL(string: url)!))
        } catch {
            Console.message("epf fetch: \(error)")
            throw ExitCode(1)
        }
        let plan: RemotePlan
        do {
            plan = try RemotePlanner.plan(server, feeds: feeds, filter: try TableFilter(include: include, exclude: exclude))
        } catch let error as FetchError {
            Console.message("epf fetch: \(error)")
            throw ExitCode(1)
        }
        for note in plan.notes { Console.message("note: \(note)") }

        if dryRun {
            Console.out(Self.listing(plan, folder: to).render(format))
            return
        }
        if plan.files.isEmpty {
            Console.message("epf fetch: nothing to fetch from \(server.base.absoluteString)")
            return
        }

        let fetcher = FileFetcher(server: server, folder: to)
        var downloaded = 0
        var present = 0
        var bytes: Int64 = 0
        var failed: [String] = []
        for file in plan.files {
            do {
                switch try fetcher.fetch(file) {
                case .present:
                    present += 1
                    Console.message("present: \(file.localPath(in: to))")
                case .downloaded(let received, let resumed):
                    downloaded += 1
                    bytes += received
                    Console.message("fetched: \(file.localPath(in: to)) (\(received) bytes\(resumed ? ", resumed" : ""))")
                }
            } catch {
                Console.message("failed: \(file.localPath(in: to)): \(error)")
                failed.append(file.path)
                if error.kind == .unauthorized {
                    Console.message("epf fetch: stopped: the server refused the credentials")
                    throw ExitCode(1)
                }
            }
        }
        Console.message(
            "epf fetch: \(downloaded) file(s) downloaded (\(bytes) bytes), \(present) already there, \(failed.count) failed, into \(to)")
        if !failed.isEmpty { throw ExitCode(1) }
    }

    /// EPF_USERNAME and EPF_PASSWORD (empty is unset), else the ~/.netrc
    /// entry for the URL's host.
    static func credentials(for url: URL) -> Credentials? {
        let environment = ProcessInfo.processInfo.environment
        if let user = environment["EPF_USERNAME"], let password = environment["EPF_PASSWORD"], !user.isEmpty, !password.isEmpty {
            return Credentials(user: user, password: password)
        }
        guard let home = environment["HOME"], let host = url.host,
            let text = try? String(contentsOfFile: home + "/.netrc", encoding: .utf8)
        else { return nil }
        return Netrc.credentials(in: text, host: host)
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
