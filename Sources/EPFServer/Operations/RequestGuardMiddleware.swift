import EPFCatalogRead
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore

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
