import Logging
import NIOCore
import NIOSSL
import SADEACL
import SADECore

/// The server side of a connection from another platform: decodes each message
/// frame, hands it to the receiver on this platform, and acknowledges what it took
/// once per read batch.
///
/// A frame whose message cannot be decoded is rejected (the other platform then
/// tells the message's sender) and counted as taken; a frame that breaks the framing
/// (too large, unknown kind) is rejected too, what was taken before it acknowledged,
/// and the connection closed, since the stream cannot be trusted after it.
final class InboundHandler: ChannelInboundHandler {
    typealias InboundIn = Frame
    typealias OutboundOut = ByteBuffer

    private let environment: Environment
    private let codec: any ACLCodec
    private let logger: Logger
    private var taken: UInt64 = 0
    private var acknowledged: UInt64 = 0
    /// Under mutual TLS: each message's sender must be of the platform the peer's
    /// certificate names.
    private let authenticatesSenders: Bool
    /// That platform, read from the certificate at the first message.
    private var peerPlatform: String?

    init(environment: Environment, codec: any ACLCodec, authenticatesSenders: Bool = false, logger: Logger) {
        self.environment = environment
        self.codec = codec
        self.authenticatesSenders = authenticatesSenders
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .message(let receiver, var payload):
            taken += 1
            let bytes = payload.readBytes(length: payload.readableBytes) ?? []
            do {
                let message = try codec.decode(bytes)
                if authenticatesSenders, let refusal = refusal(of: message, context: context) {
                    logger.warning("a message whose sender is not of the authenticated platform rejected", metadata: ["reason": "\(refusal)"])
                    reject(position: taken, reason: refusal, context: context)
                    return
                }
                environment.deliverArrived(message, to: AgentIdentifier(name: receiver))
            } catch {
                logger.warning(
                    "undecodable message from another platform rejected",
                    metadata: ["from": "\(context.remoteAddress?.description ?? "?")", "error": "\(error)"])
                reject(position: taken, reason: "the message could not be decoded: \(error)", context: context)
            }
        case .acknowledgement, .rejection:
            logger.warning("acknowledgement on an incoming connection; closing it")
            context.close(promise: nil)
        }
    }

    /// Why `message` may not come over this connection, if it may not: its sender names
    /// no platform, or another than the peer's certificate.
    private func refusal(of message: ACLMessage, context: ChannelHandlerContext) -> String? {
        if peerPlatform == nil,
            let certificate = try? context.channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self).peerCertificate
        {
            peerPlatform = PlatformTLS.platformName(of: certificate)
        }
        guard let peerPlatform else { return "the peer's certificate names no platform" }
        guard let sender = message.sender, let platform = sender.platform else {
            return "the sender must name its platform (agent@\(peerPlatform)) over an authenticated connection"
        }
        guard platform == peerPlatform else {
            return "the sender \(sender.name) is not of the authenticated platform \(peerPlatform)"
        }
        return nil
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        acknowledge(context: context)
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.warning(
            "connection from another platform closed",
            metadata: ["from": "\(context.remoteAddress?.description ?? "?")", "error": "\(error)"])
        if error is FrameError {
            // The broken frame is the next one: tell the sender which, and confirm
            // everything before it, so nothing is sent twice or reported lost.
            reject(position: taken + 1, reason: "\(error)", context: context)
            taken += 1
        }
        acknowledge(context: context)
        context.close(promise: nil)
    }

    private func acknowledge(context: ChannelHandlerContext) {
        guard taken > acknowledged else { return }
        acknowledged = taken
        var buffer = context.channel.allocator.buffer(capacity: Frame.headerBytes + 8)
        Frame.acknowledgement(count: taken).write(into: &buffer)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    private func reject(position: UInt64, reason: String, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: Frame.headerBytes + 8 + reason.utf8.count)
        Frame.rejection(position: position, reason: reason).write(into: &buffer)
        context.write(wrapOutboundOut(buffer), promise: nil)
    }
}
