import EPFCatalog
import Foundation

/// What a run of `epf import` or `epf sync` did, gathered as it goes, for
/// the `ImportMetrics` written at its end however it ended: a run that
/// failed before its store opened has no files, one that failed while it
/// imported has the files so far.
package final class ImportMetricsRecorder {
    private let started = ContinuousClock.now
    /// The import, once its store is open: its reports and skips so far.
    package var importer: CatalogImport?
    /// What the download did, once it ran (`epf sync`).
    package var download: ImportMetrics.Download?

    package init() {}

    /// The run's metrics as it stands, ending now.
    package func metrics(succeeded: Bool) -> ImportMetrics {
        ImportMetrics(
            finished: Date(), succeeded: succeeded, seconds: (ContinuousClock.now - started).inSeconds, files: importer?.reports ?? [],
            skippedFiles: importer?.filesSkipped ?? 0, download: download)
    }

    /// Writes the run's metrics to `path` (`ImportMetrics.write(to:)`).
    package func write(to path: String, succeeded: Bool) throws(CatalogError) {
        try metrics(succeeded: succeeded).write(to: path)
    }
}
