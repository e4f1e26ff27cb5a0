import EPFReport
import Foundation

/// The progress of a whole download plan on a terminal: one status line
/// (`downloading: 12.3 MB of 45.6 MB, 27%, 3.2 MB/s, ETA 10s`), redrawn at
/// most five times a second, that messages clear before they are written.
/// Not on a terminal (`live` false) it shows nothing: the messages are the
/// plain lines. Called from every download thread: `DownloadMeter`
/// counts the bytes and runs every write to standard error one at a time.
package final class DownloadProgress: Sendable {
    package let live: Bool
    /// The bytes the plan still has to download (listed sizes).
    package var total: Int64 { meter.total }
    private let meter: DownloadMeter
    private let write: @Sendable (ProgressLine) -> Void
    /// Draws the status line from the bytes so far and the seconds since the
    /// start; nil when not `live`. Made once: `add` runs for every block.
    private let show: (@Sendable (Int64, Double) -> Void)?

    /// `write` writes each line (the tool: to standard error).
    package init(
        live: Bool, total: Int64, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        write: @escaping @Sendable (ProgressLine) -> Void
    ) {
        self.live = live
        self.write = write
        meter = DownloadMeter(total: total, now: now)
        if live {
            show = { @Sendable received, seconds in write(.status(Self.line(received: received, total: total, seconds: seconds))) }
        } else {
            show = nil
        }
    }

    /// `bytes` more were written.
    package func add(_ bytes: Int64) { meter.add(bytes, show: show) }

    /// A message line, below (in place of) the status line.
    package func message(_ message: LogMessage) {
        meter.interrupt {
            if live { write(.clearStatus) }
            write(.message(message))
        }
    }

    /// Clears the status line.
    package func finish() {
        meter.interrupt { if live { write(.clearStatus) } }
    }

    /// The status line after `received` of `total` bytes in `seconds`: the
    /// rate is the average since the start, the ETA what is left at that
    /// rate (shown after the first second, when there is a rate).
    package static func line(received: Int64, total: Int64, seconds: Double) -> String {
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
