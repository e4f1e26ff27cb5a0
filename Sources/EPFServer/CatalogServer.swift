import EPFCatalog
import EPFLocation
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The HTTP side of a catalog: `/lookup`, `/search` and `/health`, as
/// Apple's iTunes Search and Lookup APIs answer them, over a `ReaderPool`.
package enum CatalogServer {
    /// The routes and the request guards (method, size, load, logging).
    /// HEAD is answered as GET is, headers only (`Content-Length` is the
    /// GET answer's), as Apple's API and health checkers expect.
    package static func router(pool: ReaderPool, settings: ServerSettings, inFlight: InFlightGate) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        // Middleware first: it wraps only the routes added after it (and
        // the answer for an unknown path).
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestGuardMiddleware(inFlight: inFlight))
        router.get("lookup") { request, context in
            await respond(to: request, as: LookupRequest.self, context: context, pool: pool)
        }
        router.get("search") { request, context in
            await respond(to: request, as: SearchRequest.self, context: context, pool: pool)
        }
        router.get("health") { _, context in
            await health(pool: pool, catalog: settings.location.displayName, context: context)
        }
        return router
    }

    /// The application: the router on HTTP/1.1 at `settings`' address,
    /// with its limits; for a SQLite catalog, `/lookup` and `/search`
    /// answered on the event loops (`EventLoopReadHandler`). `onRunning`
    /// gets the port bound (the one asked for, or the one the system chose
    /// for port 0).
    package static func application(
        pool: ReaderPool, settings: ServerSettings, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let http = HTTP1Channel.Configuration(
            idleTimeout: .seconds(settings.idleTimeoutSeconds),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: RequestLimits.maxHeaderBytes, maxHeaderListSize: RequestLimits.maxHeaderBytes, maxHeaderFieldCount: 100))
        let inFlight = InFlightGate(limit: settings.maxInFlight)
        let eventLoopReads: (@Sendable () -> EventLoopReadHandler)?
        if pool.readsInPlace && settings.readsOnEventLoops {
            let idleTimeout = TimeAmount.seconds(settings.idleTimeoutSeconds)
            let answered = settings.eventLoopAnswered
            eventLoopReads = {
                EventLoopReadHandler(
                    pool: pool, inFlight: inFlight, logger: logger, serverName: serverName, idleTimeout: idleTimeout, answered: answered)
            }
        } else {
            eventLoopReads = nil
        }
        return Application(
            router: router(pool: pool, settings: settings, inFlight: inFlight),
            server: HTTPServerBuilder { responder in
                CatalogHTTPChannel(responder: responder, configuration: http, eventLoopReads: eventLoopReads)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: serverName,
                availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections, logger: logger)),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// The `Server` header.
    static let serverName = "epf-server"

    /// Answers a `/lookup` or `/search` on the router's path (PostgreSQL
    /// catalogs, and what the event loop's fast path passes on).
    static func respond<Query: APIQuery>(to request: Request, as _: Query.Type, context: BasicRequestContext, pool: ReaderPool) async -> Response {
        let query: Query
        do throws(APIError) {
            query = try Query(try parameters(request.uri.query))
        } catch {
            return APIResponse.error(error).response
        }
        do throws(ReadFailure) {
            return answer(try await pool.read(reading(query)), callback: query.callback).response
        } catch {
            return unavailable(error, logger: context.logger).response
        }
    }

    /// Answers a `/lookup` or `/search` here, on this thread (the event
    /// loop's fast path, `EventLoopReadHandler`; SQLite catalogs).
    static func answerHere<Query: APIQuery>(_: Query.Type, query text: String?, pool: ReaderPool, logger: Logger) -> APIAnswer {
        let query: Query
        do throws(APIError) {
            query = try Query(try parameters(text))
        } catch {
            return APIResponse.error(error)
        }
        do throws(ReadFailure) {
            return answer(try pool.readHere(reading(query)), callback: query.callback)
        } catch {
            return unavailable(error, logger: logger)
        }
    }

    /// The read of `query`: the storefront of `country` (Apple's 400
    /// `[country]` when the catalog has none; a 400 that says so when the
    /// catalog was imported without that storefront), then the answer's
    /// JSON, or the 400 of a value the read refuses.
    private static func reading<Query: APIQuery>(_ query: Query) -> @Sendable (any CatalogQuerying) throws(CatalogError) -> Result<[UInt8], APIError> {
        { reader throws(CatalogError) in
            do throws(CatalogError) {
                return .success(try query.read(from: reader).jsonBytes())
            } catch where error.refusesStorefront {
                return .failure(error.kind == .usage ? .invalid("country") : APIError(status: 400, message: error.detail))
            } catch where error.kind == .usage {
                return .failure(.invalid(Query.readKey))
            }
        }
    }

    /// The JSON (or JSONP) of a read, or its refusal (400).
    private static func answer(_ outcome: Result<[UInt8], APIError>, callback: String?) -> APIAnswer {
        switch outcome {
        case .success(let json): APIResponse.results(json, callback: callback)
        case .failure(let error): APIResponse.error(error)
        }
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
            outcome = .success(try await pool.read { reader throws(CatalogError) in try reader.lastImportTime() }.map { String($0.prefix(10)) })
        } catch {
            switch error {
            case .catalog(let error): outcome = .failure(error)
            case .stopped: return unavailable(error, logger: context.logger).response
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

    /// 503: the catalog could not answer (or the server is stopping); the
    /// cause goes to the log, not to the client.
    private static func unavailable(_ failure: ReadFailure, logger: Logger) -> APIAnswer {
        let message: String
        switch failure {
        case .catalog(let error):
            logger.error("the catalog cannot be read", metadata: ["error": "\(error)"])
            message = "The catalog cannot be read (\(error.kind.rawValue)); try again later"
        case .stopped:
            message = "The server is shutting down"
        }
        return APIResponse.object(["errorMessage": message], status: .serviceUnavailable)
    }

    /// The parameters of a request's query; 400 for a parameter that is
    /// not well percent-encoded.
    private static func parameters(_ query: String?) throws(APIError) -> QueryParameters {
        do {
            return try QueryParameters(query: query)
        } catch {
            throw .invalid(error.name)
        }
    }
}
