import EPFFetch
import EPFReport
import Foundation
import Testing

/// The figures of `epf fetch`'s status line (bytes, %, MB/s, ETA), over a
/// clock and a byte series the test controls.
@Suite("download progress")
struct DownloadProgressTests {
    /// A clock the test moves, and the status lines drawn.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var time = ContinuousClock.now
        private var drawn: [String] = []

        func advance(_ duration: Duration) { lock.withLock { time += duration } }
        var now: ContinuousClock.Instant { lock.withLock { time } }
        func draw(_ line: String) { lock.withLock { drawn.append(line) } }
        var lines: [String] { lock.withLock { drawn } }

        func progress(live: Bool, total: Int64) -> DownloadProgress {
            DownloadProgress(
                live: live, total: total, now: { self.now },
                write: { line in
                    if case .status(let text) = line { self.draw(text) }
                })
        }
    }

    @Test func theLineSaysBytesShareRateAndETA() {
        // The example of docs/fetch.md.
        #expect(
            DownloadProgress.line(received: 12_300_000, total: 45_600_000, seconds: 3.84)
                == "downloading: 12.3 MB of 45.6 MB, 27%, 3.2 MB/s, ETA 10s")
        // Minutes, then hours.
        #expect(
            DownloadProgress.line(received: 1_000_000, total: 181_000_000, seconds: 2)
                == "downloading: 1.0 MB of 181.0 MB, 1%, 500.0 KB/s, ETA 6m0s")
        #expect(
            DownloadProgress.line(received: 2_000_000_000, total: 20_000_000_000, seconds: 400)
                == "downloading: 2.0 GB of 20.0 GB, 10%, 5.0 MB/s, ETA 1h0m")
        // No ETA in the first second (no rate worth the name), nor once all is in.
        #expect(
            DownloadProgress.line(received: 500_000, total: 1_000_000, seconds: 0.5) == "downloading: 500.0 KB of 1.0 MB, 50%, 1.0 MB/s")
        #expect(
            DownloadProgress.line(received: 1_000_000, total: 1_000_000, seconds: 4) == "downloading: 1.0 MB of 1.0 MB, 100%, 250.0 KB/s")
        // No total (no listed sizes): bytes and rate only; more than the
        // total (a server that sent more than it listed): 100%.
        #expect(DownloadProgress.line(received: 3_000, total: 0, seconds: 2) == "downloading: 3.0 KB, 1.5 KB/s")
        #expect(DownloadProgress.line(received: 2_000, total: 1_000, seconds: 1) == "downloading: 2.0 KB of 1.0 KB, 100%, 2.0 KB/s")
    }

    /// Bytes coming in over a controlled clock: the rate is the average
    /// since the start, the ETA what is left at it; redrawn at most every
    /// 200 ms, and at once after a message.
    @Test func aByteSeriesOverAClock() {
        let recorder = Recorder()
        let progress = recorder.progress(live: true, total: 10_000_000)
        recorder.advance(.seconds(1))
        progress.add(1_000_000)  // 1 MB in 1 s
        recorder.advance(.milliseconds(100))
        progress.add(1_000_000)  // within 200 ms of the last line: not drawn
        recorder.advance(.milliseconds(900))
        progress.add(2_000_000)  // 4 MB in 2 s
        progress.message("fetched: dl/itunes20261101/genre.tbz (2000000 bytes)")
        recorder.advance(.milliseconds(50))
        progress.add(0)  // after a message: drawn again at once
        #expect(
            recorder.lines == [
                "downloading: 1.0 MB of 10.0 MB, 10%, 1.0 MB/s, ETA 9s",
                "downloading: 4.0 MB of 10.0 MB, 40%, 2.0 MB/s, ETA 3s",
                "downloading: 4.0 MB of 10.0 MB, 40%, 2.0 MB/s, ETA 3s",
            ])
    }

    /// Not on a terminal (a cron job's log): no status line at all, as
    /// docs/fetch.md says; the messages are the plain lines.
    @Test func notOnATerminalNothingIsDrawn() {
        let recorder = Recorder()
        let progress = recorder.progress(live: false, total: 10_000_000)
        for _ in 0..<10 {
            recorder.advance(.seconds(1))
            progress.add(1_000_000)
        }
        progress.finish()
        #expect(recorder.lines.isEmpty)
    }
}
