import ArgumentParser
import EPFCatalog
import EPFFetch
import EPFImport
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

    @Option(name: .long, help: ArgumentHelp("Only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Tries per request after the first, on no answer (refused, reset, dropped, timeout) or HTTP 5xx; waits 1 s, 2 s, 4 s, ... (at most 30 s) between them.",
            valueName: "n"))
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

    /// Reads the listings and plans (messages and exit 1 on failure).
    init(_ options: FetchOptions, command: String) throws {
        self.options = options
        self.command = command
        let base = URL(string: options.url)!
        do {
            feedDownload = try FeedDownload(
                base: base, credentials: Self.credentials(for: base), folder: options.to, feeds: options.feeds,
                filter: try TableFilter(include: options.include, exclude: options.exclude), retry: options.retryPolicy, jobs: options.jobs
            ) { event in
                Console.message("retry: \(event.error) (try \(event.attempt) of \(event.attempts))")
            }
        } catch {
            Console.message("epf \(command): \(error)")
            throw ExitCode(1)
        }
        for note in plan.notes { Console.message("note: \(note)") }
    }

    /// Refuses the plan (a message, exit 1) when what it still has to
    /// download does not fit on the download folder's disk, or, with
    /// `catalog` (`epf sync` into a SQLite file), the room importing it
    /// takes does not fit on the catalog's (`FeedDownload.shortfalls`).
    func checkSpace(catalog: String? = nil) throws {
        let folder = options.to
        let testing = TestEnvironment()
        let shortfalls = feedDownload.shortfalls(catalog: catalog) { path in
            (path == folder ? testing.downloadFreeBytes : testing.hooks.freeBytes) ?? DiskSpace.free(at: path)
        }
        guard !shortfalls.isEmpty else { return }
        let elsewhere = catalog == nil ? "a download folder (--to)" : "a download folder (--to) or a catalog (--db)"
        Console.message(
            "epf \(command): \(shortfalls.map(\.description).joined(separator: "; ")); nothing downloaded: free space there, or choose \(elsewhere) on a disk with room"
        )
        throw ExitCode(1)
    }

    /// Fetches the plan's files, `--jobs` at once: on a terminal a status
    /// line for the whole plan (bytes, MB/s, ETA), a message per file as it
    /// ends, then a table (file, size, status, seconds) and a summary line.
    /// Throws `ExitCode(1)` when the server refused the credentials (which
    /// stops everything); other failures are in the result. `onFile` hears
    /// of each file as it ends, from the thread that fetched it.
    func download(_ progress: DownloadProgress? = nil, onFile: @escaping @Sendable (FetchRecord) -> Void = { _ in }) throws
        -> FeedDownload.Result
    {
        let folder = options.to
        let progress = progress ?? makeProgress()
        let result = feedDownload.run(
            onBytes: { progress.add($0) }, onRetry: { progress.message(Self.describe($0, folder: folder)) },
            onFile: { record in
                let path = record.file.localPath(in: folder)
                switch record.result {
                case .success(.present): progress.message("present: \(path)")
                case .success(.downloaded(let received, let resumed)):
                    progress.message("fetched: \(path) (\(received) bytes\(resumed ? ", resumed" : ""))")
                case .failure(let error): progress.message("failed: \(path): \(error)")
                case nil: break
                }
                onFile(record)
            })
        progress.finish()
        if result.refused {
            Console.message("epf \(command): stopped: the server refused the credentials")
            throw ExitCode(1)
        }
        Console.message(String(Self.table(result.records, folder: folder).render(.table).dropLast()))
        Console.message(
            "epf \(command): \(result.downloaded) file(s) downloaded (\(result.bytes) bytes), \(result.present) already there, \(result.failed.count) failed, into \(folder)"
        )
        return result
    }

    /// The status line of the whole plan (on a terminal), whose messages
    /// every message of the download goes through.
    func makeProgress() -> DownloadProgress {
        DownloadProgress(live: Console.messagesAreTerminal, total: feedDownload.bytesToDownload)
    }

    /// One row per file of the plan, in its order: file, size (listed, else
    /// on disk), status, seconds.
    static func table(_ records: [FetchRecord], folder: String) -> TabularOutput {
        let rows: [[SQLValue]] = records.map { record in
            let path = record.file.localPath(in: folder)
            let status: String
            switch record.result {
            case .success(.present): status = "present"
            case .success(.downloaded(_, let resumed)): status = resumed ? "fetched, resumed" : "fetched"
            case .failure: status = "failed"
            case nil: status = "not started"
            }
            let size =
                record.file.size
                ?? (try? FileManager.default.attributesOfItem(atPath: path))?[.size].flatMap { ($0 as? NSNumber)?.int64Value }
            return [.text(path), size.map { .integer($0) } ?? .null, .text(status), .text(String(format: "%.2f", record.seconds))]
        }
        return TabularOutput(columns: ["file", "size", "status", "seconds"], rows: rows)
    }

    /// `retry: dl/itunes20261101/application.tbz: ...: the connection was lost (try 1 of 5); again in 1 s`
    static func describe(_ event: RetryEvent, folder: String) -> String {
        let seconds = event.delay >= 1 || event.delay == 0 ? "\(Int(event.delay.rounded())) s" : "\(Int((event.delay * 1000).rounded())) ms"
        return
            "retry: \(FeedDiscovery.join(folder, event.path)): \(event.error) (try \(event.attempt) of \(event.attempts)); again in \(seconds)"
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
}
