import EPFTestSupport
import Foundation
import Testing

/// `epf import --metrics-file`: a textfile-collector file after every run,
/// success or failure, replaced whole.
@Suite("epf import --metrics-file")
struct MetricsFileTests {
    static let promtool = "/usr/bin/promtool"

    @Test("A success, nothing new, a failed file and a missing path: each run's figures, the last success kept")
    func everyRunWritesItsMetrics() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let metrics = cli.path("epf.prom")
        func run(_ paths: [String]) throws -> (EPFRunner.Result, PrometheusSamples) {
            let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--metrics-file", metrics] + paths)
            return (result, try PrometheusSamples.read(metrics))
        }

        let (first, applied) = try run(SampleFeeds.pathsInOrder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(applied["epf_import_success"] == 1)
        #expect(applied["epf_import_last_success_timestamp_seconds"] == applied["epf_import_last_run_timestamp_seconds"])
        let started = Date().timeIntervalSince1970
        #expect(abs((applied["epf_import_last_run_timestamp_seconds"] ?? 0) - started) < 60)
        #expect(applied["epf_import_files{status=\"applied\"}"] == 14)
        #expect(applied["epf_import_files{status=\"skipped\"}"] == 0)
        #expect(applied["epf_import_files{status=\"failed\"}"] == 0)
        // 25 rows of the FULL and 5 of the INCREMENTAL day; one repaired.
        #expect(applied["epf_import_rows{table=\"application\"}"] == 30)
        #expect(applied["epf_import_rows{table=\"application_price\"}"] == 175)
        #expect(applied["epf_import_rows_repaired{table=\"application\"}"] == 1)
        #expect((applied["epf_import_duration_seconds{table=\"application\"}"] ?? -1) > 0)
        #expect(!FileManager.default.fileExists(atPath: metrics + ".tmp"))
        let start = try #require(applied["epf_import_last_start_timestamp_seconds"])
        #expect(start <= applied["epf_import_last_run_timestamp_seconds"]!)

        let (again, nothing) = try run(SampleFeeds.pathsInOrder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(nothing["epf_import_success"] == 1)
        #expect(nothing["epf_import_files{status=\"skipped\"}"] == 14)
        #expect(nothing["epf_import_files{status=\"applied\"}"] == 0)
        let lastSuccess = try #require(nothing["epf_import_last_success_timestamp_seconds"])
        #expect(lastSuccess >= applied["epf_import_last_success_timestamp_seconds"]!)

        // A FULL cut short: the file fails, the run fails, the last success stays.
        let damaged = cli.path("damaged/application")
        try FileManager.default.createDirectory(atPath: cli.path("damaged"), withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/application"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: damaged))
        let (failing, failed) = try run([damaged])
        #expect(failing.status == 1, "\(failing.stderr)")
        #expect(failed["epf_import_success"] == 0)
        #expect(failed["epf_import_last_success_timestamp_seconds"] == lastSuccess)
        #expect((failed["epf_import_last_run_timestamp_seconds"] ?? 0) >= lastSuccess)
        #expect(failed["epf_import_files{status=\"failed\"}"] == 1)
        #expect(failed["epf_import_rows{table=\"application\"}"] == 0)

        // A path that is not there fails before any file: still written.
        let (missing, none) = try run([cli.path("nowhere")])
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(none["epf_import_success"] == 0)
        #expect(none["epf_import_last_success_timestamp_seconds"] == lastSuccess)
        #expect(none["epf_import_files{status=\"applied\"}"] == 0)
    }

    /// A run killed before its end (here at a fault point, with SIGKILL)
    /// leaves its start in the file, later than the last end, and the last
    /// success and success as the run before left them.
    @Test func aKilledRunLeavesItsStart() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let metrics = cli.path("epf.prom")
        let first = try cli.run(
            ["import", "--db", cli.path("c.sqlite"), "--metrics-file", metrics, SampleFeeds.path("itunes20261101")])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try PrometheusSamples.read(metrics)
        let killed = try cli.run(
            ["import", "--db", cli.path("c.sqlite"), "--metrics-file", metrics, SampleFeeds.path("itunes20261102")],
            environment: ["EPF_TEST_FAULT": "before-index"])
        #expect(killed.status != 0)
        let after = try PrometheusSamples.read(metrics)
        #expect(after["epf_import_success"] == 1)
        #expect(after["epf_import_last_run_timestamp_seconds"] == before["epf_import_last_run_timestamp_seconds"])
        #expect(after["epf_import_last_success_timestamp_seconds"] == before["epf_import_last_success_timestamp_seconds"])
        let start = try #require(after["epf_import_last_start_timestamp_seconds"])
        #expect(start > before["epf_import_last_run_timestamp_seconds"]!)
    }

    /// The file is in Prometheus's text format, as promtool reads it.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: promtool), "promtool is not installed: run scripts/install-system-packages"))
    func promtoolReadsTheFile() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let metrics = cli.path("epf.prom")
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--metrics-file", metrics] + SampleFeeds.pathsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        let lint = try EPFRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\(Self.promtool) check metrics < \(metrics)"], in: cli.folder)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }

    @Test("--dry-run writes no metrics; a folder that is not there is a usage error before anything runs")
    func dryRunAndAMissingFolder() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let dry = try cli.run(["import", "--dry-run", "--metrics-file", cli.path("m.prom")] + SampleFeeds.pathsInOrder)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("m.prom")))

        let bad = try cli.run(["import", "--db", cli.path("c.sqlite"), "--metrics-file", cli.path("no/m.prom")] + SampleFeeds.pathsInOrder)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--metrics-file: the folder \(cli.path("no")) does not exist"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("c.sqlite")))
    }
}
