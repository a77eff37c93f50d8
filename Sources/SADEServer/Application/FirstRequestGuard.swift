import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A server child channel that looks after a connection until its first request head has
/// come, around the base channel's own setup: it answers a first request the parser
/// refuses with `400 Bad Request`, and it closes a connection that has sent no request
/// when the server shuts down or within `timeout`.
///
/// With WebSocket upgrades on, NIO's upgrade handler holds a connection until its first
/// request head; Hummingbird's handlers (which answer malformed requests, close idle
/// connections and close them at shutdown) join the pipeline only then. Before, a request
/// line or header the parser refuses (a NUL byte in a header, a header line without a
/// colon) left the connection open and unanswered until the client gave up, and a
/// connection that never sent a request (a client's spare connection in its pool, a
/// browser's preconnect) was never closed: a graceful shutdown waited for it, as long as
/// the client kept it (ten minutes for AsyncHTTPClient's shared pool).
struct FirstRequestGuard<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    /// How long a new connection may take to send its first request head.
    let timeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(FirstRequestHandler(timeout: .init(timeout)), position: .after(decoder.handler))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Sits right after the HTTP request decoder, in front of the upgrade handler, for as
/// long as that handler owns the connection: until the first request's head has passed,
/// or its end if the head asks for an upgrade.
///
/// Before the head, a parse error is answered with 400, and a shutdown (NIO's quiesce
/// event) or the time limit closes the connection: no request is under way. Within an
/// upgrade request, a parse error ends the connection (the upgrade handler may be
/// answering it). Whenever it gives up, the upgrade handler is told the input is closed,
/// so that it gives up the upgrade, and the connection is closed.
private final class FirstRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case beforeHead
        case inUpgradeRequest
        case ended
    }

    private var state = State.beforeHead
    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            guard case .beforeHead = state else { return }
            state = .ended
            giveUp(context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

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

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, case .beforeHead = state else {
            return context.fireUserInboundEventTriggered(event)
        }
        state = .ended
        giveUp(context: context)
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
        deadline?.cancel()
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension FirstRequestHandler: Sendable {}
