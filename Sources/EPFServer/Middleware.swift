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

/// Refuses, before any work, what the server does not answer: methods
/// other than GET and HEAD (405), a request target over
/// `RequestLimits.maxTargetBytes` (414), and requests beyond
/// `--max-in-flight` at once (429; a 5xx is never the answer to load).
struct RequestGuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let inFlight: InFlightGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(method: request.method, targetBytes: request.uri.string.utf8.count) { return refusal.response }
        guard inFlight.enter() else { return APIResponse.tooManyRequests.response }
        defer { inFlight.leave() }
        return try await next(request, context)
    }

    /// The answer to a request refused at its head (405, 414), nil for one
    /// that goes on: the rule of both paths (the event loop's takes only
    /// what this lets through, and counts it against `--max-in-flight` as
    /// this does).
    static func refusal(method: HTTPRequest.Method, targetBytes: Int) -> APIAnswer? {
        guard method == .get || method == .head else { return APIResponse.methodNotAllowed }
        guard targetBytes <= RequestLimits.maxTargetBytes else { return APIResponse.uriTooLong }
        return nil
    }
}

/// The requests being answered at once, by either path, against
/// `--max-in-flight`.
package final class InFlightGate: Sendable {
    private let limit: Int
    private let count = NIOLockedValueBox(0)
    /// Where the requests in flight are shown, and every request counted.
    let metrics: ServerMetrics?

    package init(limit: Int, metrics: ServerMetrics? = nil) {
        self.limit = limit
        self.metrics = metrics
    }

    /// Counts a request in; false (and not counted) when `limit` are
    /// already in.
    func enter() -> Bool {
        let entered = count.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        if entered { metrics?.inFlight(1) }
        return entered
    }

    /// Counts out a request `enter()` let in.
    func leave() {
        count.withLockedValue { $0 -= 1 }
        metrics?.inFlight(-1)
    }
}

extension APIResponse {
    /// 405 with `Allow: GET, HEAD`.
    static var methodNotAllowed: APIAnswer {
        var answer = object(["errorMessage": "Only GET and HEAD are answered"], status: .methodNotAllowed)
        answer.extraHeaders[.allow] = "GET, HEAD"
        return answer
    }

    /// 414: the request target is longer than `RequestLimits.maxTargetBytes`.
    static var uriTooLong: APIAnswer {
        object(["errorMessage": "The request is longer than \(RequestLimits.maxTargetBytes) bytes"], status: .uriTooLong)
    }

    /// 429 with `Retry-After: 1`.
    static var tooManyRequests: APIAnswer {
        var answer = object(["errorMessage": "Too many requests at once; try again shortly"], status: .tooManyRequests)
        answer.extraHeaders[.retryAfter] = "1"
        return answer
    }
}
