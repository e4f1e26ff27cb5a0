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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            let message = error.status == .notFound ? "No such path; try /lookup, /search or /health" : error.status.reasonPhrase
            response = APIResponse.object(["errorMessage": message], status: error.status)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            response = APIResponse.object(["errorMessage": "Internal error"], status: .internalServerError)
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code)",
            metadata: [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(response.status.code)",
                "duration_ms": "\((milliseconds * 1000).rounded() / 1000)",
            ])
        return response
    }
}

/// Refuses, before any work, what the server does not answer: methods
/// other than GET (405), a request target over
/// `RequestLimits.maxTargetBytes` (414), and requests beyond
/// `maxInFlight` at once (429; a 5xx is never the answer to load).
struct RequestGuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let maxInFlight: Int
    private let inFlight = NIOLockedValueBox(0)

    init(maxInFlight: Int) {
        self.maxInFlight = maxInFlight
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get else {
            var response = APIResponse.object(["errorMessage": "Only GET is answered"], status: .methodNotAllowed)
            response.headers[.allow] = "GET"
            return response
        }
        guard request.uri.string.utf8.count <= RequestLimits.maxTargetBytes else {
            return APIResponse.object(
                ["errorMessage": "The request is longer than \(RequestLimits.maxTargetBytes) bytes"], status: .uriTooLong)
        }
        let admitted = inFlight.withLockedValue { count in
            guard count < maxInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else {
            var response = APIResponse.object(["errorMessage": "Too many requests at once; try again shortly"], status: .tooManyRequests)
            response.headers[.retryAfter] = "1"
            return response
        }
        defer { inFlight.withLockedValue { $0 -= 1 } }
        return try await next(request, context)
    }
}
