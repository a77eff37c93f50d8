import NIOCore
import NIOPosix
import Synchronization

/// A bare TCP listener speaking SADE's frame format by hand, standing in for a
/// misbehaving platform: it records the message frames it receives and acknowledges
/// them only while `acknowledging` is on.
final class RawPeer: Sendable {
    private let channel: any Channel
    private let shared = SharedState()
    let port: Int

    /// The peer's state, shared with its connection handlers.
    fileprivate final class SharedState: Sendable {
        let mutex = Mutex(State())
    }

    fileprivate struct State {
        var acknowledging = false
        var received: [String] = []
        var connections: [any Channel] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Starts listening on a free loopback port.
    init(acknowledging: Bool) async throws {
        shared.mutex.withLock { $0.acknowledging = acknowledging }
        let handlerState = shared
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                handlerState.mutex.withLock { $0.connections.append(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RawPeerHandler(state: handlerState))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// The peer's address.
    var address: String { "tcp://127.0.0.1:\(port)" }

    /// How many connections the peer has accepted.
    var connectionCount: Int { shared.mutex.withLock { $0.connections.count } }

    /// The payloads (ACL text) of the message frames received so far.
    var received: [String] { shared.mutex.withLock { $0.received } }

    /// Waits until at least `count` message frames have arrived.
    func waitForMessages(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = shared.mutex.withLock { state in
                guard state.received.count < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Starts acknowledging, including everything received so far (the count is
    /// the peer's total, so use one connection at a time).
    func startAcknowledging() {
        let (connections, count) = shared.mutex.withLock { state in
            state.acknowledging = true
            return (state.connections, state.received.count)
        }
        for connection in connections { RawPeerHandler.acknowledge(UInt64(count), on: connection) }
    }

    /// A message frame by hand: kind 1, the receiver's name, the payload.
    static func messageFrame(to receiver: String, payload: String) -> [UInt8] {
        let name = Array(receiver.utf8), body = Array(payload.utf8)
        let length = UInt32(1 + 2 + name.count + body.count)
        return withUnsafeBytes(of: length.bigEndian, Array.init) + [1] + withUnsafeBytes(of: UInt16(name.count).bigEndian, Array.init)
            + name + body
    }

    /// Sends raw bytes to the platform on a new connection to `port` (hostile input).
    static func sendBytes(_ bytes: [UInt8], toPort port: Int) async throws -> any Channel {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        return channel
    }

    func close() async {
        try? await channel.close()
        for connection in shared.mutex.withLock({ $0.connections }) { try? await connection.close() }
    }
}

/// Parses frames by hand (independently of the production decoder).
private final class RawPeerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let state: RawPeer.SharedState
    private var buffer = ByteBuffer()
    private var count: UInt64 = 0

    init(state: RawPeer.SharedState) { self.state = state }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        var texts: [String] = []
        while let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
            buffer.readableBytes >= 4 + Int(length) {
            buffer.moveReaderIndex(forwardBy: 4)
            var body = buffer.readSlice(length: Int(length))!
            guard body.readInteger(as: UInt8.self) == 1, let nameLength = body.readInteger(as: UInt16.self) else { continue }
            body.moveReaderIndex(forwardBy: Int(nameLength))
            texts.append(body.readString(length: body.readableBytes) ?? "")
        }
        count += UInt64(texts.count)
        let (acknowledging, ready) = state.mutex.withLock { state in
            state.received.append(contentsOf: texts)
            let total = state.received.count
            let ready = state.waiters.filter { $0.count <= total }.map(\.continuation)
            state.waiters.removeAll { $0.count <= total }
            return (state.acknowledging, ready)
        }
        if acknowledging { Self.acknowledge(count, on: context.channel) }
        for waiter in ready { waiter.resume() }
    }

    static func acknowledge(_ count: UInt64, on channel: any Channel) {
        var frame = ByteBuffer()
        frame.writeInteger(UInt32(9))
        frame.writeInteger(UInt8(2))
        frame.writeInteger(count)
        channel.writeAndFlush(frame, promise: nil)
    }
}
