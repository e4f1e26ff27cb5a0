import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
import EPFReport
import Foundation

/// The options `epf fetch` and `epf sync` share: where from, where to, what.
struct FetchOptions: ParsableArguments {
    static let defaultURL = "https://feeds.itunes.apple.com/feeds/epf/v5/current/"

    @Option(name: .long, help: ArgumentHelp("The download folder (created when missing).", valueName: "dir"))
    var to: String

    @Option(name: .long, help: ArgumentHelp("The feed's base URL (a mirror, a test server).", valueName: "url"))
    var url: String = FetchOptions.defaultURL

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp("Only these feeds, comma-separated (itunes,pricing,popularity); all when absent.", valueName: "feeds"))
    var feed: [String] = []

    @OptionGroup var tables: TableFilterOptions

    @Option(
        name: .long,
        help: ArgumentHelp("Tries after the first on no answer or HTTP 5xx, waiting 1 s, 2 s, 4 s, ... (at most 30 s).", valueName: "n"))
    var retries: Int = 4

    @Option(name: .long, help: ArgumentHelp("Files downloaded at once.", valueName: "n"))
    var jobs: Int = 4

    var feeds: Set<String>? {
        let names = feed.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : Set(names)
    }

    func validate() throws {
        if to.isEmpty { throw ValidationError("--to needs a folder.") }
        if retries < 0 { throw ValidationError("--retries must be 0 or more.") }
        if jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
        if FeedServer.baseURL(url) == nil { throw ValidationError("--url must be an http:// or https:// URL (the feed's folder).") }
        if let problem = Credentials.problem(in: ProcessInfo.processInfo.environment) { throw ValidationError(problem) }
    }

    /// `--retries`, with the first wait `EPF_TEST_RETRY_DELAY_MS` sets for the tests.
    var retryPolicy: RetryPolicy {
        var policy = RetryPolicy(attempts: retries + 1)
        if let delay = TestEnvironment().retryDelay { policy.firstDelay = delay }
        return policy
    }
}

/// One download run of `epf fetch` or `epf sync` (`FeedDownload`), with
/// the messages of each step and failures mapped to exit status 1.
struct FetchSession {
    let options: FetchOptions
    /// `fetch` or `sync`, for messages.
    let command: String
    let feedDownload: FeedDownload
    var server: FeedServer { feedDownload.server }
    var plan: RemotePlan { feedDownload.plan }

    /// Reads the listings and plans (messages and exit 1 on failure);
    /// `metrics` counts the listings' new tries.
    init(_ options: FetchOptions, command: String, metrics: ImportMetricsRecorder? = nil) throws {
        self.options = options
        self.command = command
        let base = FeedServer.baseURL(options.url)!
        feedDownload = try Console.exitOnFailure(command) {
            try FeedDownload(
                base: base, credentials: Credentials.find(in: ProcessInfo.processInfo.environment, host: base.host), folder: options.to,
                feeds: options.feeds, filter: try options.tables.filter(), retry: options.retryPolicy, jobs: options.jobs
            ) { event in
                metrics?.download?.retries += 1
                Console.message(event.listingMessage)
            }
        }
        for note in plan.notes { Console.message("note: \(note)") }
    }

    /// Refuses the plan (a message, exit 1) when what it still has to
    /// download, or with `catalog` (`epf sync` into a SQLite file) import,
    /// does not fit on the disk (`FeedDownload.roomRefusal`).
    func checkSpace(catalog: String? = nil) throws {
        let (folder, testing) = (options.to, TestEnvironment())
        let refusal = feedDownload.roomRefusal(catalog: catalog) { path in
            (path == folder ? testing.downloadFreeBytes : testing.hooks.freeBytes) ?? DiskSpace.free(at: path)
        }
        guard let refusal else { return }
        throw Console.failure("epf \(command): \(refusal)")
    }

    /// Fetches the plan's files, `--jobs` at once: on a terminal a status
    /// line for the whole plan, a message per file as it ends, then a table
    /// and a summary line. Throws `ExitCode(1)` when the server refused the
    /// credentials (which stops everything); other failures are in the
    /// result. `onFile` hears of each file as it ends.
    func download(
        _ progress: DownloadProgress? = nil, metrics: ImportMetricsRecorder? = nil,
        onFile: @escaping @Sendable (FetchRecord) -> Void = { _ in }
    ) throws -> FeedDownload.Result {
        let result = feedDownload.run(showing: progress ?? makeProgress(), onFile: onFile)
        metrics?.download?.add(result)
        if result.refused {
            throw Console.failure("epf \(command): stopped: the server refused the credentials")
        }
        if Console.logFormat == .text { Console.message(LogMessage(String(result.table(folder: options.to).render(.table).dropLast()))) }
        Console.message(result.summaryMessage(folder: options.to, command: command))
        return result
    }

    /// The status line of the whole plan (on a terminal), whose messages
    /// every message of the download goes through.
    func makeProgress() -> DownloadProgress {
        DownloadProgress(live: Console.messagesAreTerminal, total: feedDownload.bytesToDownload, write: Console.show)
    }
}
