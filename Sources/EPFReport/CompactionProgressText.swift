import EPFCatalogRead
import Foundation

/// A compaction's progress as lines: a status line redrawn in place on a
/// terminal (`live`), a plain line every 10 seconds otherwise (and one per
/// step).
package final class CompactionProgressText {
    package let live: Bool
    private let write: (ProgressLine) -> Void
    private var lastLogged: ContinuousClock.Instant?
    private var lastStep: String?
    private let logInterval = Duration.seconds(10)
    private let started = ContinuousClock.now

    /// `write` writes each line (the tool: to standard error).
    package init(live: Bool, write: @escaping (ProgressLine) -> Void) {
        self.live = live
        self.write = write
    }

    package func show(_ event: CompactionEvent) {
        let step: String
        let line: String
        switch event {
        case .started(let liveBytes, let freeBytes):
            step = "start"
            line = "compacting: \(Format.bytes(liveBytes)) in use, \(Format.bytes(freeBytes)) free to return"
        case .copying(let done, let total):
            step = "copying"
            line = "copying the pages in use: " + Self.share(done, total)
        case .writingBack(let done, let total):
            step = "writing back"
            line = "writing the compact copy back: " + Self.share(done, total)
        case .truncating:
            step = "truncating"
            line = "cutting the file to its new size"
        }
        let elapsed = Format.duration((ContinuousClock.now - started).inSeconds)
        if live {
            write(.status("\(line) (\(elapsed))"))
        } else if step != lastStep || lastLogged.map({ ContinuousClock.now - $0 >= logInterval }) ?? true {
            write(.message("\(line) (\(elapsed))"))
            lastLogged = .now
        }
        lastStep = step
    }

    /// `12.0 of 270.0 MB (4%)`.
    private static func share(_ done: Int64, _ total: Int64) -> String {
        guard total > 0 else { return Format.bytes(done) }
        return Format.bytes(done, of: total) + " (\(min(100, done * 100 / total))%)"
    }

    package func finish() {
        if live { write(.clearStatus) }
    }
}

extension CompactionReport {
    /// `epf compact: catalog.sqlite: 2.1 GB -> 1.1 GB, 1.0 GB returned to
    /// the disk in 12.3 s`, or why there was nothing to do.
    package var message: String {
        if let nothingToDo {
            return "\(catalog): \(nothingToDo) (\(Format.bytes(bytesBefore)))"
        }
        return
            "\(catalog): \(Format.bytes(bytesBefore)) -> \(Format.bytes(bytesAfter)), \(Format.bytes(bytesReturned)) returned to the disk in "
            + String(format: "%.1f s", seconds)
    }

    /// One row: catalog, bytes before and after, bytes returned, seconds.
    package var output: TabularOutput {
        TabularOutput(
            columns: ["catalog", "bytes_before", "bytes_after", "bytes_returned", "seconds"],
            rows: [[.text(catalog), .integer(bytesBefore), .integer(bytesAfter), .integer(bytesReturned), .real(seconds)]],
            forms: ["seconds": .seconds])
    }
}
