import EPFCatalogRead
import Foundation
import Prometheus
import Synchronization

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
    /// The duration histogram of each route, made at start: a request
    /// finds its own without building a name or taking the registry's lock.
    private let durations: [String: DurationHistogram]
    /// The request counter of each route and status, made when first seen.
    private let requests = Mutex<[RequestKey: Counter]>([:])

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    /// Every route a request counts under: each of `CatalogRoute.all` by
    /// its template, and `other` for a path of none.
    static let routes = CatalogRoute.all.map(\.template.text) + [other]
    /// The route of a path that is no route's.
    static let other = "other"

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
        let registry = registry
        durations = Dictionary(
            uniqueKeysWithValues: Self.routes.map { route in
                (
                    route,
                    registry.makeDurationHistogram(
                        descriptor: Self.name(
                            "epf_http_request_duration", unit: "seconds", help: "How long requests took to answer, by route."),
                        labels: [("route", route)], buckets: Self.buckets)
                )
            })
    }

    /// A metric's name (`metric_unit`) and help, as the registry takes them.
    private static func name(_ metric: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric, unitName: unit, helpText: help)
    }

    /// A request of `route` (nil: a path of no route) was answered with
    /// `status` in `duration`.
    func record(route: CatalogRoute?, status: Int, duration: Duration) {
        let key = RequestKey(route: route?.template.text ?? Self.other, status: status)
        let counter = requests.withLock { counters in
            if let known = counters[key] { return known }
            let made = registry.makeCounter(
                descriptor: Self.name("epf_http_requests", unit: "total", help: "Requests answered, by route and status."),
                labels: [("route", key.route), ("status", String(status))])
            counters[key] = made
            return made
        }
        counter.increment()
        durations[key.route]?.record(duration)
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
