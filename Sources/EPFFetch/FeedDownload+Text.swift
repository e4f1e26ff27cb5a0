import EPFCatalog
import EPFImport
import EPFReport
import Foundation

extension FeedDownload {
    /// Fetches the plan's files as `run(onBytes:onRetry:onFile:)` does,
    /// with `progress` told of every block, every new try and each file as
    /// it ends (`present: PATH`, `fetched: PATH (N bytes)`, `failed: PATH:
    /// why`); its status line is cleared at the end. `onFile` hears of each
    /// file after its line, from the thread that fetched it.
    package func run(showing progress: DownloadProgress, onFile: @escaping @Sendable (FetchRecord) -> Void = { _ in }) -> Result {
        let folder = folder
        let result = run(
            onBytes: { progress.add($0) }, onRetry: { progress.message($0.message(folder: folder)) },
            onFile: { record in
                if let line = record.message(folder: folder) { progress.message(line) }
                onFile(record)
            })
        progress.finish()
        return result
    }
}

extension FeedDownload {
    /// Why the plan may not start for want of room (`shortfalls`), and what
    /// to do; nil when it fits.
    package func roomRefusal(catalog: String?, free: (String) -> Int64?) -> String? {
        let shortfalls = shortfalls(catalog: catalog, free: free)
        guard !shortfalls.isEmpty else { return nil }
        let elsewhere = catalog == nil ? "a download folder (--to)" : "a download folder (--to) or a catalog (--db)"
        return
            "\(shortfalls.map(\.description).joined(separator: "; ")); nothing downloaded: free space there, or choose \(elsewhere) on a disk with room"
    }
}

extension FeedDownload.Result {
    /// One row per file of the plan, in its order: file, size (listed,
    /// else on disk), status, seconds.
    package func table(folder: String) -> TabularOutput {
        let rows: [[SQLValue]] = records.map { record in
            let path = record.file.localPath(in: folder)
            let size =
                record.file.size
                ?? (try? FileManager.default.attributesOfItem(atPath: path))?[.size].flatMap { ($0 as? NSNumber)?.int64Value }
            return [.text(path), size.map { .integer($0) } ?? .null, .text(record.status), .text(String(format: "%.2f", record.seconds))]
        }
        return TabularOutput(columns: ["file", "size", "status", "seconds"], rows: rows)
    }

    /// `3 file(s) downloaded (1234 bytes), 1 already there, 0 failed, into dl`.
    package func summary(folder: String) -> String {
        "\(downloaded) file(s) downloaded (\(bytes) bytes), \(present) already there, \(failed.count) failed, into \(folder)"
    }
}

extension FetchRecord {
    /// `present`, `fetched`, `fetched, resumed`, `failed` or `not started`.
    package var status: String {
        switch result {
        case .success(.present): "present"
        case .success(.downloaded(_, let resumed)): resumed ? "fetched, resumed" : "fetched"
        case .failure: "failed"
        case nil: "not started"
        }
    }

    /// The line said as the file ends: `fetched: dl/itunes20261101/genre.tbz
    /// (2000000 bytes)`; nil for a file not started.
    package func message(folder: String) -> String? {
        let path = file.localPath(in: folder)
        switch result {
        case .success(.present): return "present: \(path)"
        case .success(.downloaded(let received, let resumed)): return "fetched: \(path) (\(received) bytes\(resumed ? ", resumed" : ""))"
        case .failure(let error): return "failed: \(path): \(error)"
        case nil: return nil
        }
    }
}

extension RetryEvent {
    /// `retry: dl/itunes20261101/application.tbz: ...: the connection was
    /// lost (try 1 of 5); again in 1 s`.
    package func message(folder: String) -> String {
        let wait = delay >= 1 || delay == 0 ? "\(Int(delay.rounded())) s" : "\(Int((delay * 1000).rounded())) ms"
        return "retry: \(FeedDiscovery.join(folder, path)): \(error) (try \(attempt) of \(attempts)); again in \(wait)"
    }
}

extension RemotePlan {
    /// `epf fetch --dry-run`: one row per file, in the order it downloads.
    package func listing(folder: String) -> TabularOutput {
        let rows: [[SQLValue]] = files.map { file in
            [
                .text(file.feed.feed), .text(file.feed.isoDate), .text(file.isFull ? "FULL" : "INCREMENTAL"),
                file.table.map { .text($0) } ?? .text("(whole feed)"), file.size.map { .integer($0) } ?? .null,
                .text(file.md5Path == nil ? "no" : "yes"), .text(file.localPath(in: folder)),
            ]
        }
        return TabularOutput(columns: ["feed", "date", "mode", "table", "size", "md5", "path"], rows: rows)
    }
}
