import EPFReport
import Foundation

/// Import events as progress lines: a status line redrawn in place on a
/// terminal (`live`), plain lines otherwise (a nightly job's log). With a
/// plan of more than one input (`start(_:)`), every line also says where
/// the whole run is: `file 3 of 11, 1.2 GB of 4.5 GB (27%), ETA 12m`
/// (`ImportPosition`).
package final class ImportProgressText {
    package let live: Bool
    private var current: (path: String, table: String, started: ContinuousClock.Instant)?
    /// The current file's first progress: rate and ETA count from here, so
    /// bytes a resumed load passed over, or an archive's earlier tables,
    /// make neither look faster than it is.
    private var baseline: (bytes: Int64, at: ContinuousClock.Instant)?
    /// When the last plain progress line was written (not on a terminal:
    /// one line every `logInterval`, so a nightly job's log shows it moving).
    private var lastLogged = ContinuousClock.now
    private let logInterval = Duration.seconds(10)
    /// Files whose error is already on standard error: a file that loaded
    /// but failed when its unit was applied (the shrink guard, a store
    /// error) is said when the unit finishes.
    private var errorsShown: Set<String> = []
    /// The whole run's position, and when it started.
    private var position: ImportPosition?
    private var runStarted = ContinuousClock.now

    /// What the step after the last row is called (`buildingKey`).
    package let keyStep: String
    private let write: (ProgressLine) -> Void

    /// `write` writes each line (the tool: to standard error; `epf sync`
    /// while it downloads: below its download status line).
    package init(live: Bool, keyStep: String = "building the key index", write: @escaping (ProgressLine) -> Void) {
        self.live = live
        self.keyStep = keyStep
        self.write = write
    }

    private func say(_ message: LogMessage) { write(.message(message)) }

    /// The plan about to run: lines say where in it the run is.
    package func start(_ plan: ImportPlan) {
        position = ImportPosition(plan: plan)
        runStarted = .now
    }

    package func show(_ event: ImportEvent) {
        position?.record(event, at: (ContinuousClock.now - runStarted).inSeconds)
        switch event {
        case .fileStarted(let path, let table, let size):
            current = (path, table, .now)
            baseline = nil
            lastLogged = .now
            if live {
                write(.status("\(table): reading \(Format.bytes(size))" + whole()))
            } else {
                say(
                    LogMessage(
                        "\(table): reading \(path) (\(Format.bytes(size)))" + whole(),
                        fields: ["event": .text("reading"), "file": .text(path), "table": .text(table), "bytes": .integer(size)]))
            }
        case .progress(_, let bytesRead, let totalBytes, let rows):
            guard let current else { return }
            if baseline == nil { baseline = (bytesRead, .now) }
            if !live {
                guard ContinuousClock.now - lastLogged >= logInterval else { return }
                lastLogged = .now
            }
            // The whole run's position, when there is more than one input:
            // its ETA is the one worth the room, the file's is left out.
            let whole = whole()
            var line = "\(current.table): \(Format.count(rows)) rows"
            if let baseline {
                // Bytes of the file as stored (compressed bytes for a
                // compressed file or archive), read since the baseline.
                let seconds = (ContinuousClock.now - baseline.at).inSeconds
                let rate = seconds > 0 ? Double(bytesRead - baseline.bytes) / seconds : 0
                if let totalBytes, totalBytes > 0 {
                    line += String(format: ", %.0f%%", Double(bytesRead) / Double(totalBytes) * 100)
                }
                if rate > 0 { line += ", \(Format.bytes(Int64(rate)))/s" }
                if whole.isEmpty, let totalBytes, rate > 0, bytesRead < totalBytes, seconds >= 1 {
                    line += ", ETA \(Format.duration(Double(totalBytes - bytesRead) / rate))"
                }
            }
            line += whole
            guard !live else { return write(.status(line)) }
            // The fields only for a line of the log: a status line is redrawn many times a second.
            let fields: [String: LogMessage.Value] = [
                "event": .text("progress"), "file": .text(current.path), "table": .text(current.table), "rows": .integer(Int64(rows)),
                "bytes_read": .integer(bytesRead),
            ]
            say(LogMessage(line, fields: fields))
        case .buildingKey(_, let table):
            show(status: "\(table): \(keyStep)" + whole())
        case .applying(let path, let tables):
            show(status: "\(path): applying \(tables) table(s) in one transaction" + whole())
        case .fileFinished(let report):
            if live { write(.clearStatus) }
            if report.status == .failed, let error = report.error {
                say(LogMessage("error: \(error)", fields: report.logFields))
                errorsShown.insert(report.path)
            } else {
                for warning in report.warnings { say(LogMessage("warning: \(report.table): \(warning)", fields: report.logFields)) }
            }
        case .unitFinished(let path, let reports):
            for report in reports where report.status == .failed && !errorsShown.contains(report.path) {
                if let error = report.error { say(LogMessage("error: \(error)", fields: report.logFields)) }
            }
            errorsShown.removeAll()
            let failed = reports.filter { $0.status == .failed }.count
            if failed > 0 {
                say(
                    LogMessage(
                        "\(path): \(failed) file(s) failed: nothing from this folder was applied; the catalog is unchanged", level: .error,
                        fields: ["file": .text(path), "failed": .integer(Int64(failed))]))
            }
        case .note(let text):
            say("note: \(text)")
        case .skipped(let what, let reason):
            say(
                LogMessage(
                    "skipped: \(what): \(reason)", fields: ["event": .text("skipped"), "file": .text(what), "reason": .text(reason)]))
        case .scheduled(let plan):
            start(plan)
        case .resumed:
            break
        }
    }

    /// ` · file 3 of 11, 1.2 GB of 4.5 GB (27%), ETA 12m`: where the whole
    /// run is, for a plan of more than one input; empty otherwise.
    private func whole() -> String {
        guard let position, position.inputCount > 1 else { return "" }
        var text = " · file \(max(1, position.inputsStarted)) of \(position.inputCount)"
        if position.totalBytes > 0 {
            let done = position.bytesDone
            text += ", \(Format.bytes(done, of: position.totalBytes))"
            text += String(format: " (%.0f%%)", Double(done) / Double(position.totalBytes) * 100)
        }
        if let left = position.secondsLeft(at: (ContinuousClock.now - runStarted).inSeconds), position.bytesDone < position.totalBytes {
            text += ", ETA \(Format.duration(left))"
        }
        return text
    }

    /// A status line on a terminal; a log line elsewhere only when the
    /// current file has been going for a while (quiet for small files).
    private func show(status: String) {
        if live {
            write(.status(status))
        } else if let current, ContinuousClock.now - current.started >= logInterval {
            say(LogMessage(status))
        }
    }

    package func finish() {
        if live { write(.clearStatus) }
    }
}
