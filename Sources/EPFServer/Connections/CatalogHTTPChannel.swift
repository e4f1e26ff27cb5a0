import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1.1 channel (`HTTP1Channel`), set up the same way,
/// with `KeepAliveNormalizer` before the request becomes an `HTTPRequest`,
/// and one handler more: `EventLoopReadHandler`, after the connection
/// state handler, where `HTTP1Channel`'s own extra handlers cannot go
/// (they come before it, and the state handler would then not see the
/// requests they answer: its idle timeout would close busy connections).
struct CatalogHTTPChannel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: Responder
    /// Timeouts and decoder limits, as for `HTTP1Channel`.
    let configuration: HTTP1Channel.Configuration
    /// The handler answering on the event loop, one per connection; nil
    /// when every request goes through the router
    /// (`ServerSettings.readsOnEventLoops` false).
    let eventLoopReads: (@Sendable () -> EventLoopReadHandler)?
    /// The per-client limit and the header timeout (`ConnectionGuard`).
    let connectionGuard: ConnectionGuard

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Over its client's limit: closed before anything is read. The
            // wrapper still goes on, empty, as the server expects one.
            guard connectionGuard.admit(channel) else {
                channel.close(promise: nil)
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            }
            // Admitted: counted until it closes, so a setup that fails
            // closes it (NIO would drop it open).
            do {
                let headerTimeout = HeaderTimeout.handlers(guard: connectionGuard)
                var limits = NIOHTTPDecoderLimitConfiguration()
                limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
                limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
                limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
                let pipeline = channel.pipeline.syncOperations
                // Unlike HTTP1Channel (whose default is off), pipelining
                // assistance on: NIO's HTTPServerPipelineHandler hands on one
                // request at a time and reads no more until its answer is
                // written, which keeps answers in order whichever path writes
                // them, and waits on a graceful stop for the request under way
                // (it takes the quiesce event; the state handler never sees
                // it). A request the decoder cannot read is answered in the
                // API's shape (`ParserErrorAnswer`), where HTTP1Channel leaves
                // Hummingbird to send a bare 400.
                try pipeline.configureHTTPServerPipeline(
                    withPipeliningAssistance: true, withErrorHandling: false, withOutboundHeaderValidation: false,
                    withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
                try pipeline.addHandler(headerTimeout.bytes, position: .first)
                try pipeline.addHandler(headerTimeout.heads)
                try pipeline.addHandler(ParserErrorAnswer())
                try pipeline.addHandler(KeepAliveNormalizer())
                try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                try pipeline.addHandler(
                    HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout.map { .nanoseconds($0.nanoseconds) }, logger: logger))
                if let eventLoopReads { try pipeline.addHandler(eventLoopReads()) }
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            } catch {
                channel.close(promise: nil)
                throw error
            }
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
