import EPFTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `/metrics` read by a real Prometheus (Debian's, which
/// scripts/install-system-packages installs), and the alert rules of
/// docs/alerts.yml checked and unit-tested by its promtool.
@Suite(
    "epf-server and a real Prometheus",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prometheus"),
        "prometheus is not installed: run scripts/install-system-packages"))
struct PrometheusTests {
    static let prometheus = "/usr/bin/prometheus"
    static let promtool = "/usr/bin/promtool"
    /// This folder, where alerts-test.yml is.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Prometheus scrapes the server every second; the counters read back
    /// through its query API are the requests the test sent.
    @Test func prometheusScrapesTheCountersOfTheRequestsSent() async throws {
        let catalog = try SampleCatalog()
        // /metrics on a port of its own, as a deployment that keeps it off
        // the API's port does.
        let server = try await RunningServer(catalog, ["--readers", "2", "--metrics-port", "0"])
        let metricsPort = try await server.metricsPort()
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for _ in 0..<5 { _ = try await session.data(from: try #require(URL(string: "\(server.base)/lookup?id=364709193"))) }
        _ = try await session.data(from: try #require(URL(string: "\(server.base)/search?term=chess")))

        let work = catalog.folder.appendingPathComponent("prometheus")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let port = try #require(freeLoopbackPort())
        try """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: epf-server
            static_configs:
              - targets: ["127.0.0.1:\(metricsPort)"]
        """.write(to: work.appendingPathComponent("prometheus.yml"), atomically: true, encoding: .utf8)
        let process = try EPFRunner.process(
            URL(fileURLWithPath: Self.prometheus),
            [
                "--config.file=prometheus.yml", "--storage.tsdb.path=data", "--web.listen-address=127.0.0.1:\(port)",
                "--log.level=warn",
            ], in: work)
        let log = try EPFRunner.sendOutput(of: process, to: work.appendingPathComponent("prometheus.log"))
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
            try? log.close()
        }

        /// The value of `query` Prometheus answers, once it answers one.
        func value(_ query: String) async throws -> String? {
            var parts = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/query")!
            parts.queryItems = [URLQueryItem(name: "query", value: query)]
            // A form-encoded query takes `+` for a space: `le="+Inf"` needs %2B.
            parts.percentEncodedQuery = parts.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            guard let (body, _) = try? await session.data(from: try #require(parts.url)),
                let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                let data = json["data"] as? [String: Any], let result = (data["result"] as? [[String: Any]])?.first,
                let pair = result["value"] as? [Any]
            else { return nil }
            return pair.last as? String
        }
        let lookups = #"epf_http_requests_total{job="epf-server",route="/lookup",status="200"}"#
        var seen: String?
        for _ in 0..<150 where seen != "5" {
            seen = try await value(lookups)
            if seen != "5" { try await Task.sleep(for: .milliseconds(200)) }
        }
        let prometheusLog = String(
            decoding: (try? Data(contentsOf: work.appendingPathComponent("prometheus.log"))) ?? Data(), as: UTF8.self)
        #expect(seen == "5", "Prometheus read \(seen ?? "nothing") for \(lookups): \(prometheusLog)")
        #expect(try await value(#"epf_http_requests_total{route="/search",status="200"}"#) == "1")
        #expect(try await value(#"epf_http_request_duration_seconds_count{route="/lookup"}"#) == "5")
        #expect(try await value(#"epf_http_request_duration_seconds_bucket{route="/lookup",le="+Inf"}"#) == "5")
        #expect(try await value(#"up{job="epf-server"}"#) == "1")
        let imported = try #require(try await value("epf_catalog_last_import_timestamp_seconds"))
        #expect(abs((Double(imported) ?? 0) - Date().timeIntervalSince1970) < 600, "\(imported)")
    }

    /// docs/alerts.yml is valid, and each alert fires on the series it is
    /// for, and not before (alerts-test.yml).
    @Test func theAlertRulesCheckAndPassTheirUnitTests() throws {
        let check = try EPFRunner.run(URL(fileURLWithPath: Self.promtool), ["check", "rules", "../../docs/alerts.yml"], in: Self.folder)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("SUCCESS: 8 rules found"), "\(check.stdout)")
        let unit = try EPFRunner.run(URL(fileURLWithPath: Self.promtool), ["test", "rules", "alerts-test.yml"], in: Self.folder)
        #expect(unit.status == 0, "\(unit.stdout)\(unit.stderr)")
        #expect(unit.stdout.contains("SUCCESS"), "\(unit.stdout)")
    }
}
