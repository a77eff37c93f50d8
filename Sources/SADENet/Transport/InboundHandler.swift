import Logging
import NIOCore
import SADEACL
import SADECore

/// The server side of a connection from another platform: decodes each message
/// frame, hands it to the receiver on this platform, and acknowledges what it took
/// once per read batch.
///
/// A frame whose message cannot be decoded is logged and acknowledged (resending it
/// would not help); a frame that breaks the framing closes the connection.
final class InboundHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private let environment: Environment
    private let codec: any ACLCodec
    private let logger: Logger
    private var taken: UInt64 = 0
    private var acknowledged: UInt64 = 0

    init(environment: Environment, codec: any ACLCodec, logger: Logger) {
        self.environment = environment
        self.codec = codec
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .message(let receiver, var payload):
            taken += 1
            let bytes = payload.readBytes(length: payload.readableBytes) ?? []
            do {
                let message = try codec.decode(bytes)
                environment.deliverArrived(message, to: AgentIdentifier(name: receiver))
            } catch {
                logger.warning(
                    "undecodable message from another platform dropped",
                    metadata: ["from": "\(context.remoteAddress?.description ?? "?")", "error": "\(error)"])
            }
        case .acknowledgement:
            logger.warning("acknowledgement on an incoming connection; closing it")
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if taken > acknowledged {
            acknowledged = taken
            var buffer = context.channel.allocator.buffer(capacity: Frame.headerBytes + 8)
            Frame.acknowledgement(count: taken).write(into: &buffer)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.warning(
            "connection from another platform closed",
            metadata: ["from": "\(context.remoteAddress?.description ?? "?")", "error": "\(error)"])
        context.close(promise: nil)
    }
}
