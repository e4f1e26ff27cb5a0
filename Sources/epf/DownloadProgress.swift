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
    private let lock = NSLock()
    private let started = ContinuousClock.now
    private var received: Int64 = 0
    private var shown: ContinuousClock.Instant?

    init(live: Bool, total: Int64) {
        self.live = live
        self.total = total
    }

    /// `bytes` more were written.
    func add(_ bytes: Int64) {
        lock.withLock {
            received += bytes
            guard live else { return }
            let now = ContinuousClock.now
            if let shown, now - shown < .milliseconds(200) { return }
            shown = now
            Console.status(Self.line(received: received, total: total, seconds: Format.seconds(now - started)))
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
