import Foundation
import Logging
import SADEPostgres

/// The monitoring dashboard's live events between nodes: every alert, acknowledgement
/// and escalation reaches the clients of every node, and so do samples and scores while
/// a client of another node watches them (``LiveInterest``).
package typealias MonitoringEventRelay = NodeEventRelay<MonitoringEvent>

extension NodeEventRelay where Event == MonitoringEvent {
    /// The notification channel.
    package static var channel: String { "sade_events" }

    /// A relay of what is published on `hub` to the other nodes' hubs (what their
    /// clients watch, as `interest` hears), and back.
    package convenience init(pool: PostgresPool, hub: MonitoringEventHub, node: String, logger: Logger, interest: LiveInterest) {
        self.init(pool: pool, channel: Self.channel, node: node, logger: logger, split: Self.parts) { event in hub.publishRelayed(event) }
        hub.relay { [weak self] event in
            guard interest.othersWant(event.kind) else { return }
            // Alerts and what follows them go before samples and scores, and are kept until sent.
            self?.enqueue(event, vital: LiveInterest.alwaysRelayed.contains(event.kind))
        }
    }

    /// A samples event of several observations in `count` parts (an event too large for one notification).
    private static func parts(_ event: MonitoringEvent, count: Int) -> [MonitoringEvent]? {
        guard case .samples(let samples) = event, samples.observations.count > 1 else { return nil }
        return samples.observations.inParts(count).map { observations in
            var part = samples
            part.observations = Array(observations)
            return .samples(part)
        }
    }
}
