import Foundation
import Logging
import SADEPostgres
import Synchronization

/// Which kinds of live event the clients of the other nodes watch, so that a node sends
/// the plentiful ones (samples, scores) to the others only while a client somewhere
/// watches them: relaying every sample to every node cost the evaluating node a quarter
/// of its time under load. Each node says what its clients watch when that changes and
/// every ``period``; what a node said is forgotten after ten periods unheard (it
/// stopped or died). Alerts, acknowledgements and escalations always go.
///
/// A client that starts watching samples on one node sees other nodes' samples once
/// they have heard of it (one notification's trip; its dashboard reads the history
/// over the API anyway).
package final class LiveInterest: Sendable {
    /// What one node's clients watch.
    package struct Watching: Codable, Sendable {
        package let node: String
        package let kinds: [String]
    }

    /// The kinds every node relays whoever watches: few, and none to be missed.
    package static let alwaysRelayed: Set<MonitoringEvent.Kind> = [.alert, .acknowledged, .escalated]

    /// The announcements between nodes.
    package let relay: NodeEventRelay<Watching>
    let hub: MonitoringEventHub
    let node: String
    /// How often a node says what its clients watch, changed or not.
    let period: Duration
    /// What each other node said last, and when.
    private final class Heard: Sendable {
        let nodes = Mutex<[String: (kinds: Set<MonitoringEvent.Kind>, at: ContinuousClock.Instant)]>([:])
    }

    private let heard = Heard()
    private let changes: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    /// The notification channel.
    package static let channel = "sade_watching"

    package init(pool: PostgresPool, hub: MonitoringEventHub, node: String, logger: Logger, period: Duration = .seconds(1)) {
        self.hub = hub
        self.node = node
        self.period = period
        (changes, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let heard = self.heard
        relay = NodeEventRelay(pool: pool, channel: Self.channel, node: node, logger: logger) { watching in
            let kinds = Set(watching.kinds.compactMap(MonitoringEvent.Kind.init(rawValue:)))
            heard.nodes.withLock { $0[watching.node] = (kinds, .now) }
        }
        hub.onInterestChange { [signal] in signal.yield() }
    }

    /// Whether events of `kind` are to go to the other nodes now.
    package func othersWant(_ kind: MonitoringEvent.Kind) -> Bool {
        if Self.alwaysRelayed.contains(kind) { return true }
        let now = ContinuousClock.now
        return heard.nodes.withLock { nodes in nodes.values.contains { now - $0.at < period * 10 && $0.kinds.contains(kind) } }
    }

    /// Says now what this node's clients watch, and returns once it is sent (a live
    /// stream starting here waits for it, so that other nodes' events of the kinds it
    /// watches come from then on).
    package func announceNow() async {
        relay.enqueue(Watching(node: node, kinds: hub.wantedKinds.map(\.rawValue).sorted()))
        await relay.flush()
    }

    /// Says what this node's clients watch at once, whenever it changes and every
    /// period, until cancelled (with ``NodeEventRelay/send()`` of ``relay`` running).
    package func announce() async {
        let ticker = Task { [signal, period] in
            while (try? await Task.sleep(for: period)) != nil { signal.yield() }
        }
        defer { ticker.cancel() }
        signal.yield()
        for await _ in changes {
            relay.enqueue(Watching(node: node, kinds: hub.wantedKinds.map(\.rawValue).sorted()))
        }
    }
}
