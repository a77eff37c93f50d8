import Foundation
import SADECore
import Synchronization

/// Something that happened in a flat, for live subscribers (the event bus).
public enum HomeEvent: Hashable, Sendable, Codable {
    /// A device reported: its state before and after.
    case stateChanged(flat: FlatID, device: Device, old: StateEvent?, new: StateEvent)
    /// A message was raised, confirmed or expired.
    case message(HomeMessage)
    /// The resident moved to another room.
    case occupancyChanged(Occupancy)
    /// Someone asked an actuator for a new value; the flat's gateway carries it out and
    /// reports the device's new state.
    case serviceCalled(flat: FlatID, device: Device, value: Double, context: UUID)

    /// The flat it happened in.
    public var flat: FlatID {
        switch self {
        case .stateChanged(let flat, _, _, _): flat
        case .message(let message): message.flat
        case .occupancyChanged(let occupancy): occupancy.flat
        case .serviceCalled(let flat, _, _, _): flat
        }
    }

    /// Home Assistant's event type: `state_changed`, `home_message`, `occupancy_changed`.
    public var type: String {
        switch self {
        case .stateChanged: "state_changed"
        case .message: "home_message"
        case .occupancyChanged: "occupancy_changed"
        case .serviceCalled: "call_service"
        }
    }
}

/// Fans home events out to live subscribers, each with a bounded buffer: a subscriber
/// that falls behind loses its oldest events rather than slowing the home down.
public final class HomeEventHub: Sendable {
    private struct Subscriber {
        let flats: Set<FlatID>?
        let continuation: AsyncStream<HomeEvent>.Continuation
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])
    private let buffer: Int
    /// Told of every event published here (not of those relayed from other nodes).
    private let relay = Mutex<Callback<HomeEvent>?>(nil)

    /// A hub whose subscribers keep at most `buffer` events each.
    public init(buffer: Int = 1024) { self.buffer = buffer }

    /// Events of `flats` (every flat when `nil`) from now on, until the stream is dropped.
    public func subscribe(flats: Set<FlatID>?) -> AsyncStream<HomeEvent> {
        let (stream, continuation) = AsyncStream<HomeEvent>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let id = UUID()
        subscribers.withLock { $0[id] = Subscriber(flats: flats, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        return stream
    }

    /// Hands `event` to every subscriber of its flat (and to the relay to other nodes, if there is one).
    public func publish(_ event: HomeEvent) {
        relay.withLock { $0 }?(event)
        deliver(event)
    }

    /// Hands an event another node published to this node's subscribers.
    package func publishRelayed(_ event: HomeEvent) {
        deliver(event)
    }

    /// Has `handler` told of every event published on this node from now on.
    package func relay(to handler: @escaping @Sendable (HomeEvent) -> Void) {
        relay.withLock { $0 = Callback(handler) }
    }

    /// Whether anyone hears the events: a subscriber here, or the other nodes.
    public var isHeard: Bool { subscriberCount > 0 || relay.withLock { $0 } != nil }

    private func deliver(_ event: HomeEvent) {
        let flat = event.flat
        let targets = subscribers.withLock { $0.values.filter { $0.flats?.contains(flat) ?? true }.map(\.continuation) }
        for continuation in targets { continuation.yield(event) }
    }

    /// How many subscribers there are.
    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
