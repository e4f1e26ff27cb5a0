import EPFCatalog
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Answers `GET /lookup` and `GET /search` on the connection's event loop,
/// reading the catalog right there (`ReaderPool.readHere`), and passes
/// every other request on to Hummingbird's router.
///
/// Why: the router's path costs more than a lookup. Each request there
/// crosses from the event loop to a Swift task and back, through
/// `NIOAsyncChannel`'s streams; on 2 cores that path alone, returning a
/// fixed 3 kB body, answers about 47,000 requests/s, against 76,000 for a
/// handler in the pipeline that writes the same body (scripts/load-test's
/// machine). A SQLite read is a few tens of microseconds of CPU on a
/// memory-mapped file, so it runs in place, as nginx serves a file.
/// PostgreSQL catalogs (reads wait on the network) never get this handler.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler`, which so sees
/// every request and response (idle timeout, graceful shutdown), and
/// after NIO's `HTTPServerPipelineHandler`, which hands on one request at a
/// time: a pipelined request waits until the response before it is
/// written, whichever path answered it, so responses keep their order.
///
/// What it answers is what the router answers for the same request (the
/// same `CatalogServer.answerHere`, headers, `--max-in-flight` count and
/// log line); a request it does not take (another method or path, a
/// target over `RequestLimits.maxTargetBytes`, `Connection: close`) goes
/// to the router whole.
///
/// One handler per connection; all its calls are on that connection's
/// event loop.
final class EventLoopReadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private enum Route {
        case lookup, search
    }

    private enum State {
        /// Between requests.
        case idle
        /// A request of ours, answered at its end (a GET's body, if
        /// any, is dropped).
        case taking(Route, path: String, query: String?, start: ContinuousClock.Instant)
        /// A request for the router: its parts go on.
        case passing
        /// A request of ours, read whole, whose answer waits until the
        /// connection can take it (`channelWritabilityChanged`).
        case waitingToWrite(Route, path: String, query: String?, start: ContinuousClock.Instant)
    }

    private let pool: ReaderPool
    private let inFlight: InFlightGate
    private let logger: Logger
    private let serverName: String
    private let idleTimeout: TimeAmount
    private let answered: (@Sendable () -> Void)?
    private var state = State.idle
    private var date = HTTPDate()
    /// Closes the connection when an answer has waited `idleTimeout` for
    /// the client to read (set only in `.waitingToWrite`).
    private var writeTimeout: Scheduled<Void>?

    init(
        pool: ReaderPool, inFlight: InFlightGate, logger: Logger, serverName: String, idleTimeout: TimeAmount,
        answered: (@Sendable () -> Void)? = nil
    ) {
        self.answered = answered
        self.pool = pool
        self.inFlight = inFlight
        self.logger = logger
        self.serverName = serverName
        self.idleTimeout = idleTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let taken = take(request) {
                state = taken
            } else {
                state = .passing
                context.fireChannelRead(data)
            }
        case .body:
            if case .passing = state { context.fireChannelRead(data) }
        case .end:
            switch state {
            case .taking(let route, let path, let query, let start):
                // A client that sends requests but does not read the
                // answers fills the connection's outbound buffer: the
                // answer waits until it drains, and NIO's pipeline handler
                // reads no next request before this answer is written.
                if context.channel.isWritable {
                    state = .idle
                    answer(route, path: path, query: query, start: start, context: context)
                } else {
                    // Hummingbird's idle timeout does not count a request
                    // whose answer is under way, and a graceful stop waits
                    // for it: a client that never reads again is closed
                    // after the idle timeout, as an idle one is.
                    state = .waitingToWrite(route, path: path, query: query, start: start)
                    writeTimeout = context.eventLoop.assumeIsolated().scheduleTask(in: idleTimeout) {
                        context.close(promise: nil)
                    }
                }
            case .passing:
                state = .idle
                context.fireChannelRead(data)
            case .idle, .waitingToWrite:
                context.fireChannelRead(data)
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, case .waitingToWrite(let route, let path, let query, let start) = state {
            state = .idle
            cancelWriteTimeout()
            answer(route, path: path, query: query, start: start, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelWriteTimeout()
    }

    private func cancelWriteTimeout() {
        writeTimeout?.cancel()
        writeTimeout = nil
    }

    /// The state for a request of ours, nil for one the router answers:
    /// another method, a long target, `Connection: close`, and a request
    /// with a body or `Expect` (the router answers those at their head,
    /// without waiting for a body that may never come).
    private func take(_ request: HTTPRequest) -> State? {
        let fields = request.headerFields
        guard request.method == .get, let target = request.path, target.utf8.count <= RequestLimits.maxTargetBytes,
            fields[.connection]?.lowercased() != "close", fields[.expect] == nil, fields[.transferEncoding] == nil,
            fields[.contentLength].map({ $0 == "0" }) ?? true
        else { return nil }
        let uri = URI(target)
        let route: Route
        switch uri.path {
        case "/lookup": route = .lookup
        case "/search": route = .search
        default: return nil
        }
        return .taking(route, path: uri.path, query: uri.query, start: .now)
    }

    private func answer(_ route: Route, path: String, query: String?, start: ContinuousClock.Instant, context: ChannelHandlerContext) {
        var logger = logger
        if logger.logLevel <= .info { logger[metadataKey: "hb.request.id"] = "\(RequestID())" }
        let answer: APIAnswer
        if inFlight.enter() {
            defer { inFlight.leave() }
            switch route {
            case .lookup: answer = CatalogServer.answerHere(LookupRequest.self, query: query, pool: pool, logger: logger)
            case .search: answer = CatalogServer.answerHere(SearchRequest.self, query: query, pool: pool, logger: logger)
            }
        } else {
            answer = APIResponse.tooManyRequests
        }
        var head = HTTPResponse(status: answer.status, headerFields: answer.headerFields)
        head.headerFields[.date] = date.now
        head.headerFields[.server] = serverName
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        RequestLog.record(logger, method: .get, path: path, status: answer.status, since: start)
        answered?()
    }
}

/// The `Date` header's value (`Wed, 25 Nov 2026 01:12:38 GMT`, RFC 9110's
/// IMF-fixdate), formatted again only when the second changes.
struct HTTPDate {
    private var second: time_t = -1
    private var text = ""

    /// Now, to the second.
    var now: String {
        mutating get {
            let current = time(nil)
            if current != second {
                second = current
                text = Self.format(current)
            }
            return text
        }
    }

    static func format(_ time: time_t) -> String {
        var t = time
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
