import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that answers a connection whose first request cannot be parsed
/// with `400 Bad Request` and closes it, around the base channel's own setup.
///
/// Hummingbird answers a malformed request with 400 once a connection's first request
/// head has been read. Before that, with WebSocket upgrades on, NIO's upgrade handler holds
/// the connection, and the parser's error passes it by unhandled: a request line or header
/// the parser refuses (a NUL byte in a header, a header line without a colon) left the
/// connection open and unanswered until the client gave up.
struct MalformedRequestAnswer<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(MalformedFirstRequestHandler(), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Sits right after the HTTP request decoder until the first request part passes it:
/// a parse error before then is answered with 400, and the upgrade handler behind it is
/// told the input is closed, so that it closes the connection and gives up on the upgrade.
private final class MalformedFirstRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        answered = true
        let head = HTTPResponseHead(version: .http1_1, status: .badRequest, headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }
}
