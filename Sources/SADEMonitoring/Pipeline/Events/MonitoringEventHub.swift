import SADECore
import Synchronization

/// Fans ``MonitoringEvent``s out to live subscribers (the server's event streams,
/// tests). Each subscriber has its own bounded buffer: one that does not keep up
/// loses its oldest unread events, and never slows the pipeline or the others.
public final class MonitoringEventHub: Sendable {
    /// The buffer of a subscriber that names none.
    public let defaultBuffer: Int
    private struct Subscriber {
        let continuation: AsyncStream<MonitoringEvent>.Continuation
        /// The kinds it asked for; `nil`: every kind.
        let kinds: Set<MonitoringEvent.Kind>?
    }

    private let subscribers = Mutex<(byID: [Int: Subscriber], nextID: Int)>(([:], 0))
    /// Told whenever a subscriber comes or goes (the kinds wanted may have changed).
    private let interestChanged = Mutex<Callback<Void>?>(nil)

    /// Creates a hub.
    public init(defaultBuffer: Int = 256) {
        self.defaultBuffer = max(1, defaultBuffer)
    }

    /// Told of every event published here (not of those relayed from other nodes).
    private let relay = Mutex<Callback<MonitoringEvent>?>(nil)

    /// Hands `event` to every subscriber without waiting (and to the relay to other
    /// nodes, if there is one).
    public func publish(_ event: MonitoringEvent) {
        relay.withLock { $0 }?(event)
        deliver(event)
    }

    /// Hands an event another node published to this node's subscribers.
    package func publishRelayed(_ event: MonitoringEvent) {
        deliver(event)
    }

    /// Has `handler` told of every event published on this node from now on.
    package func relay(to handler: @escaping @Sendable (MonitoringEvent) -> Void) {
        relay.withLock { $0 = Callback(handler) }
    }

    private func deliver(_ event: MonitoringEvent) {
        for subscriber in subscribers.withLock({ Array($0.byID.values) }) where subscriber.kinds?.contains(event.kind) ?? true {
            subscriber.continuation.yield(event)
        }
    }

    /// Events from now on (of `kinds` only, if given), until the stream is dropped; at
    /// most `buffer` unread events are kept (the newest).
    public func subscribe(buffer: Int? = nil, kinds: Set<MonitoringEvent.Kind>? = nil) -> AsyncStream<MonitoringEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MonitoringEvent.self, bufferingPolicy: .bufferingNewest(max(1, buffer ?? defaultBuffer)))
        let id = subscribers.withLock { state in
            defer { state.nextID += 1 }
            state.byID[state.nextID] = Subscriber(continuation: continuation, kinds: kinds)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.byID.removeValue(forKey: id) }
            self?.interestChanged.withLock { $0 }?()
        }
        interestChanged.withLock { $0 }?()
        return stream
    }

    /// The kinds of event some subscriber here wants now.
    public var wantedKinds: Set<MonitoringEvent.Kind> {
        subscribers.withLock { state in
            state.byID.values.reduce(into: []) { wanted, subscriber in wanted.formUnion(subscriber.kinds ?? Set(MonitoringEvent.Kind.allCases)) }
        }
    }

    /// Has `handler` told whenever a subscriber comes or goes.
    package func onInterestChange(_ handler: @escaping @Sendable () -> Void) {
        interestChanged.withLock { $0 = Callback(handler) }
    }

    /// How many subscribers are connected.
    public var subscriberCount: Int { subscribers.withLock { $0.byID.count } }

    /// Ends every subscriber's stream (at shutdown).
    public func finishAll() {
        for subscriber in subscribers.withLock({ Array($0.byID.values) }) { subscriber.continuation.finish() }
    }
}
