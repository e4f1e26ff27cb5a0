import EPFCatalog
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
        let queue = WorkQueue(files)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, files.count)) {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                while let index = queue.take() {
                    let start = ContinuousClock.now
                    let result = Result { () throws(FetchError) in try fetch(files[index]) }
                    let record = FetchRecord(file: files[index], result: result, seconds: (ContinuousClock.now - start).inSeconds)
                    var unauthorized = false
                    if case .failure(let error) = result, error.kind == .unauthorized { unauthorized = true }
                    queue.finish(index, record, stop: unauthorized)
                    onDone(record)
                }
            }
        }
        group.wait()
        return queue.records
    }
}

/// The files of a `fetchAll` run: which comes next, and what became of
/// each. Invariant: its state is touched only under `lock`.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var stopped = false
    private var done: [FetchRecord]

    init(_ files: [RemoteFile]) {
        done = files.map { FetchRecord(file: $0, result: nil, seconds: 0) }
    }

    /// The index of the next file to fetch; nil when all are taken or the run stopped.
    func take() -> Int? {
        lock.withLock {
            guard !stopped, next < done.count else { return nil }
            next += 1
            return next - 1
        }
    }

    func finish(_ index: Int, _ record: FetchRecord, stop: Bool) {
        lock.withLock {
            done[index] = record
            if stop { stopped = true }
        }
    }

    var records: [FetchRecord] { lock.withLock { done } }
}
