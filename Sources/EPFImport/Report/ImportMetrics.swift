import EPFCatalogStore
import EPFReport
import Foundation

/// What one run of the nightly job did, as metrics in a file for
/// node_exporter's textfile collector (`epf import --metrics-file`, `epf
/// sync --metrics-file`): written at the end of every run, whether it
/// succeeded or not, so that an alert can fire on a failed run, on none
/// for a day, or on a catalog that stopped moving.
///
/// The run's own figures are gauges (this run's rows, files and seconds).
/// The last success's time, and the download's byte and retry totals,
/// carry on from the file the run before wrote.
package struct ImportMetrics: Sendable {
    /// What a download (`epf sync`) did.
    package struct Download: Sendable, Equatable {
        package var bytes: Int64 = 0
        /// New tries after a failure: of the listings and of the files.
        package var retries = 0
        package var downloaded = 0
        package var present = 0
        package var failed = 0

        package init(bytes: Int64 = 0, retries: Int = 0, downloaded: Int = 0, present: Int = 0, failed: Int = 0) {
            (self.bytes, self.retries, self.downloaded, self.present, self.failed) = (bytes, retries, downloaded, present, failed)
        }
    }

    /// When the run started.
    package var started: Date
    /// When the run ended.
    package var finished: Date
    /// Whether the run did all it had to: every file downloaded, every
    /// scheduled file applied, no error.
    package var succeeded: Bool
    /// Wall time of the whole run.
    package var seconds: Double
    /// The files the run read (applied, failed, not applied, blocked).
    package var files: [FileReport]
    /// Table files the schedules left out: applied before, superseded by a
    /// newer FULL, older than the catalog's day.
    package var skippedFiles: Int
    /// For `epf sync`: what its download did (nil when it did not get as
    /// far as downloading, or for `epf import`).
    package var download: Download?

    package init(
        started: Date, finished: Date, succeeded: Bool, seconds: Double, files: [FileReport] = [], skippedFiles: Int = 0,
        download: Download? = nil
    ) {
        self.started = started
        self.finished = finished
        self.succeeded = succeeded
        self.seconds = seconds
        self.files = files
        self.skippedFiles = skippedFiles
        self.download = download
    }

    /// The file's text. `previous` is the text the run before wrote (nil
    /// when there is none): its last success is kept on failure, and its
    /// download totals are added to.
    package func text(previous: String?) -> String {
        let now = finished.timeIntervalSince1970.toThousandths
        var text = PrometheusText()
        text.add(Self.startFamily(started))
        text.add(
            "epf_import_last_run_timestamp_seconds", .gauge, help: "When the last run of the import ended (Unix time).", value: now)
        let lastSuccess =
            succeeded ? now : previous.flatMap { PrometheusText.value(of: "epf_import_last_success_timestamp_seconds", in: $0) }
        if let lastSuccess {
            text.add(
                "epf_import_last_success_timestamp_seconds", .gauge, help: "When the last run that applied every file ended (Unix time).",
                value: lastSuccess)
        }
        text.add("epf_import_success", .gauge, help: "Whether the last run did all it had to (1) or not (0).", value: succeeded ? 1 : 0)
        text.add("epf_import_run_duration_seconds", .gauge, help: "Wall time of the last run.", value: seconds.toThousandths)

        let statuses: [(String, Int)] = [
            ("applied", files.count { $0.status == .applied }), ("skipped", skippedFiles),
            ("failed", files.count { $0.status == .failed }),
            ("not_applied", files.count { $0.status == .notApplied || $0.status == .blocked }),
        ]
        text.add(
            "epf_import_files", .gauge,
            help:
                "Table files of the last run by how they ended: applied, skipped (applied before or superseded), failed, not_applied (valid, but held back by a failed file of their feed).",
            samples: statuses.map { ([("status", $0.0)], Double($0.1)) })

        let tables = Dictionary(grouping: files, by: \.table).sorted { $0.key < $1.key }
        func perTable(_ value: ([FileReport]) -> Double) -> [(labels: [(String, String)], value: Double)] {
            tables.map { ([("table", $0.key)], value($0.value)) }
        }
        let applied = { (files: [FileReport]) in files.filter { $0.status == .applied } }
        text.add(
            "epf_import_rows", .gauge, help: "Rows the last run applied, by catalog table.",
            samples: perTable { Double(applied($0).reduce(0) { $0 + $1.rows }) })
        text.add(
            "epf_import_rows_repaired", .gauge, help: "Rows the last run repaired (and applied), by catalog table.",
            samples: perTable { Double(applied($0).reduce(0) { $0 + $1.repaired }) })
        text.add(
            "epf_import_rows_skipped", .gauge,
            help: "Rows the last run read but did not store (damaged, or strict mode), by catalog table.",
            samples: perTable { Double(applied($0).reduce(0) { $0 + $1.skipped }) })
        text.add(
            "epf_import_duration_seconds", .gauge, help: "Seconds the last run spent on each catalog table's files.",
            samples: perTable { ($0.reduce(0) { $0 + $1.seconds }).toThousandths })

        if let download {
            func total(_ name: String, adding value: Int64) -> Double {
                (previous.flatMap { PrometheusText.value(of: name, in: $0) } ?? 0) + Double(value)
            }
            text.add(
                "epf_fetch_bytes_total", .counter, help: "Bytes downloaded from the EPF server, all runs that wrote this file together.",
                value: total("epf_fetch_bytes_total", adding: download.bytes))
            text.add(
                "epf_fetch_retries_total", .counter,
                help: "New tries after a failed request to the EPF server, all runs that wrote this file together.",
                value: total("epf_fetch_retries_total", adding: Int64(download.retries)))
            text.add(
                "epf_fetch_files", .gauge, help: "Files of the last run's download by how they ended: downloaded, present, failed.",
                samples: [("downloaded", download.downloaded), ("present", download.present), ("failed", download.failed)].map {
                    ([("status", $0.0)], Double($0.1))
                })
        }
        return text.text
    }

    /// Why metrics cannot be written to `path` (its folder is missing), or
    /// nil: a nightly job learns it before it imports, not after.
    package static func problem(writingTo path: String) -> String? {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return FileManager.default.isFolder(atPath: parent)
            ? nil : "the folder \(parent) does not exist; create it or name a file in a folder that does"
    }

    /// The start's metric: newer than the last end while a run goes on,
    /// and after a run that was killed.
    private static func startFamily(_ started: Date) -> PrometheusText {
        var text = PrometheusText()
        text.add(
            startName, .gauge,
            help: "When the last run of the import started (Unix time); later than its end while a run goes on, or when one was killed.",
            value: started.timeIntervalSince1970.toThousandths)
        return text
    }

    private static let startName = "epf_import_last_start_timestamp_seconds"

    /// Writes to `path` that a run started at `started`: the file as the
    /// run before left it, its start replaced, so that a run killed before
    /// its end (which no code of its own sees) still shows: its start is
    /// later than the last end.
    package static func markStart(_ started: Date, at path: String) throws(CatalogError) {
        let previous = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try replace(path, with: PrometheusText.removing(startName, from: previous) + startFamily(started).text)
    }

    /// Writes the metrics to `path`, replacing what the run before wrote
    /// (which `text(previous:)` reads first).
    package func write(to path: String) throws(CatalogError) {
        try Self.replace(path, with: text(previous: try? String(contentsOfFile: path, encoding: .utf8)))
    }

    /// Replaces the file at `path` with `text` in one step: the text goes
    /// to `PATH.tmp` (which the collector, reading `*.prom` files, passes
    /// over), then is renamed over it, so it never reads half a file.
    private static func replace(_ path: String, with text: String) throws(CatalogError) {
        let temporary = path + ".tmp"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw CatalogError(
                .readOnly, detail: "cannot write the metrics file \(temporary): \(error.localizedDescription)",
                hint: "check that its folder exists and is writable, and that its disk has room")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CatalogError(.readOnly, detail: "cannot replace the metrics file \(path): \(reason)", hint: "check that it is writable")
        }
    }
}
