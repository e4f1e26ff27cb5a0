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
    package static func router(pool: ReaderPool, settings: ServerSettings) -> Router<BasicRequestContext> {
        let router = Router()
        // Middleware first: it wraps only the routes added after it (and
        // the answer for an unknown path).
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestGuardMiddleware(maxInFlight: settings.maxInFlight))
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
    /// with its limits. `onRunning` gets the port bound (the one asked for,
    /// or the one the system chose for port 0).
    package static func application(
        pool: ReaderPool, settings: ServerSettings, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let http = HTTP1Channel.Configuration(
            idleTimeout: .seconds(settings.idleTimeoutSeconds),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: RequestLimits.maxHeaderBytes, maxHeaderListSize: RequestLimits.maxHeaderBytes, maxHeaderFieldCount: 100))
        return Application(
            router: router(pool: pool, settings: settings),
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(address: .hostname(settings.host, port: settings.port), serverName: "epf-server"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
            logger: logger)
    }

    /// Answers a `/lookup` or `/search`: parameters checked (400), the
    /// storefront of `country` (400 `[country]` when the catalog has none),
    /// then the read, on a reader of the pool.
    static func respond<Query: APIQuery>(to request: Request, as _: Query.Type, context: BasicRequestContext, pool: ReaderPool) async -> Response {
        let query: Query
        do throws(APIError) {
            query = try Query(try parameters(of: request))
        } catch {
            return APIResponse.error(error)
        }
        return await answer(pool: pool, context: context, callback: query.callback) { reader throws(CatalogError) in
            let storefront: Storefront
            do throws(CatalogError) {
                storefront = try reader.storefront(for: query.country)
            } catch where error.kind == .usage {
                return .failure(.invalid("country"))
            }
            do throws(CatalogError) {
                return .success(try query.read(from: reader, in: storefront).jsonBytes())
            } catch where error.kind == .usage {
                return .failure(.invalid(Query.readKey))
            }
        }
    }

    /// `{"status": "ok", "catalog": ..., "lastImport": "YYYY-MM-DD"}`, or
    /// 503 with `"status": "unavailable"` when the catalog cannot be read.
    static func health(pool: ReaderPool, catalog: String, context: BasicRequestContext) async -> Response {
        let outcome: Result<String?, CatalogError>
        do throws(ReadFailure) {
            outcome = try await pool.run { location in
                Result { () throws(CatalogError) -> String? in
                    let journal = try location.openAdmin().journal(feed: nil, table: nil, status: "applied", limit: 1)
                    // started_at: "2026-11-24 22:13:45" (UTC).
                    guard case .text(let started)? = journal?.first?[1] else { return nil }
                    return String(started.prefix(10))
                }
            }
        } catch {
            return unavailable(error, context: context)
        }
        switch outcome {
        case .success(let day):
            return APIResponse.object(["status": "ok", "catalog": catalog, "lastImport": day ?? NSNull()], status: .ok)
        case .failure(let error):
            context.logger.warning("health: the catalog cannot be read", metadata: ["error": "\(error)"])
            return APIResponse.object(
                ["status": "unavailable", "catalog": catalog, "errorMessage": "The catalog cannot be read (\(error.kind.rawValue))"],
                status: .serviceUnavailable)
        }
    }

    /// Runs `read` with a reader and answers with its JSON (or JSONP), its
    /// refusal (400), or 503 when the catalog cannot be read.
    private static func answer(
        pool: ReaderPool, context: BasicRequestContext, callback: String?,
        _ read: @escaping @Sendable (any CatalogQuerying) throws(CatalogError) -> Result<[UInt8], APIError>
    ) async -> Response {
        do throws(ReadFailure) {
            switch try await pool.read(read) {
            case .success(let json): return APIResponse.results(json, callback: callback)
            case .failure(let error): return APIResponse.error(error)
            }
        } catch {
            return unavailable(error, context: context)
        }
    }

    /// 503: the catalog could not answer (or the server is stopping); the
    /// cause goes to the log, not to the client.
    private static func unavailable(_ failure: ReadFailure, context: BasicRequestContext) -> Response {
        let message: String
        switch failure {
        case .catalog(let error):
            context.logger.error("the catalog cannot be read", metadata: ["error": "\(error)"])
            message = "The catalog cannot be read (\(error.kind.rawValue)); try again later"
        case .stopped:
            message = "The server is shutting down"
        }
        return APIResponse.object(["errorMessage": message], status: .serviceUnavailable)
    }

    /// The request's query parameters; 400 for a parameter that is not
    /// well percent-encoded.
    private static func parameters(of request: Request) throws(APIError) -> QueryParameters {
        do {
            return try QueryParameters(query: request.uri.query)
        } catch {
            throw .invalid(error.name)
        }
    }
}
