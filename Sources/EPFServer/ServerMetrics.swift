import EPFCatalog
import Foundation
import Prometheus

/// What `epf-server` tells Prometheus (`GET /metrics`, its text format):
/// the requests by route and status, their durations by route, the
/// requests in flight, and how fresh the catalog is.
///
/// Recorded where the access log line is written (`RequestLog`), so both
/// paths, the router's and the event loop's, count alike. A route is the
/// route's template, never the raw path: a client cannot make the metrics
/// grow by asking for new paths.
package final class ServerMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let inFlight: Gauge
    private let lastImport: Gauge
    private let exportDate: Gauge

    /// The histogram's buckets, in seconds: a lookup answers in tens of
    /// microseconds, a search in milliseconds, a cold PostgreSQL read in
    /// tens of milliseconds.
    static let buckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
    ]

    package init() {
        inFlight = registry.makeGauge(
            descriptor: Self.name("epf_http_requests_in_flight", help: "Requests being answered now, waiting ones included."))
        lastImport = registry.makeGauge(
            descriptor: Self.name(
                "epf_catalog_last_import", unit: "timestamp_seconds",
                help: "When the newest file the catalog's import journal lists as applied was imported."))
        exportDate = registry.makeGauge(
            descriptor: Self.name(
                "epf_catalog_export_date", unit: "seconds",
                help: "The export date of the newest file the catalog's import journal lists as applied."))
    }

    /// A metric's name (`metric_unit`) and help, as the registry takes them.
    private static func name(_ metric: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric, unitName: unit, helpText: help)
    }

    /// The route a request path counts under.
    static func route(_ path: String) -> String {
        switch path {
        case "/lookup", "/search", "/health": return path
        case _ where path.hasPrefix("/api/v2/"):
            return path.contains("/genre/")
                ? "/api/v2/{country}/apps/{chart}/{limit}/genre/{genre}.json" : "/api/v2/{country}/apps/{chart}/{limit}/apps.json"
        default: return "other"
        }
    }

    /// A request to `path` was answered with `status` in `duration`.
    func record(path: String, status: Int, duration: Duration) {
        let route = Self.route(path)
        registry.makeCounter(
            descriptor: Self.name("epf_http_requests", unit: "total", help: "Requests answered, by route and status."),
            labels: [("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("epf_http_request_duration", unit: "seconds", help: "How long requests took to answer, by route."),
            labels: [("route", route)], buckets: Self.buckets
        ).record(duration)
    }

    /// A request came in (`delta` 1) or was answered (-1).
    func inFlight(_ delta: Double) { inFlight.increment(by: delta) }

    /// The text Prometheus scrapes, the catalog's freshness read first
    /// through `read` (a reader of the pool); a catalog that cannot be read
    /// leaves the two gauges as they were.
    func text(newestApplied: JournalRecord?) -> [UInt8] {
        if let record = newestApplied {
            if let finished = Timestamp.epochSeconds(record.finishedAt) { lastImport.set(finished) }
            if let export = record.exportDate { exportDate.set(Double(export) / 1000) }
        }
        return registry.emitToBuffer()
    }
}
