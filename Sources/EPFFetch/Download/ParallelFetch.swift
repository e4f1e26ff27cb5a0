import EPFCatalog
import EPFInput
import Foundation

/// One file of a plan, fetched (or not) by `FileFetcher.fetchAll`.
package struct FetchRecord: Sendable {
    package var file: RemoteFile
    /// nil when the file was not started (the run stopped first).
    package var result: Result<FileFetcher.Outcome, FetchError>?
    /// Seconds from its start to its end.
    package var seconds: Double
}

extension FileFetcher {
    /// Fetches `files` with `jobs` of them at once (each on a thread of its
    /// own, taking the next file of the list when it is done), and returns
    /// a record per file, in the list's order. `onDone` hears of each file
    /// as it ends (from the thread that fetched it). A 401/403 stops the
    /// run: the files not yet started are not started.
    package func fetchAll(_ files: [RemoteFile], jobs: Int, onDone: @escaping @Sendable (FetchRecord) -> Void) -> [FetchRecord] {
        let records = inParallel(files.count, width: jobs, threadName: "epf-fetch") { index, stop in
            let start = ContinuousClock.now
            let result = Result { () throws(FetchError) in try fetch(files[index]) }
            let record = FetchRecord(file: files[index], result: result, seconds: (ContinuousClock.now - start).inSeconds)
            if case .failure(let error) = result, error.kind == .unauthorized { stop() }
            onDone(record)
            return record
        }
        return zip(files, records).map { file, record in record ?? FetchRecord(file: file, result: nil, seconds: 0) }
    }
}
