import Logging
import NIOCore
import NIOSSL
import NIOPosix
import SADEACL
import SADECore
import Synchronization

/// A message on its way to another platform, already framed.
struct OutgoingMessage: Sendable {
    let frame: ByteBuffer
    let message: ACLMessage
    let receiver: AgentIdentifier
    var enqueuedAt: NIODeadline
    /// Position on the current connection, set when written.
    var sequence: UInt64 = 0
}

/// The queue and connection towards one other platform.
///
/// Messages wait in `pending` until written and in `unacknowledged` until the other
/// platform confirms it took them; a dropped connection puts the unacknowledged ones
/// back in front of the pending ones and reconnects with backoff, so delivery is
/// at least once. Both queues together are bounded by the configured capacity.
/// All socket work happens on the link's event loop; the state sits behind a mutex
/// because senders enqueue from any thread.
final class OutboundLink: Sendable {
    let endpoint: TCPEndpoint
    let eventLoop: any EventLoop
    let configuration: TCPTransport.Configuration
    /// What the connection authenticates with, under mutual TLS.
    let tls: NIOSSLContext?
    /// Under mutual TLS, the platform the peer's certificate must name: the receivers'.
    let platform: String?
    let logger: Logger
    /// Tells a message's sender that it could not be delivered.
    let reportFailure: @Sendable (OutgoingMessage, DeliveryFailure) -> Void
    let state = Mutex(State())

    enum Phase {
        case idle
        case connecting
        case connected(any Channel)
        case waitingToReconnect
    }

    struct State {
        var pending = CircularBuffer<OutgoingMessage>()
        var unacknowledged = CircularBuffer<OutgoingMessage>()
        var phase = Phase.idle
        var failedAttempts = 0
        var lastError = ""
        var writtenOnConnection: UInt64 = 0
        var isFlushScheduled = false
        var isExpiryCheckScheduled = false
        var isClosed = false
        var roomWaiters: [CheckedContinuation<Void, Never>] = []
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        /// Failed connections over the link's life, and who waits for a number of them.
        var failedConnections = 0
        var failureWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var count: Int { pending.count + unacknowledged.count }
    }

    init(
        endpoint: TCPEndpoint, eventLoop: any EventLoop, configuration: TCPTransport.Configuration, tls: NIOSSLContext?, platform: String? = nil,
        logger: Logger, reportFailure: @escaping @Sendable (OutgoingMessage, DeliveryFailure) -> Void
    ) {
        self.tls = tls
        self.platform = platform
        self.endpoint = endpoint
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.logger = logger
        self.reportFailure = reportFailure
    }

    // MARK: Sending

    /// Queues a message unless the queue is full or the link closed; returns the failure.
    func enqueue(_ outgoing: OutgoingMessage) -> DeliveryFailure? {
        let (failure, startConnecting, scheduleFlush, scheduleExpiry) = state.withLock {
            state -> (DeliveryFailure?, Bool, Bool, Bool) in
            if state.isClosed {
                return (.unreachable(outgoing.receiver, reason: "the transport is shutting down"), false, false, false)
            }
            guard state.count < configuration.queueCapacity else {
                return (.queueFull(outgoing.receiver), false, false, false)
            }
            state.pending.append(outgoing)
            var startConnecting = false, scheduleFlush = false
            switch state.phase {
            case .idle:
                state.phase = .connecting
                startConnecting = true
            case .connected where !state.isFlushScheduled:
                state.isFlushScheduled = true
                scheduleFlush = true
            default: break
            }
            let scheduleExpiry = !state.isExpiryCheckScheduled
            state.isExpiryCheckScheduled = true
            return (nil, startConnecting, scheduleFlush, scheduleExpiry)
        }
        if startConnecting { eventLoop.execute { self.connect() } }
        if scheduleFlush { eventLoop.execute { self.flush() } }
        if scheduleExpiry { scheduleExpiryCheck(at: outgoing.enqueuedAt + TimeAmount(configuration.deliveryTimeout)) }
        return failure
    }

    /// Queues a message, waiting while the queue is full.
    func enqueueWhenReady(_ outgoing: OutgoingMessage) async -> DeliveryFailure? {
        var outgoing = outgoing
        while true {
            // The delivery timeout counts from when the message enters the queue.
            outgoing.enqueuedAt = .now()
            let failure = enqueue(outgoing)
            guard case .queueFull = failure else { return failure }
            await withCheckedContinuation { continuation in
                let mustResume = state.withLock { state in
                    guard state.count >= configuration.queueCapacity, !state.isClosed else { return true }
                    state.roomWaiters.append(continuation)
                    return false
                }
                if mustResume { continuation.resume() }
            }
        }
    }

    /// Messages queued or unacknowledged.
    var queuedCount: Int { state.withLock { $0.count } }

    // MARK: Connection (on the event loop)

    private func connect() {
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { [configuration, tls] channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: nil))
                        // The connection is the link's once the peer proved to be the receivers' platform.
                        try channel.pipeline.syncOperations.addHandler(
                            PeerPlatformCheck(expecting: self.platform ?? "", link: self, within: TimeAmount(configuration.connectTimeout)))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(FrameDecoder(maxFrameBytes: configuration.maxFrameBytes)))
                    try channel.pipeline.syncOperations.addHandler(AcknowledgementHandler(link: self))
                }
            }
        bootstrap.connect(host: endpoint.host, port: endpoint.port).whenComplete { result in
            switch result {
            case .success(let channel): if self.tls == nil { self.connected(channel) }  // else once its peer is checked
            case .failure(let error): self.connectionEnded(channel: nil, reason: "\(error)")
            }
        }
    }

    /// The connection is up (and, under TLS, its peer checked): the messages go.
    func connected(_ channel: any Channel) {
        let isClosed = state.withLock { state in
            guard !state.isClosed else { return true }
            if case .connected = state.phase { return true }  // one connection at a time: this one is surplus
            state.phase = .connected(channel)
            state.writtenOnConnection = 0
            state.isFlushScheduled = true
            return false
        }
        if isClosed { channel.close(promise: nil) } else { flush() }
    }

    /// Writes every pending message on the connection.
    private func flush() {
        let (channel, batch): ((any Channel)?, [OutgoingMessage]) = state.withLock { state in
            state.isFlushScheduled = false
            guard case .connected(let channel) = state.phase else { return (nil, []) }
            var batch: [OutgoingMessage] = []
            batch.reserveCapacity(state.pending.count)
            while var outgoing = state.pending.popFirst() {
                state.writtenOnConnection += 1
                outgoing.sequence = state.writtenOnConnection
                state.unacknowledged.append(outgoing)
                batch.append(outgoing)
            }
            return (channel, batch)
        }
        guard let channel, !batch.isEmpty else { return }
        for outgoing in batch { channel.write(outgoing.frame, promise: nil) }
        channel.flush()
    }

    /// The other platform took the first `count` messages written on `channel`.
    func acknowledged(count: UInt64, on channel: any Channel) {
        let (rooms, drains) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>]) in
            guard case .connected(let current) = state.phase, current === channel else { return ([], []) }
            while let first = state.unacknowledged.first, first.sequence <= count { state.unacknowledged.removeFirst() }
            state.failedAttempts = 0
            return Self.takeWaiters(&state, capacity: configuration.queueCapacity)
        }
        for waiter in rooms { waiter.resume() }
        for waiter in drains { waiter.resume() }
    }

    /// The other platform refused the message at `position` on `channel`: it leaves
    /// the queue and its sender is told why.
    func rejected(position: UInt64, reason: String, on channel: any Channel) {
        let refused: OutgoingMessage? = state.withLock { state in
            guard case .connected(let current) = state.phase, current === channel,
                let index = state.unacknowledged.firstIndex(where: { $0.sequence == position })
            else { return nil }
            return state.unacknowledged.remove(at: index)
        }
        guard let refused else { return }
        logger.warning("message refused by the other platform", metadata: ["to": "\(endpoint)", "reason": "\(reason)"])
        reportFailure(refused, .rejected(refused.receiver, reason: reason))
    }

    /// A connection closed or could not be made: unacknowledged messages go back in
    /// front of the pending ones; reconnect after a backoff, or give up and return
    /// every queued message to its sender after too many failed attempts.
    func connectionEnded(channel: (any Channel)?, reason: String) {
        let (retryAfter, givenUp, rooms, drains) = state.withLock {
            state -> (Duration?, [OutgoingMessage], [CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>]) in
            if let channel {
                guard case .connected(let current) = state.phase, current === channel else { return (nil, [], [], []) }
            } else if case .connected = state.phase {
                return (nil, [], [], [])  // an attempt's end (its handshake) once another connection is up: nothing to redo
            }
            state.failedConnections += 1
            let total = state.failedConnections
            let counted = state.failureWaiters.filter { $0.count <= total }.map(\.continuation)
            state.failureWaiters.removeAll { $0.count <= total }
            defer { for waiter in counted { waiter.resume() } }
            while let last = state.unacknowledged.popLast() { state.pending.prepend(last) }
            state.lastError = reason
            guard !state.pending.isEmpty else {
                state.phase = .idle
                let (rooms, drains) = Self.takeWaiters(&state, capacity: configuration.queueCapacity)
                return (nil, [], rooms, drains)
            }
            state.failedAttempts += 1
            guard state.failedAttempts < configuration.connectAttempts, !state.isClosed else {
                state.phase = .idle
                state.failedAttempts = 0
                let givenUp = Array(state.pending)
                state.pending.removeAll()
                let (rooms, drains) = Self.takeWaiters(&state, capacity: configuration.queueCapacity)
                return (nil, givenUp, rooms, drains)
            }
            state.phase = .waitingToReconnect
            return (configuration.backoff(beforeAttempt: state.failedAttempts), [], [], [])
        }
        if let retryAfter {
            logger.debug("reconnecting", metadata: ["to": "\(endpoint)", "after": "\(retryAfter)", "reason": "\(reason)"])
            eventLoop.scheduleTask(in: TimeAmount(retryAfter)) { self.connect() }
        }
        if !givenUp.isEmpty {
            logger.warning("platform unreachable", metadata: ["to": "\(endpoint)", "messages": "\(givenUp.count)", "reason": "\(reason)"])
        }
        for outgoing in givenUp {
            reportFailure(outgoing, .unreachable(outgoing.receiver, reason: "\(endpoint): \(reason)"))
        }
        for waiter in rooms { waiter.resume() }
        for waiter in drains { waiter.resume() }
    }

    /// Waits until connections have failed or dropped at least `count` times.
    func waitForFailedConnections(atLeast count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.failedConnections < count else { return true }
                state.failureWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    static func takeWaiters(
        _ state: inout State, capacity: Int
    ) -> ([CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>]) {
        var rooms: [CheckedContinuation<Void, Never>] = []
        if state.isClosed {
            swap(&rooms, &state.roomWaiters)
        } else {
            let room = capacity - state.count
            if room > 0, !state.roomWaiters.isEmpty {
                let taken = min(room, state.roomWaiters.count)
                rooms = Array(state.roomWaiters.prefix(taken))
                state.roomWaiters.removeFirst(taken)
            }
        }
        var drains: [CheckedContinuation<Void, Never>] = []
        if state.count == 0 { swap(&drains, &state.drainWaiters) }
        return (rooms, drains)
    }
}

extension TimeAmount {
    /// The same span as a Swift `Duration`, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
