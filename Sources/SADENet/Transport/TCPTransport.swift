import Logging
import NIOCore
import NIOSSL
import NIOPosix
import SADEACL
import SADECore
import Synchronization

/// Carries ACL messages between platforms over TCP (the seed's per-agent Server and
/// Client, one listener per platform).
///
/// A platform listens on host:port; agents elsewhere are addressed by an
/// ``SADEACL/AgentIdentifier`` with a `tcp://host:port` address. Each message travels
/// as a length-prefixed frame holding its FIPA string form; one connection per
/// destination platform is reused, re-established with backoff when it drops, and
/// fed from a bounded queue. Every message that cannot be delivered comes back to its
/// sender as a FIPA `failure` saying why (`unreachable`, `timeout`, `unknown-agent`,
/// `queue-full`).
///
/// ```swift
/// let platform = Environment(name: "north")
/// let transport = try await TCPTransport.start(for: platform, configuration: .init(port: 7000))
/// // agents on `platform` now reach "echo" on another machine with
/// // AgentIdentifier(name: "echo", addresses: ["tcp://10.0.0.7:7000"])
/// await transport.shutdown()
/// ```
public final class TCPTransport: MessageTransport {
    /// The platform whose agents this transport serves.
    public let environment: Environment
    /// How the transport listens, connects and queues.
    public let configuration: Configuration
    /// Where this platform can be reached, e.g. `["tcp://127.0.0.1:7000"]`.
    public let addresses: [String]
    /// The port the transport listens on (the one picked when configured with 0).
    public let port: Int

    private let group: any EventLoopGroup
    private let serverChannel: any Channel
    private let inbound: InboundConnections
    private let logger: Logger
    /// What outgoing connections authenticate with, under mutual TLS.
    private let clientTLS: NIOSSLContext?
    /// Links by destination; `nil` once shut down, so no link outlives the transport.
    /// One link per address — per address and platform under mutual TLS, where the
    /// platform that answers must be the receivers'.
    private let links = Mutex<[LinkKey: OutboundLink]?>([:])

    struct LinkKey: Hashable {
        let endpoint: TCPEndpoint
        let platform: String?
    }

    private init(
        environment: Environment, configuration: Configuration, group: any EventLoopGroup, serverChannel: any Channel,
        inbound: InboundConnections, port: Int, clientTLS: NIOSSLContext?
    ) {
        self.clientTLS = clientTLS
        self.environment = environment
        self.inbound = inbound
        self.configuration = configuration
        self.group = group
        self.serverChannel = serverChannel
        self.port = port
        self.addresses = [TCPEndpoint(host: configuration.hostToAdvertise, port: port).address]
        var logger = environment.logger
        logger[metadataKey: "transport"] = "tcp"
        self.logger = logger
    }

    /// Starts listening and attaches the transport to `environment`.
    ///
    /// - Throws: the socket error if the address cannot be bound (e.g. port in use).
    public static func start(
        for environment: Environment, configuration: Configuration = Configuration(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> TCPTransport {
        let logger = environment.logger
        let inbound = InboundConnections()
        let contexts = try configuration.tls?.contexts()
        let serverChannel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                inbound.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    if let server = contexts?.server { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: server)) }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(FrameDecoder(maxFrameBytes: configuration.maxFrameBytes)))
                    try channel.pipeline.syncOperations.addHandler(
                        InboundHandler(environment: environment, codec: configuration.codec, authenticatesSenders: contexts != nil, logger: logger))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
        let port = serverChannel.localAddress?.port ?? configuration.port
        let transport = TCPTransport(
            environment: environment, configuration: configuration, group: group, serverChannel: serverChannel, inbound: inbound, port: port,
            clientTLS: contexts?.client)
        environment.attach(transport)
        logger.info("listening", metadata: ["address": "\(transport.addresses.joined(separator: " "))"])
        return transport
    }

    /// Whether `address` is a `tcp://host:port` address.
    public func canReach(_ address: String) -> Bool {
        TCPEndpoint(address: address) != nil
    }

    /// Queues the message for the platform at `address`; `queue-full` when its queue
    /// is at capacity.
    public func send(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) -> DeliveryFailure? {
        switch prepare(message, to: receiver, at: address) {
        case .success(let (link, outgoing)): link.enqueue(outgoing)
        case .failure(let failure): failure
        }
    }

    /// Queues the message for the platform at `address`, waiting while its queue is full.
    public func sendWhenReady(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) async -> DeliveryFailure? {
        switch prepare(message, to: receiver, at: address) {
        case .success(let (link, outgoing)): await link.enqueueWhenReady(outgoing)
        case .failure(let failure): failure
        }
    }

    /// Messages queued or unacknowledged towards the platform at `address`.
    public func queuedCount(towards address: String) -> Int {
        guard let endpoint = TCPEndpoint(address: address) else { return 0 }
        return links.withLock { $0?.filter { $0.key.endpoint == endpoint }.values.map(\.queuedCount).reduce(0, +) } ?? 0
    }

    /// Stops accepting connections, detaches from the platform, waits up to the drain
    /// timeout for queued messages to be taken by their platforms (returning the rest
    /// to their senders), and closes every connection. Messages other platforms were
    /// still sending and this one had not acknowledged stay queued on their side.
    public func shutdown() async {
        environment.detachTransport(withAddresses: addresses)
        try? await serverChannel.close()
        let links = links.withLock { links in
            defer { links = nil }
            return links.map { Array($0.values) } ?? []
        }
        await withTaskGroup(of: Void.self) { group in
            for link in links {
                group.addTask { await link.drainAndClose(timeout: self.configuration.drainTimeout) }
            }
        }
        await inbound.closeAll()
        logger.info("transport shut down", metadata: ["address": "\(addresses.joined(separator: " "))"])
    }

    /// Waits until connecting to `address` has failed at least `count` times in all
    /// (for tests of reconnection).
    func waitForFailedConnections(towards address: String, atLeast count: Int) async {
        guard let endpoint = TCPEndpoint(address: address) else { return }
        let existing = links.withLock { $0?.first { $0.key.endpoint == endpoint }?.value }
        await (existing ?? link(to: endpoint, platform: nil))?.waitForFailedConnections(atLeast: count)
    }

    private func prepare(
        _ message: ACLMessage, to receiver: AgentIdentifier, at address: String
    ) -> Result<(OutboundLink, OutgoingMessage), DeliveryFailure> {
        guard let endpoint = TCPEndpoint(address: address) else {
            return .failure(.unreachable(receiver, reason: "'\(address)' is not a tcp://host:port address"))
        }
        let payload: [UInt8]
        do {
            payload = try configuration.codec.encode(message)
        } catch {
            return .failure(.unreachable(receiver, reason: "the message cannot be encoded: \(error)"))
        }
        let name = receiver.name.utf8
        guard payload.count <= configuration.maxMessageBytes, payload.count + name.count + 3 <= configuration.maxFrameBytes,
            name.count <= Int(UInt16.max)
        else {
            return .failure(.rejected(receiver, reason: "the message is \(payload.count) bytes, above the limit of \(configuration.maxMessageBytes)"))
        }
        if clientTLS != nil, receiver.platform == nil {
            // The platform that answers is checked against the receiver's: it must name one.
            return .failure(.unreachable(receiver, reason: "over mutual TLS a receiver must name its platform (agent@platform)"))
        }
        guard let link = link(to: endpoint, platform: receiver.platform.map(String.init)) else {
            return .failure(.unreachable(receiver, reason: "the transport is shutting down"))
        }
        var frame = ByteBufferAllocator().buffer(capacity: Frame.headerBytes + 2 + name.count + payload.count)
        Frame.message(receiver: receiver.name, payload: ByteBuffer(bytes: payload)).write(into: &frame)
        return .success((link, OutgoingMessage(frame: frame, message: message, receiver: receiver, enqueuedAt: .now())))
    }

    private func link(to endpoint: TCPEndpoint, platform: String?) -> OutboundLink? {
        let key = LinkKey(endpoint: endpoint, platform: clientTLS == nil ? nil : platform)
        return links.withLock { links in
            guard links != nil else { return nil }
            if let link = links?[key] { return link }
            let link = OutboundLink(
                endpoint: endpoint, eventLoop: group.next(), configuration: configuration, tls: clientTLS, platform: key.platform, logger: logger,
                reportFailure: { [environment] outgoing, failure in environment.returnToSender(outgoing.message, failure: failure) })
            links?[key] = link
            return link
        }
    }
}
