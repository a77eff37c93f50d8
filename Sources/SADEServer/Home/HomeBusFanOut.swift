import Foundation
import SADEHome
import Synchronization

/// The bus's side of the home events: one subscription to the home service for the
/// whole server, each event encoded once and handed, already JSON, to every subscribed
/// client whose flats and event type it matches. Each client has a bounded queue of its
/// own, so a slow one loses its oldest events rather than holding the others up.
final class HomeBusFanOut: Sendable {
    private struct Subscriber {
        let id: Int
        let flats: Set<FlatID>
        let type: String?
        let continuation: AsyncStream<String>.Continuation
    }

    private struct State {
        var subscribers: [UUID: Subscriber] = [:]
        var pump: Task<Void, Never>?
    }

    private let state = Mutex(State())
    let home: HomeService
    /// Events a client may fall behind by before it loses the oldest.
    static let buffer = 4096

    init(home: HomeService) { self.home = home }

    /// Events of `flats` (of `type`, or all) for the client's subscription `id`, each the
    /// whole `{"id", "type": "event", "event"}` message; ends with ``unsubscribe(_:)``.
    func subscribe(id: Int, flats: Set<FlatID>, type: String?) -> (UUID, AsyncStream<String>) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.buffer))
        let key = UUID()
        state.withLock { state in
            state.subscribers[key] = Subscriber(id: id, flats: flats, type: type, continuation: continuation)
            if state.pump == nil { state.pump = Task { [weak self] in await self?.pump() } }
        }
        return (key, stream)
    }

    /// Ends a subscription.
    func unsubscribe(_ key: UUID) {
        state.withLock { $0.subscribers.removeValue(forKey: key) }?.continuation.finish()
    }

    /// Encodes each home event once and hands it to the matching subscribers.
    private func pump() async {
        for await event in home.events.subscribe(flats: nil) {
            let targets = state.withLock { $0.subscribers.values.filter { $0.flats.contains(event.flat) && ($0.type == nil || $0.type == event.type) } }
            guard !targets.isEmpty, let flat = try? await home.store.flat(event.flat) else { continue }
            let object = HomeStateJSON.event(event, flats: [flat.id: flat], at: home.clock.now)
            guard let data = try? JSONSerialization.data(withJSONObject: object) else { continue }
            let body = String(decoding: data, as: UTF8.self)
            for target in targets { target.continuation.yield(#"{"id":\#(target.id),"type":"event","event":\#(body)}"#) }
        }
    }
}
