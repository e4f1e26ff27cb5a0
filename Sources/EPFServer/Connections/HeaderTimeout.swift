import NIOCore
import NIOHTTP1

/// Closes a connection that has not sent a whole request head within the
/// header timeout (`--header-timeout`): from the moment it is accepted,
/// and on a kept-alive connection from the first byte of its next
/// request (until then the idle timeout applies). A client that sends its
/// head a byte at a time is closed at that deadline: bytes do not move it.
///
/// Two handlers share one deadline: `bytes` goes first in the pipeline and
/// sees the first byte of a request; `heads` goes after the HTTP decoder
/// and sees the head arrive and the answer end. Both run on the
/// connection's event loop, so the deadline needs no lock.
enum HeaderTimeout {
    /// The two handlers of one connection.
    static func handlers(guard connectionGuard: ConnectionGuard) -> (bytes: Bytes, heads: Heads) {
        let deadline = Deadline(timeout: connectionGuard.headerTimeout, connectionGuard: connectionGuard)
        return (Bytes(deadline), Heads(deadline))
    }

    /// Where the connection is, and its timer.
    final class Deadline {
        enum Phase {
            /// Accepted, or a request begun: the head must come in time.
            case waitingForHead
            /// A head came; its answer is not written yet.
            case inRequest
            /// Between requests of a kept-alive connection.
            case idle
        }

        let timeout: TimeAmount
        let connectionGuard: ConnectionGuard
        var phase = Phase.waitingForHead
        var timer: Scheduled<Void>?

        init(timeout: TimeAmount, connectionGuard: ConnectionGuard) {
            self.timeout = timeout
            self.connectionGuard = connectionGuard
        }

        /// The head must come within the timeout from now.
        func start(_ context: ChannelHandlerContext) {
            phase = .waitingForHead
            timer?.cancel()
            let channel = NIOLoopBound(context.channel, eventLoop: context.eventLoop)
            let connectionGuard = connectionGuard
            let eventLoop = context.eventLoop
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                connectionGuard.timedOut(on: eventLoop)
                channel.value.close(promise: nil)
            }
        }

        func cancel() {
            timer?.cancel()
            timer = nil
        }
    }

    /// First in the pipeline: starts the deadline when the connection is
    /// accepted, and again at the first byte after an answer.
    final class Bytes: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let deadline: Deadline
        private var started = false

        init(_ deadline: Deadline) { self.deadline = deadline }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { startOnce(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            startOnce(context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if deadline.phase == .idle { deadline.start(context) }
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline.cancel()
            context.fireChannelInactive()
        }

        private func startOnce(_ context: ChannelHandlerContext) {
            guard !started else { return }
            started = true
            deadline.start(context)
        }
    }

    /// After the HTTP decoder: the head stops the deadline; the end of its
    /// answer makes the connection idle.
    final class Heads: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        private let deadline: Deadline

        init(_ deadline: Deadline) { self.deadline = deadline }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) {
                deadline.cancel()
                deadline.phase = .inRequest
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data), deadline.phase == .inRequest { deadline.phase = .idle }
            context.write(data, promise: promise)
        }
    }
}
