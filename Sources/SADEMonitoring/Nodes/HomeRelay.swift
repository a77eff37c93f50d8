import Foundation
import Logging
import SADEHome
import SADEPostgres

/// What the homes of one node tell the others: what happened in a flat (for the event
/// bus's clients everywhere), and what a batch taken here means for a flat whose agent
/// runs on another node (the evaluating one).
package enum HomeNews: Codable, Sendable {
    /// Something that happened in a flat.
    case event(HomeEvent)
    /// What a batch of a flat's events means for its agent.
    case facts(flat: FlatID, HomeFacts)
}

/// The homes' news between nodes sharing a database.
package typealias HomeRelay = NodeEventRelay<HomeNews>

extension NodeEventRelay where Event == HomeNews {
    /// The notification channel.
    package static var channel: String { "sade_home" }

    /// A relay of `home`'s events and facts to the other nodes, and theirs to it: events
    /// reach this node's bus (a state reported elsewhere confirms an actuator call made
    /// here), facts this node's agents.
    package convenience init(pool: PostgresPool, home: HomeService, node: String, logger: Logger) {
        self.init(pool: pool, channel: Self.channel, node: node, logger: logger) { news in
            switch news {
            case .event(let event):
                home.events.publishRelayed(event)
                if case .stateChanged(_, _, _, let new) = event { await home.confirmCall(by: new) }
            case .facts(let flat, let facts):
                await home.perceive(facts, flat: flat)
            }
        }
        home.events.relay { [weak self] event in self?.enqueue(.event(event)) }
        home.forwardFacts { [weak self] flat, facts in self?.enqueue(.facts(flat: flat, facts)) }
    }
}
