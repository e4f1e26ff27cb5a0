import EPFImport
import Foundation
import Synchronization

/// One download run of `epf fetch` or `epf sync`: the server's listings
/// read and planned (`RemotePlanner`), the room the plan needs checked,
/// then its files fetched `jobs` at once (`FileFetcher`). What happens is
/// told through callbacks; nothing is printed.
package struct FeedDownload: Sendable {
    package let server: FeedServer
    package let plan: RemotePlan
    /// The download folder.
    package let folder: String
    package let retry: RetryPolicy
    /// Files downloaded at once.
    package let jobs: Int

    /// Reads the server's listings at `base` (each listing tried again as
    /// `retry` says; `onRetry` hears of each new try) and plans what to
    /// download into `folder`: the feeds `feeds` names (all when nil), the
    /// tables `filter` keeps.
    package init(
        base: URL, credentials: Credentials?, folder: String, feeds: Set<String>?, filter: TableFilter, retry: RetryPolicy, jobs: Int,
        onRetry: @escaping (RetryEvent) -> Void = { _ in }
    ) throws(FetchError) {
        server = try FeedServer(base: base, credentials: credentials)
        plan = try RemotePlanner.plan(RetryingListingReader(server, retry: retry, onRetry: onRetry), feeds: feeds, filter: filter)
        self.folder = folder
        self.retry = retry
        self.jobs = jobs
    }

    /// Bytes the plan still has to download: listed sizes, less what the
    /// `.part` files of an interrupted run hold.
    package var bytesToDownload: Int64 { DiskSpace.needed(plan, folder: folder) }

    /// The disks that lack room: the download folder's for the files still
    /// to download, and with `catalog` (`epf sync` into a SQLite file) the
    /// catalog's for the room importing them takes (`DiskSpace.catalogGrowth`),
    /// the two added up when it is the same disk. `free` tells a path's
    /// free bytes.
    package func shortfalls(catalog: String?, free: (String) -> Int64?) -> [DiskSpace.Shortfall] {
        var needs = [
            DiskSpace.Need(what: "the files to download need", path: folder, bytes: bytesToDownload, counted: "their listed sizes")
        ]
        if let catalog {
            let exists = FileManager.default.fileExists(atPath: catalog)
            let factor = DiskSpace.catalogGrowthFactor(catalogExists: exists)
            needs.append(
                DiskSpace.Need(
                    what: "the catalog needs about", path: catalog, bytes: DiskSpace.catalogGrowth(plan, folder: folder, factor: factor),
                    counted: String(format: "%g x their listed sizes, to import them into %@ catalog", factor, exists ? "this" : "a new")))
        }
        return DiskSpace.shortfalls(needs, free: free, device: { DiskSpace.device(at: $0) })
    }

    /// What a download run did.
    package struct Result: Sendable {
        /// One record per file of the plan, in its order.
        package var records: [FetchRecord] = []
        package var downloaded = 0
        package var present = 0
        package var bytes: Int64 = 0
        /// New tries of files after a failure.
        package var retries = 0
        /// The files that could not be fetched (or were not started).
        package var failed: [RemoteFile] = []
        /// Whether the server refused the credentials (which stops the run).
        package var refused = false
    }

    /// Fetches the plan's files. `onBytes` hears of every block written,
    /// `onRetry` of every new try, `onFile` of each file as it ends; all
    /// three from the threads that fetch.
    package func run(
        onBytes: @escaping @Sendable (Int64) -> Void = { _ in }, onRetry: @escaping @Sendable (RetryEvent) -> Void = { _ in },
        onFile: @escaping @Sendable (FetchRecord) -> Void = { _ in }
    ) -> Result {
        let retries = RetryCount()
        var fetcher = FileFetcher(server: server, folder: folder, retry: retry) { event in
            retries.value.add(1, ordering: .relaxed)
            onRetry(event)
        }
        fetcher.onBytes = onBytes
        var result = Result()
        result.records = fetcher.fetchAll(plan.files, jobs: jobs, onDone: onFile)
        result.retries = retries.value.load(ordering: .relaxed)
        for record in result.records {
            switch record.result {
            case .success(.present): result.present += 1
            case .success(.downloaded(let received, _)):
                result.downloaded += 1
                result.bytes += received
            case .failure(let error):
                result.failed.append(record.file)
                if error.kind == .unauthorized { result.refused = true }
            case nil: result.failed.append(record.file)
            }
        }
        return result
    }
}

extension ImportMetrics.Download {
    /// Adds a download run's bytes, files and new tries.
    package mutating func add(_ result: FeedDownload.Result) {
        bytes += result.bytes
        retries += result.retries
        downloaded += result.downloaded
        present += result.present
        failed += result.failed.count
    }
}

/// New tries counted from every fetching thread.
private final class RetryCount: Sendable {
    let value = Atomic<Int>(0)
}
