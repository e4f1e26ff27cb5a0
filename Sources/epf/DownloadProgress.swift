import Foundation

/// The progress of a whole download plan on a terminal: one status line
/// (`downloading: 12.3 MB of 45.6 MB, 27%, 3.2 MB/s, ETA 10s`), redrawn at
/// most five times a second, that messages clear before they are written.
/// Not on a terminal (`live` false) it shows nothing: the messages are the
/// plain lines. Called from every download thread: its state is touched
/// only under `lock`, and every write to standard error goes through it.
final class DownloadProgress: @unchecked Sendable {
    let live: Bool
    /// The bytes the plan still has to download (listed sizes).
    let total: Int64
    /// The time now (the tests give a clock of their own).
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Draws the status line (`Console.status`; the tests keep the lines).
    private let draw: @Sendable (String) -> Void
    private let lock = NSLock()
    private let started: ContinuousClock.Instant
    private var received: Int64 = 0
    private var shown: ContinuousClock.Instant?

    init(
        live: Bool, total: Int64, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        draw: @escaping @Sendable (String) -> Void = { Console.status($0) }
    ) {
        self.live = live
        self.total = total
        self.now = now
        self.draw = draw
        started = now()
    }

    /// `bytes` more were written.
    func add(_ bytes: Int64) {
        lock.withLock {
            received += bytes
            guard live else { return }
            let time = now()
            if let shown, time - shown < .milliseconds(200) { return }
            shown = time
            draw(Self.line(received: received, total: total, seconds: (time - started).inSeconds))
        }
    }

    /// A message line, below (in place of) the status line.
    func message(_ text: String) {
        lock.withLock {
            if live { Console.clearStatus() }
            Console.message(text)
            shown = nil
        }
    }

    /// Clears the status line.
    func finish() {
        lock.withLock {
            if live { Console.clearStatus() }
        }
    }

    /// The status line after `received` of `total` bytes in `seconds`: the
    /// rate is the average since the start, the ETA what is left at that
    /// rate (shown after the first second, when there is a rate).
    static func line(received: Int64, total: Int64, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(received) / seconds : 0
        var line = "downloading: \(Format.bytes(received))"
        if total > 0 {
            line += " of \(Format.bytes(total)), " + String(format: "%.0f%%", min(100, Double(received) / Double(total) * 100))
        }
        line += ", \(Format.bytes(Int64(rate)))/s"
        if total > received, rate > 0, seconds >= 1 {
            line += ", ETA \(Format.duration(Double(total - received) / rate))"
        }
        return line
    }
}
