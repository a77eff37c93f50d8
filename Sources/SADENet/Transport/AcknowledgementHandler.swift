import NIOCore

/// The client side of a connection to another platform: reads its acknowledgements
/// and tells the link when the connection ends.
final class AcknowledgementHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let link: OutboundLink
    private var closeReason = "connection closed by the other platform"

    init(link: OutboundLink) {
        self.link = link
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .acknowledgement(let count): link.acknowledged(count: count, on: context.channel)
        case .rejection(let position, let reason): link.rejected(position: position, reason: reason, on: context.channel)
        case .message:
            closeReason = "the other platform sent a message on an outgoing connection"
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        link.connectionEnded(channel: context.channel, reason: closeReason)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        closeReason = "\(error)"
        context.close(promise: nil)
    }
}
