import NIOConcurrencyHelpers

/// The requests being answered at once, by either path, against
/// `--max-in-flight`.
package final class InFlightGate: Sendable {
    private let limit: Int
    private let count = NIOLockedValueBox(0)
    /// Where the requests in flight are shown, and every request counted.
    let metrics: ServerMetrics?

    package init(limit: Int, metrics: ServerMetrics? = nil) {
        self.limit = limit
        self.metrics = metrics
    }

    /// Counts a request in; false (and not counted) when `limit` are
    /// already in.
    func enter() -> Bool {
        let entered = count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        if entered { metrics?.inFlight(1) }
        return entered
    }

    /// Counts out a request `enter()` let in.
    func leave() {
        count.withLockedValue { $0 -= 1 }
        metrics?.inFlight(-1)
    }
}
