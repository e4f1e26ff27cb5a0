import Foundation

/// The bytes of a download plan as they arrive from every fetching thread,
/// and when its status is worth showing again (at most every `interval`).
///
/// Everything it runs for its caller runs under its lock, one call at a
/// time: a status line drawn for `add` and a message written through
/// `interrupt` never interleave, so whoever shows them from several
/// threads needs no lock of its own.
package final class DownloadMeter: @unchecked Sendable {
    /// The shortest time between two showings of the status.
    package static let interval = Duration.milliseconds(200)
    /// The bytes the plan still has to download (listed sizes).
    package let total: Int64
    private let now: @Sendable () -> ContinuousClock.Instant
    private let started: ContinuousClock.Instant
    // Guarded by `lock`.
    private let lock = NSLock()
    private var received: Int64 = 0
    private var shown: ContinuousClock.Instant?

    /// A meter starting now (`now`: the clock, which tests give).
    package init(total: Int64, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.total = total
        self.now = now
        started = now()
    }

    /// `bytes` more arrived. `show`, when given, is called with the bytes
    /// so far and the seconds since the start, unless the status was shown
    /// less than `interval` ago.
    package func add(_ bytes: Int64, show: ((_ received: Int64, _ seconds: Double) -> Void)? = nil) {
        lock.withLock {
            received += bytes
            guard let show else { return }
            let time = now()
            if let shown, time - shown < Self.interval { return }
            shown = time
            show(received, (time - started).inSeconds)
        }
    }

    /// Runs `body` (a message between status lines) under the lock; the
    /// next `add` shows the status again at once.
    package func interrupt(_ body: () -> Void) {
        lock.withLock {
            body()
            shown = nil
        }
    }
}
