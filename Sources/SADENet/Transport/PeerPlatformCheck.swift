import NIOCore
import NIOSSL
import NIOTLS

/// The sending side's half of mutual TLS: the platform that answered at an address must
/// be the one the messages are for. Once the handshake has checked the peer's chain
/// against the authority, its certificate must name the receivers' platform; only then
/// is the connection the link's and its messages written. A trusted platform listening
/// at another's address (a moved or hijacked address) gets nothing, and the senders get
/// a failure that says which platform answered. A handshake that does not end within
/// the connect timeout ends the attempt (a peer that takes the connection and stalls).
final class PeerPlatformCheck: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let expected: String
    private let link: OutboundLink
    private let timeout: TimeAmount
    /// Whether the handshake's outcome was told to the link.
    private var settled = false
    private var deadline: Scheduled<Void>?

    init(expecting platform: String, link: OutboundLink, within timeout: TimeAmount) {
        expected = platform
        self.link = link
        self.timeout = timeout
    }

    func channelActive(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (check, context) = loopBound.value
            check.settle(context, failing: "the TLS handshake with \(check.link.endpoint) did not end within \(check.timeout)")
        }
        context.fireChannelActive()
    }

    /// Tells the link the attempt failed, once, and closes the connection.
    private func settle(_ context: ChannelHandlerContext, failing reason: String) {
        guard !settled else { return }
        settled = true
        deadline?.cancel()
        link.connectionEnded(channel: nil, reason: reason)
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !settled, let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            let certificate = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self).peerCertificate
            let answered = certificate.flatMap(PlatformTLS.platformName(of:))
            if answered == expected {
                settled = true
                deadline?.cancel()
                link.connected(context.channel)
            } else {
                settle(context, failing: "the platform at \(link.endpoint) is \(answered.map { "'\($0)'" } ?? "unnamed"), not '\(expected)'")
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard settled else { return settle(context, failing: "the TLS handshake with \(link.endpoint) failed: \(error)") }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        settle(context, failing: "\(link.endpoint) closed the connection during the TLS handshake")
        context.fireChannelInactive()
    }
}
