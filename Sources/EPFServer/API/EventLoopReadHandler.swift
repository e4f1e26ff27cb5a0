import EPFCatalogRead
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// Answers the API's reads (`GET /lookup` and `GET /search`: the read
/// routes of `CatalogRoute.all`) on the connection's event loop, and
/// passes every other request on to Hummingbird's router.
///
/// Why: the router's path costs more than a lookup. Each request there
/// crosses from the event loop to a Swift task and back, through
/// `NIOAsyncChannel`'s streams; on 2 cores that path alone, returning a
/// fixed 3 kB body, answers about 47,000 requests/s, against 76,000 for a
/// handler in the pipeline that writes the same body (scripts/load-test's
/// machine). Measured again with the set-based engine (docs/server.md):
/// `/lookup` of one ID from SQLite, 24,800-26,200 requests/s here against
/// 19,400-20,100 through the router (+24-31%).
///
/// Where the read runs is the pool's (`APIRead.answer(_:query:pool:logger:)`):
/// a SQLite read (a few tens of microseconds of CPU on a memory-mapped
/// file) right here, as nginx serves a file; a PostgreSQL read (which waits
/// on the network) on a pool thread, its answer written when it comes back
/// to this event loop, which serves its other connections meanwhile.
///
/// It sits after Hummingbird's `HTTPConnectionStateHandler`, which so sees
/// every request and response (idle timeout, graceful shutdown), and
/// after NIO's `HTTPServerPipelineHandler`, which hands on one request at a
/// time: a pipelined request waits until the response before it is
/// written, whichever path answered it, so responses keep their order.
///
/// What it answers is what the router answers for the same request: the
/// same answer function (`APIRead`), the same rules at the head
/// (`RequestGuardMiddleware.refusal`: it takes only what those let
/// through), the same `--max-in-flight` count and log line. A request it
/// does not take (another method or path, a refused head,
/// `Connection: close`, a body or `Expect`) goes to the router whole.
///
/// One handler per connection; all its calls are on that connection's
/// event loop.
final class EventLoopReadHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// A request of ours, read whole or in the reading.
    private struct Taken {
        let route: CatalogRoute
        let read: APIRead.Kind
        let path: String
        let query: String?
        let start: ContinuousClock.Instant
    }

    private enum State {
        /// Between requests.
        case idle
        /// A request of ours, answered at its end (a GET's body, if
        /// any, is dropped).
        case taking(Taken)
        /// A request for the router: its parts go on.
        case passing
        /// A request of ours, read whole, whose answer waits until the
        /// connection can take it (`channelWritabilityChanged`).
        case waitingToWrite(Taken)
        /// A request of ours whose read is under way on a pool thread.
        case answering
    }

    private let pool: ReaderPool
    private let inFlight: InFlightGate
    private let logger: Logger
    private let accessLog: Logger
    private let idleTimeout: TimeAmount
    private let answered: (@Sendable () -> Void)?
    private var state = State.idle
    /// `Date` and `Server`, as Hummingbird adds them to the router's answers.
    private var headers = ServerHeaders()
    /// Closes the connection when an answer has waited `idleTimeout` for
    /// the client to read (set only in `.waitingToWrite`).
    private var writeTimeout: Scheduled<Void>?
    /// Set when the handler leaves the pipeline: an answer that comes back
    /// from a pool thread after it is dropped.
    private var removed = false

    init(
        pool: ReaderPool, inFlight: InFlightGate, logger: Logger, accessLog: Logger, idleTimeout: TimeAmount,
        answered: (@Sendable () -> Void)? = nil
    ) {
        self.accessLog = accessLog
        self.answered = answered
        self.pool = pool
        self.inFlight = inFlight
        self.logger = logger
        self.idleTimeout = idleTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if let taken = take(request) {
                state = .taking(taken)
            } else {
                state = .passing
                context.fireChannelRead(data)
            }
        case .body:
            if case .passing = state { context.fireChannelRead(data) }
        case .end:
            switch state {
            case .taking(let taken):
                // A client that sends requests but does not read the
                // answers fills the connection's outbound buffer: the
                // answer waits until it drains, and NIO's pipeline handler
                // reads no next request before this answer is written.
                if context.channel.isWritable {
                    answer(taken, context: context)
                } else {
                    // Hummingbird's idle timeout does not count a request
                    // whose answer is under way, and a graceful stop waits
                    // for it: a client that never reads again is closed
                    // after the idle timeout, as an idle one is.
                    state = .waitingToWrite(taken)
                    writeTimeout = context.eventLoop.assumeIsolated().scheduleTask(in: idleTimeout) {
                        context.close(promise: nil)
                    }
                }
            case .passing:
                state = .idle
                context.fireChannelRead(data)
            case .idle, .waitingToWrite, .answering:
                context.fireChannelRead(data)
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, case .waitingToWrite(let taken) = state {
            cancelWriteTimeout()
            answer(taken, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        cancelWriteTimeout()
    }

    private func cancelWriteTimeout() {
        writeTimeout?.cancel()
        writeTimeout = nil
    }

    /// The request of ours, nil for one the router answers: another method
    /// or path, one the head rules refuse, `Connection: close`, and a
    /// request with a body or `Expect` (the router answers those at their
    /// head, without waiting for a body that may never come).
    private func take(_ request: HTTPRequest) -> Taken? {
        let fields = request.headerFields
        guard request.method == .get, let target = request.path,
            RequestGuardMiddleware.refusal(method: request.method, targetBytes: target.utf8.count) == nil,
            fields[.connection]?.lowercased() != "close", fields[.expect] == nil, fields[.transferEncoding] == nil,
            fields[.contentLength].map({ $0 == "0" }) ?? true
        else { return nil }
        let uri = URI(target)
        guard let found = CatalogRoute.eventLoopRead(uri.path) else { return nil }
        return Taken(route: found.route, read: found.read, path: uri.path, query: uri.query, start: .now)
    }

    /// Reads the answer (here, or on a pool thread), then writes it.
    private func answer(_ taken: Taken, context: ChannelHandlerContext) {
        var logger = logger
        var accessLog = accessLog
        ServerHeaders.identify(&logger, &accessLog)
        guard inFlight.enter() else {
            state = .idle
            return write(APIResponse.tooManyRequests, taken, accessLog: accessLog, context: context)
        }
        switch APIRead.answer(taken.read, query: taken.query, pool: pool, logger: logger) {
        case .answered(let answer):
            // A 400, or a read done in place: written now, no future between.
            inFlight.leave()
            state = .idle
            write(answer, taken, accessLog: accessLog, context: context)
        case .reading(let ready):
            state = .answering
            ready.futureAnswer(pool: pool, logger: logger, on: context.eventLoop).assumeIsolated().whenComplete {
                [inFlight] outcome in
                inFlight.leave()
                guard !self.removed else { return }
                self.state = .idle
                switch outcome {
                case .success(let answer): self.write(answer, taken, accessLog: accessLog, context: context)
                case .failure: self.write(APIRead.unavailable(.stopped, logger: logger), taken, accessLog: accessLog, context: context)
                }
            }
        }
    }

    private func write(_ answer: APIAnswer, _ taken: Taken, accessLog: Logger, context: ChannelHandlerContext) {
        var head = HTTPResponse(status: answer.status, headerFields: answer.headerFields)
        headers.stamp(&head)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        RequestLog.record(
            accessLog, inFlight.metrics, method: .get, path: taken.path, route: taken.route, status: answer.status, since: taken.start)
        answered?()
    }
}
