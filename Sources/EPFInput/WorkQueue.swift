import Foundation

/// Calls `body` once for each index of `0..<count`, on up to `width` threads
/// of their own (each takes the next index when its call returns), and
/// returns when every call has returned: the calling thread waits. The
/// importer loads a unit's table files this way, `epf fetch` downloads its
/// files.
///
/// `body` may stop the run with the closure it is given: no index is
/// started after that (the calls running go on to their end).
///
/// Invariant (why `body`, which is not `@Sendable`, may run on the threads):
/// `body` guards whatever its calls share (the importer records its results
/// under a lock, each table's loader is used by one thread only and the
/// store locks its own connection; a download writes its own file), and the
/// queue touches its own state (the next index, the stop, the results) only
/// under its lock. `body` does not outlive this call: the threads drop it
/// before the call returns.
///
/// - Returns: what each call returned, by index; nil for an index that was
///   not started because the run stopped.
@discardableResult
package func inParallel<Value>(
    _ count: Int, width: Int, threadName: String, _ body: (_ index: Int, _ stop: () -> Void) -> Value
) -> [Value?] {
    let queue = WorkQueue<Value>(count: count)
    withoutActuallyEscaping(body) { body in
        let work = UncheckedBox<((Int, () -> Void) -> Value)?>(body)
        let done = DispatchGroup()
        for _ in 0..<min(max(1, width), count) {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                while let index = queue.take(), let body = work.value {
                    queue.finish(index, body(index, queue.stop))
                }
            }
            thread.name = threadName
            thread.start()
        }
        done.wait()
        // The threads may outlive this call; the closure must not.
        work.value = nil
    }
    return queue.results
}

/// The indices of an `inParallel` run: which comes next, whether the run
/// stopped, and what each call returned. Invariant: its state is touched
/// only under `lock`.
private final class WorkQueue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var stopped = false
    private var done: [Value?]

    init(count: Int) {
        done = Array(repeating: nil, count: count)
    }

    /// The next index to run; nil when all are taken or the run stopped.
    func take() -> Int? {
        lock.withLock {
            guard !stopped, next < done.count else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Starts no index after this.
    func stop() {
        lock.withLock { stopped = true }
    }

    func finish(_ index: Int, _ value: Value) {
        lock.withLock { done[index] = value }
    }

    var results: [Value?] { lock.withLock { done } }
}

/// Carries a value to another thread; see `inParallel` for the invariant.
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
