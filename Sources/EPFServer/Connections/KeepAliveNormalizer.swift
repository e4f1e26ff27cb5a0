import NIOCore
import NIOHTTP1

/// Spells out, as `Connection: close`, that a request ends its connection,
/// before the request becomes an `HTTPRequest` (which keeps no version):
/// an HTTP/1.0 request without `keep-alive`, and a `close` token in any
/// case or list (`Connection: Close`, `keep-alive, close`), as NIO's
/// `isKeepAlive` reads them. Hummingbird's connection handling and
/// `EventLoopReadHandler` then close the connection after the answer;
/// without this, both kept it open for such requests.
final class KeepAliveNormalizer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive, head.headers["connection"] != ["close"] else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
