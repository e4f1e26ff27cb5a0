import HTTPTypes
import NIOCore
import NIOHTTP1

/// Answers a request NIO's HTTP/1.1 decoder could not read, in the API's
/// shape, then closes the connection.
///
/// Without it, Hummingbird answers such a request with a bare 400: no
/// content type, no body, which no API client (nor docs/openapi.yaml)
/// expects. The commonest case is a request line longer than the decoder
/// takes (`RequestLimits.maxHeaderBytes`), a long `id=` list pasted into a
/// URL: that gets the 414 the router gives a target over
/// `RequestLimits.maxTargetBytes`, with its reason. Any other decoding
/// error gets a 400 with an `errorMessage`.
///
/// Sits right after NIO's HTTP/1.1 server handlers (the pipelining handler
/// lets an answer through for a request that never came whole), before
/// anything that converts the parts. It swallows the decoder's error: the
/// connection's output is closed after the answer, so the rest of the
/// pipeline sees the input end, not the error.
final class ParserErrorAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A response was begun and not ended: a second one cannot be written.
    private var responseUnderWay = false
    /// A decoding error was answered (or the connection closed for it).
    private var answered = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responseUnderWay = true
        case .end: responseUnderWay = false
        default: break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder reports every later byte too: one answer is enough.
        guard !answered else { return }
        answered = true
        guard !responseUnderWay else {
            context.close(promise: nil)
            return
        }
        let answer = Self.answer(for: parserError)
        var headers = HTTPHeaders()
        for field in answer.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        // Only the output is closed: a client still sending its long
        // request would otherwise get a reset, and lose the answer, instead
        // of reading it; the input ends when the client closes (or at the
        // idle timeout).
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            bound.value.close(mode: .output).whenFailure { _ in bound.value.close(promise: nil) }
        }
    }

    /// 414 for a request head over the decoder's limit, 400 otherwise.
    static func answer(for error: HTTPParserError) -> APIAnswer {
        if error == .headerOverflow {
            return APIResponse.object(
                ["errorMessage": "The request line and header fields are longer than \(RequestLimits.maxHeaderBytes) bytes"],
                status: .uriTooLong)
        }
        return APIResponse.object(["errorMessage": "The request is not HTTP/1.1 that can be read (\(error))"], status: .badRequest)
    }
}
