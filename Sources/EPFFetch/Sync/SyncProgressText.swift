import EPFImport
import EPFReport

/// A sync's events as progress lines (`SyncEvent`): the passes while files
/// download speak below the download's status line, with no status line
/// of their own; the last pass is shown as `epf import` shows an import.
package final class SyncProgressText {
    private let download: DownloadProgress?
    private let write: (ProgressLine) -> Void
    private let after: ImportProgressText
    private lazy var during = ImportProgressText(live: false) { [unowned self] line in
        if case .message(let text) = line { tell(text) }
    }

    /// `download` is the download's status line (nil when nothing is
    /// downloaded); `write` writes each line (the tool: to standard error).
    package init(live: Bool, below download: DownloadProgress?, write: @escaping (ProgressLine) -> Void) {
        self.download = download
        self.write = write
        after = ImportProgressText(live: live, write: write)
    }

    package func show(_ event: SyncEvent) {
        switch event {
        case .imported(let event, let duringDownload): (duringDownload ? during : after).show(event)
        case .unitImported(let path, let applied, let failed, let downloading):
            tell("epf sync: \(path): \(applied) file(s) applied, \(failed) failed, while \(downloading) file(s) still download")
        case .note(let text): write(.message("note: \(text)"))
        }
    }

    /// Clears the last pass's status line.
    package func finish() { after.finish() }

    /// A message below the download's status line, if there is one.
    private func tell(_ message: LogMessage) {
        if let download { download.message(message) } else { write(.message(message)) }
    }
}
