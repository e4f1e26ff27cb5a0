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

    /// The summary line as a message, its counts as fields.
    package func summaryMessage(folder: String, command: String) -> LogMessage {
        LogMessage(
            "epf \(command): \(summary(folder: folder))", level: failed.isEmpty ? .info : .error,
            fields: [
                "event": .text("summary"), "downloaded": .integer(Int64(downloaded)), "bytes": .integer(bytes),
                "present": .integer(Int64(present)), "failed": .integer(Int64(failed.count)), "retries": .integer(Int64(retries)),
            ])
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
    package func message(folder: String) -> LogMessage? {
        let path = file.localPath(in: folder)
        var fields: [String: LogMessage.Value] = [
            "event": .text("downloaded"), "file": .text(path), "status": .text(status),
            "seconds": .number(seconds.toThousandths),
        ]
        switch result {
        case .success(.present): return LogMessage("present: \(path)", fields: fields)
        case .success(.downloaded(let received, let resumed)):
            fields["bytes"] = .integer(received)
            return LogMessage("fetched: \(path) (\(received) bytes\(resumed ? ", resumed" : ""))", fields: fields)
        case .failure(let error): return LogMessage("failed: \(path): \(error)", level: .error, fields: fields)
        case nil: return nil
        }
    }
}

extension RetryEvent {
    /// `retry: dl/itunes20261101/application.tbz: ...: the connection was
    /// lost (try 1 of 5); again in 1 s`.
    package func message(folder: String) -> LogMessage {
        let wait = delay >= 1 || delay == 0 ? "\(Int(delay.rounded())) s" : "\(Int((delay * 1000).rounded())) ms"
        let file = FeedDiscovery.join(folder, path)
        var message = listingMessage
        message.text = "retry: \(file): \(error) (try \(attempt) of \(attempts)); again in \(wait)"
        message.fields["file"] = .text(file)
        return message
    }

    /// A listing's new try: `retry: ERROR (try 1 of 5)`.
    package var listingMessage: LogMessage {
        LogMessage(
            "retry: \(error) (try \(attempt) of \(attempts))",
            fields: [
                "event": .text("retry"), "path": .text(path), "error": .text("\(error)"), "attempt": .integer(Int64(attempt)),
                "attempts": .integer(Int64(attempts)), "delay_seconds": .number(delay),
            ])
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
