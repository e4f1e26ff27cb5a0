import EPFCatalogRead
import EPFLocation
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The HTTP side of a catalog: `/lookup`, `/search` and `/health`, as
/// Apple's iTunes Search and Lookup APIs answer them, and the top charts
/// as Apple's RSS feed generator does (`ChartRoute`), over a `ReaderPool`.
package enum CatalogServer {
    /// The routes (`CatalogRoute.all`) and the request guards (method,
    /// size, load, logging).
    /// HEAD is answered as GET is, headers only (`Content-Length` is the
    /// GET answer's), as Apple's API and health checkers expect.
    package static func router(pool: ReaderPool, settings: ServerSettings, inFlight: InFlightGate) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        // Before the middleware, which wraps only the routes added after
        // it: a scrape is neither limited like the API nor counted in it.
        if let metrics = settings.metrics, settings.metricsAddress == nil {
            router.get("metrics") { _, _ in await Self.metrics(metrics, pool: pool) }
        }
        // Middleware first: it wraps only the routes added after it (and
        // the answer for an unknown path).
        router.add(middleware: RequestLogMiddleware(accessLog: settings.accessLog, metrics: settings.metrics))
        router.add(middleware: RequestGuardMiddleware(inFlight: inFlight))
        for route in CatalogRoute.all {
            router.get(route.template.routerPath) { request, context in
                await route.respond(to: request, context: context, pool: pool, settings: settings)
            }
        }
        return router
    }

    /// The application: the router on HTTP/1.1 at `settings`' address,
    /// with its limits; `/lookup` and `/search` answered on the event
    /// loops (`EventLoopReadHandler`; a PostgreSQL read on the pool's
    /// threads, its answer written on the event loop). `onRunning`
    /// gets the port bound (the one asked for, or the one the system chose
    /// for port 0). With `settings.metricsAddress`, `/metrics` is served
    /// there by a listener of its own (`metricsApplication`), run with
    /// the API's and stopped with it; `onMetricsRunning` gets its port.
    package static func application(
        pool: ReaderPool, settings: ServerSettings, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let http = HTTP1Channel.Configuration(
            idleTimeout: .seconds(settings.idleTimeoutSeconds),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: RequestLimits.maxHeaderBytes, maxHeaderListSize: RequestLimits.maxHeaderBytes, maxHeaderFieldCount: 100)
        )
        let inFlight = InFlightGate(limit: settings.maxInFlight, metrics: settings.metrics)
        let connectionGuard = ConnectionGuard(
            perClient: settings.maxConnectionsPerClient, headerTimeout: .seconds(settings.headerTimeoutSeconds), logger: logger)
        let eventLoopReads: (@Sendable () -> EventLoopReadHandler)?
        if settings.readsOnEventLoops {
            let idleTimeout = TimeAmount.seconds(settings.idleTimeoutSeconds)
            let answered = settings.eventLoopAnswered
            eventLoopReads = {
                EventLoopReadHandler(
                    pool: pool, inFlight: inFlight, logger: logger, accessLog: settings.accessLog, idleTimeout: idleTimeout,
                    answered: answered)
            }
        } else {
            eventLoopReads = nil
        }
        var metricsListener: [Application<RouterResponder<BasicRequestContext>>] = []
        if let metrics = settings.metrics, let address = settings.metricsAddress {
            metricsListener.append(
                metricsApplication(metrics, pool: pool, address: address, logger: logger, onRunning: onMetricsRunning))
        }
        return Application(
            router: router(pool: pool, settings: settings, inFlight: inFlight),
            server: HTTPServerBuilder { responder in
                CatalogHTTPChannel(
                    responder: responder, configuration: http, eventLoopReads: eventLoopReads, connectionGuard: connectionGuard)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: ServerHeaders.serverName, backlog: Self.backlog,
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections, logger: logger)),
            services: metricsListener,
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// `/metrics` alone, at `address`: for a scrape on another port (or
    /// interface) than the API's. Every other path is 404.
    static func metricsApplication(
        _ metrics: ServerMetrics, pool: ReaderPool, address: (host: String, port: Int), logger: Logger,
        onRunning: @escaping @Sendable (Int) async -> Void
    ) -> Application<RouterResponder<BasicRequestContext>> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.get("metrics") { _, _ in await Self.metrics(metrics, pool: pool) }
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: ServerHeaders.serverName),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? address.port) },
            logger: logger)
    }

    /// The listen backlog: connections the system completes before the
    /// server accepts them (capped by `net.core.somaxconn`). A flood of
    /// connections that fills it makes the system drop the next ones'
    /// first packet, which their clients send again only after a second:
    /// Hummingbird's 256 fills in a moment.
    static let backlog = 4096

    /// `GET /metrics`: Prometheus's text format, with the catalog's
    /// freshness read first through a reader of the pool (the newest
    /// applied file of the journal). A catalog that cannot be read keeps
    /// the gauges as they were: the scrape still answers.
    static func metrics(_ metrics: ServerMetrics, pool: ReaderPool) async -> Response {
        let newest = try? await pool.read { reader throws(CatalogError) in
            try reader.journal(feed: nil, table: nil, status: .applied, limit: 1).first
        }
        var body = ByteBuffer()
        body.writeBytes(metrics.text(newestApplied: newest ?? nil))
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: body))
    }

    /// `{"status": "ok", "catalog": ..., "lastImport": "YYYY-MM-DD"}`, or
    /// 503 with `"status": "unavailable"` when the catalog cannot be read:
    /// through a reader of the pool, as a lookup reads (a reader that fails
    /// is opened again once, so a database that went away, or a SQLite file
    /// removed or replaced, is found out).
    static func health(pool: ReaderPool, catalog: String, context: BasicRequestContext) async -> Response {
        let outcome: Result<String?, CatalogError>
        do throws(ReadFailure) {
            // started_at: "2026-11-24 22:13:45" (UTC).
            outcome = .success(
                try await pool.read { reader throws(CatalogError) in try reader.lastImportTime() }.map { String($0.prefix(10)) })
        } catch {
            switch error {
            case .catalog(let error): outcome = .failure(error)
            case .stopped: return APIRead.unavailable(error, logger: context.logger).response
            }
        }
        switch outcome {
        case .success(let day):
            return APIResponse.object(["status": "ok", "catalog": catalog, "lastImport": day ?? NSNull()], status: .ok).response
        case .failure(let error):
            context.logger.warning("health: the catalog cannot be read", metadata: ["error": "\(error)"])
            return APIResponse.object(
                ["status": "unavailable", "catalog": catalog, "errorMessage": "The catalog cannot be read (\(error.kind.rawValue))"],
                status: .serviceUnavailable
            ).response
        }
    }

}
