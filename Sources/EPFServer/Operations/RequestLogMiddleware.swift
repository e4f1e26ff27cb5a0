import EPFCatalogRead
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// One log line per request: method, path, status, milliseconds, and the
/// request id Hummingbird gives each request (`hb.request.id`). Turns what
/// the routes throw (an unknown path) into a JSON answer first, so that
/// the line has the status the client got.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// Where the line goes (`ServerSettings.accessLog`).
    let accessLog: Logger
    /// Where the request is counted (`ServerSettings.metrics`).
    let metrics: ServerMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            let message = error.status == .notFound ? Self.notFound : error.status.reasonPhrase
            response = APIResponse.object(["errorMessage": message], status: error.status).response
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            response = APIResponse.object(["errorMessage": "Internal error"], status: .internalServerError).response
        }
        var log = accessLog
        log[metadataKey: ServerHeaders.requestIDKey] = context.logger[metadataKey: ServerHeaders.requestIDKey]
        let path = request.uri.path
        RequestLog.record(
            log, metrics, method: request.method, path: path, route: CatalogRoute.matching(path), status: response.status, since: start)
        return response
    }

    /// The 404's `errorMessage`: `No such path; try /lookup, /search, ...
    /// or ...`, every route of `CatalogRoute.all`.
    static let notFound: String = {
        let paths = CatalogRoute.all.map(\.template.text)
        return "No such path; try \(paths.dropLast().joined(separator: ", ")) or \(paths.last ?? "")"
    }()
}

/// The request log line and the request's metrics, the same from either
/// path (the router's middleware, the event loop's `EventLoopReadHandler`).
enum RequestLog {
    /// Counts the request in `metrics` (when on) under `route` (nil: a
    /// path of no route), and logs `GET /lookup 200` at `info`, with the
    /// method, path, status and milliseconds as metadata (which costs
    /// nothing below `info`).
    static func record(
        _ logger: Logger, _ metrics: ServerMetrics?, method: HTTPRequest.Method, path: String, route: CatalogRoute?,
        status: HTTPResponse.Status, since start: ContinuousClock.Instant
    ) {
        let duration = ContinuousClock.now - start
        metrics?.record(route: route, status: Int(status.code), duration: duration)
        guard logger.logLevel <= .info else { return }
        let milliseconds = duration.inSeconds * 1000
        logger.info(
            "\(method) \(path) \(status.code)",
            metadata: [
                "method": "\(method)", "path": "\(path)", "status": "\(status.code)",
                "duration_ms": "\(milliseconds.toThousandths)",
            ])
    }
}
