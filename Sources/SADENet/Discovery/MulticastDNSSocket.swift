import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The multicast DNS socket (RFC 6762): UDP port 5353, group 224.0.0.251, shared with any
/// other responder on the host (Avahi, python-zeroconf: the port is bound with
/// `SO_REUSEADDR` and `SO_REUSEPORT`), looping our own packets back so that processes on
/// one host find each other. Packets that are not DNS messages we take are dropped and
/// counted; beyond ``maximumPacketsPerSecond`` the rest of the second is dropped unread.
public final class MulticastDNSSocket: Sendable {
    /// The mDNS group and port.
    public static let group = try! SocketAddress(ipAddress: "224.0.0.251", port: 5353)
    /// The most packets read in one second; a flood beyond is dropped.
    public static let maximumPacketsPerSecond = 400

    private let channel: any Channel
    private let counters = Mutex(Counters())
    /// The current second and how many packets were read in it.
    private let window = Mutex((second: 0, count: 0))

    /// What the socket saw.
    public struct Counters: Sendable, Hashable {
        /// Messages taken.
        public var received = 0
        /// Packets refused as malformed.
        public var malformed = 0
        /// Packets dropped by the rate limit.
        public var limited = 0
    }

    /// Binds the socket and joins the group; every message received goes to `receive`.
    public static func open(
        port: Int = 5353, logger: Logger = Logger(label: "sade.mdns"), receive: @escaping @Sendable (DNSMessage, SocketAddress) -> Void
    ) async throws -> MulticastDNSSocket {
        let box = Box()
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(ChannelOptions.Types.SocketOption(level: .socket, name: .init(rawValue: SO_REUSEPORT)), value: 1)
            .channelInitializer { channel in
                channel.pipeline.addHandler(Inbound(box: box))
            }
            .bind(host: "0.0.0.0", port: port).get()
        guard let multicast = channel as? any MulticastChannel else {
            try? await channel.close()
            throw DiscoveryError.socket("the UDP channel cannot join multicast groups")
        }
        try await channel.setOption(.ipOption(.ip_multicast_ttl), value: 255).get()
        try await channel.setOption(.ipOption(.ip_multicast_loop), value: 1).get()
        try await multicast.joinGroup(try SocketAddress(ipAddress: "224.0.0.251", port: 0), device: nil).get()
        let socket = MulticastDNSSocket(channel: channel)
        box.deliver.withLock {
            $0 = { [weak socket] bytes, from in socket?.take(bytes, from: from, logger: logger, receive: receive) }
        }
        return socket
    }

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// What the socket saw so far.
    public var seen: Counters { counters.withLock { $0 } }

    /// Sends `message` to the group (or to `address`, for a unicast answer).
    public func send(_ message: DNSMessage, to address: SocketAddress = MulticastDNSSocket.group) {
        let bytes = DNSCodec.encode(message)
        let envelope = AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(bytes: bytes))
        channel.writeAndFlush(envelope, promise: nil)
    }

    /// Leaves the group and closes the socket.
    public func close() async {
        try? await channel.close()
    }

    private func take(_ bytes: [UInt8], from: SocketAddress, logger: Logger, receive: (DNSMessage, SocketAddress) -> Void) {
        let second = Int(Date().timeIntervalSince1970)
        let admitted = window.withLock { window in
            if window.second != second { window = (second, 0) }
            window.count += 1
            return window.count <= Self.maximumPacketsPerSecond
        }
        guard admitted else {
            counters.withLock { $0.limited += 1 }
            return
        }
        do {
            let message = try DNSCodec.decode(bytes)
            counters.withLock { $0.received += 1 }
            receive(message, from)
        } catch {
            counters.withLock { $0.malformed += 1 }
            logger.debug("malformed mDNS packet dropped", metadata: ["from": "\(from)", "error": "\(error)"])
        }
    }

    /// Where the channel's handler hands packets, set once the socket exists.
    private final class Box: Sendable {
        let deliver = Mutex<(@Sendable ([UInt8], SocketAddress) -> Void)?>(nil)
    }

    private final class Inbound: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let box: Box

        init(box: Box) { self.box = box }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = unwrapInboundIn(data)
            guard envelope.data.readableBytes <= DNSCodec.maximumPacket else { return }
            let bytes = Array(envelope.data.readableBytesView)
            box.deliver.withLock { $0 }?(bytes, envelope.remoteAddress)
        }
    }
}

/// What went wrong starting or running discovery.
public enum DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The multicast socket could not be opened or set up.
    case socket(String)
    /// Another platform on the network already has this name.
    case nameTaken(String)

    public var description: String {
        switch self {
        case .socket(let reason): "mDNS socket: \(reason)"
        case .nameTaken(let name): "another platform on the network is already called '\(name)'"
        }
    }
}
