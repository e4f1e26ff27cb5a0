import ArgumentParser
import EPFImport

/// What `epf import` and `epf sync` do for a nightly job that is watched:
/// `--require-feeds` (no feed at all is a wrong path, not "nothing to
/// import"), `--metrics-file` (the run's metrics for node_exporter) and
/// `--log-format`.
struct NightlyJobOptions: ParsableArguments {
    @Flag(name: .long, help: "Exit 1 when no feed is found at all (a wrong path), not when every feed found is already applied.")
    var requireFeeds = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "At the end of the run, whatever its outcome, write its metrics here for node_exporter's textfile collector (docs/operations.md).",
            valueName: "path"))
    var metricsFile: String?

    @OptionGroup var log: LogFormatOption

    func validate() throws {
        if let problem = metricsFile.flatMap(ImportMetrics.problem(writingTo:)) { throw ValidationError("--metrics-file: \(problem)") }
    }

    /// Exits 1 with `message` (said on standard error) when feeds are
    /// required.
    func noFeedFound(_ message: String) throws {
        guard requireFeeds else { return }
        throw Console.failure("\(message) (--require-feeds: exit 1)")
    }

    /// Runs `body`, then (unless `dryRun`) writes `--metrics-file` however
    /// it ended: a success when it returns, a failure when it throws (its
    /// start is written before). Exit status 1 when it cannot be written.
    func recording(_ command: String, dryRun: Bool = false, _ body: (ImportMetricsRecorder?) throws -> Void) throws {
        guard let metricsFile, !dryRun else { return try body(nil) }
        let recorder = try Console.exitOnFailure(command) { try ImportMetricsRecorder(path: metricsFile) }
        do {
            try body(recorder)
        } catch {
            try? Console.exitOnFailure(command) { try recorder.write(succeeded: false) }
            throw error
        }
        try Console.exitOnFailure(command) { try recorder.write(succeeded: true) }
    }
}
