import NIOCore
import NIOSSL
import NIOTLS

/// The sending side's half of mutual TLS: the platform that answered at an address must
/// be the one the messages are for. Once the handshake has checked the peer's chain
/// against the authority, its certificate must name the receivers' platform; only then
/// is the connection the link's and its messages written. A trusted platform listening
/// at another's address (a moved or hijacked address) gets nothing, and the senders get
/// a failure that says which platform answered.
final class PeerPlatformCheck: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let expected: String
    private let link: OutboundLink
    /// Whether the handshake's outcome was told to the link.
    private var settled = false

    init(expecting platform: String, link: OutboundLink) {
        expected = platform
        self.link = link
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !settled, let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            settled = true
            let certificate = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
            let answered = certificate.flatMap(PlatformTLS.platformName(of:))
            if answered == expected {
                link.connected(context.channel)
            } else {
                link.connectionEnded(
                    channel: nil,
                    reason: "the platform at \(link.endpoint) is \(answered.map { "'\($0)'" } ?? "unnamed"), not '\(expected)'")
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard settled else {
            settled = true
            link.connectionEnded(channel: nil, reason: "the TLS handshake with \(link.endpoint) failed: \(error)")
            context.close(promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !settled {
            settled = true
            link.connectionEnded(channel: nil, reason: "\(link.endpoint) closed the connection during the TLS handshake")
        }
        context.fireChannelInactive()
    }
}
