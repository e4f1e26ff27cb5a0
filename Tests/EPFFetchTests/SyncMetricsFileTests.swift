import EPFTestSupport
import Foundation
import Testing

/// `epf sync --metrics-file`: the import's metrics and the download's, its
/// byte and retry totals carried from run to run.
@Suite("epf sync --metrics-file", .enabled(if: FaultServer.available, FaultServer.skipReason), .timeLimit(.minutes(2)))
struct SyncMetricsFileTests {
    @Test func theDownloadsBytesAndNewTriesAddUpFromRunToRun() throws {
        // The listing fails once and the application table twice: three new tries.
        let setup = try FetchRetryTests.Setup(faults: ["/fault/current/": ["500"], FetchRetryTests.application: ["500", "500"]])
        defer { setup.cleanUp() }
        let metrics = setup.path("sync.prom")
        func sync(_ url: String, _ more: [String] = []) throws -> (EPFRunner.Result, PrometheusSamples) {
            let result = try EPFRunner.run(
                ["sync", "--to", "dl", "--db", "c.sqlite", "--url", url, "--metrics-file", metrics] + more, in: setup.folder,
                environment: ["EPF_USERNAME": "", "EPF_PASSWORD": "", "HOME": setup.folder.path, "EPF_TEST_RETRY_DELAY_MS": "10"])
            return (result, try PrometheusSamples.read(metrics))
        }

        let (first, fetched) = try sync(setup.server.url, ["--log-format", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        // Its log: JSON lines, the new tries as warnings with their fields.
        let log = try first.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        let retries = log.filter { $0["event"] as? String == "retry" }
        #expect(retries.count == 3 && retries.allSatisfy { $0["level"] as? String == "warning" }, "\(retries)")
        #expect(retries.last?["file"] as? String == "dl/itunes20261101/application.tbz" && retries.last?["attempt"] as? Int == 2)
        let downloads = log.filter { $0["event"] as? String == "downloaded" }
        #expect(downloads.count == 9 && downloads.allSatisfy { $0["bytes"] is Int }, "\(downloads)")
        #expect(log.contains { $0["event"] as? String == "summary" && $0["retries"] as? Int == 2 })
        let files = try FileManager.default.contentsOfDirectory(
            atPath: setup.server.www.appendingPathComponent("fault/current/itunes20261101").path)
        let tables = files.filter { $0.hasSuffix(".tbz") }
        let bytes = try tables.reduce(0) { $0 + (try setup.server.bytes("itunes20261101/" + $1).count) }
        #expect(first.stderr.contains("\(tables.count) file(s) downloaded (\(bytes) bytes)"), "\(first.stderr)")
        #expect(fetched["epf_fetch_bytes_total"] == Double(bytes))
        #expect(fetched["epf_fetch_retries_total"] == 3)
        #expect(fetched["epf_fetch_files{status=\"downloaded\"}"] == Double(tables.count))
        #expect(fetched["epf_import_success"] == 1)
        #expect(fetched["epf_import_files{status=\"applied\"}"] == Double(tables.count))
        #expect(fetched["epf_import_rows{table=\"application\"}"] == 25)

        // Nothing new: the totals stay, the files are there and skipped.
        let (second, nothing) = try sync(setup.server.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(nothing["epf_fetch_bytes_total"] == Double(bytes))
        #expect(nothing["epf_fetch_retries_total"] == 3)
        #expect(nothing["epf_fetch_files{status=\"present\"}"] == Double(tables.count))
        #expect(nothing["epf_import_files{status=\"skipped\"}"] == Double(tables.count))
        let lastSuccess = try #require(nothing["epf_import_last_success_timestamp_seconds"])

        // A server folder that is not there: the run fails, the totals and the last success stay.
        let (third, failed) = try sync(setup.server.url("gone"))
        #expect(third.status == 1, "\(third.stderr)")
        #expect(failed["epf_import_success"] == 0)
        #expect(failed["epf_import_last_success_timestamp_seconds"] == lastSuccess)
        #expect(failed["epf_fetch_bytes_total"] == Double(bytes))
        #expect(failed["epf_fetch_retries_total"] == 3)
    }
}
