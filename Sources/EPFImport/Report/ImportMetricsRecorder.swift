import EPFCatalogStore
import Foundation

/// What a run of `epf import` or `epf sync` did, gathered as it goes, for
/// the `ImportMetrics` written at its end however it ended: a run that
/// failed before its store opened has no files, one that failed while it
/// imported has the files so far.
package final class ImportMetricsRecorder {
    /// The metrics file (`--metrics-file`).
    package let path: String
    private let started = ContinuousClock.now
    private let startedAt = Date()
    /// The import, once its store is open: its reports and skips so far.
    package var catalogImport: CatalogImport?
    /// What the download did, once it ran (`epf sync`).
    package var download: ImportMetrics.Download?

    /// A run starting now, which writes its metrics to `path`: its start
    /// is written there at once (`ImportMetrics.markStart`), so that a run
    /// killed before its end still shows. Throws when the file cannot be
    /// written: better said before the run than after it.
    package init(path: String) throws(CatalogError) {
        self.path = path
        try ImportMetrics.markStart(startedAt, at: path)
    }

    /// The run's metrics as it stands, ending now.
    package func metrics(succeeded: Bool) -> ImportMetrics {
        ImportMetrics(
            started: startedAt, finished: Date(), succeeded: succeeded, seconds: (ContinuousClock.now - started).inSeconds,
            files: catalogImport?.reports ?? [], skippedFiles: catalogImport?.filesSkipped ?? 0, download: download)
    }

    /// Writes the run's metrics (`ImportMetrics.write(to:)`).
    package func write(succeeded: Bool) throws(CatalogError) {
        try metrics(succeeded: succeeded).write(to: path)
    }
}
