import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that answers a connection whose first request cannot be parsed
/// with `400 Bad Request` and closes it, around the base channel's own setup.
///
/// Hummingbird answers a malformed request with 400 once a connection's first request
/// head has been read and no upgrade asked for. Before that, with WebSocket upgrades on,
/// NIO's upgrade handler holds the connection, and the parser's error passes it by
/// unhandled: a request line or header the parser refuses (a NUL byte in a header, a
/// header line without a colon) left the connection open and unanswered until the client
/// gave up.
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

/// Sits right after the HTTP request decoder, in front of the upgrade handler, for as
/// long as that handler owns the connection: until the first request's head has passed,
/// or its end if the head asks for an upgrade. A parse error before the head is answered
/// with 400; one within an upgrade request ends the connection (the upgrade handler may
/// be answering it). Either way the upgrade handler is told the input is closed, so that
/// it gives up the upgrade, and the connection is closed.
private final class MalformedFirstRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case beforeHead
        case inUpgradeRequest
        case ended
    }

    private var state = State.beforeHead

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        context.fireChannelRead(data)
        switch (state, part) {
        case (.beforeHead, .head(let head)) where head.headers.contains(name: "upgrade"):
            state = .inUpgradeRequest
        case (.inUpgradeRequest, .body):
            break
        default:
            state = .ended
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else { return context.fireErrorCaught(error) }
        switch state {
        case .ended:
            return  // the decoder reports some errors twice
        case .inUpgradeRequest:
            state = .ended
            giveUp(context: context)
        case .beforeHead:
            state = .ended
            let head = HTTPResponseHead(version: .http1_1, status: .badRequest, headers: ["Connection": "close", "Content-Length": "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { [self] _ in giveUp(context: context) }
        }
    }

    private func giveUp(context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension MalformedFirstRequestHandler: Sendable {}
