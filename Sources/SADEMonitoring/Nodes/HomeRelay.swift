import Foundation
import Logging
import SADEHome
import SADEPostgres

/// What the homes of one node tell the others: what happened in a flat (for the event
/// bus's clients everywhere), and what the home agents, which run on another node (the
/// evaluating one), must hear.
package enum HomeNews: Codable, Sendable {
    /// Something that happened in a flat.
    case event(HomeEvent)
    /// News for the home agents.
    case agents(AgentNews)
}

/// The homes' news between nodes sharing a database.
package typealias HomeRelay = NodeEventRelay<HomeNews>

extension NodeEventRelay where Event == HomeNews {
    /// The notification channel.
    package static var channel: String { "sade_home" }

    /// A relay of `home`'s events and agents' news to the other nodes, and theirs to it:
    /// events reach this node's bus (a state reported elsewhere confirms an actuator call
    /// made here), news this node's agents if they run here.
    package convenience init(pool: PostgresPool, home: HomeService, node: String, logger: Logger) {
        self.init(pool: pool, channel: Self.channel, node: node, logger: logger, split: Self.parts) { news in
            switch news {
            case .event(let event):
                home.events.publishRelayed(event)
                if case .stateChanged(_, _, _, let new) = event { await home.confirmCall(by: new) }
            case .agents(let news):
                await home.receive(news)
            }
        }
        home.events.relay { [weak self] event in self?.enqueue(.event(event)) }
        home.forward { [weak self] news in self?.enqueue(.agents(news), vital: true) }
    }

    /// A batch's facts in `count` parts of its hazards and batteries (facts too large for one notification).
    private static func parts(_ news: HomeNews, count: Int) -> [HomeNews]? {
        guard case .agents(.facts(let flat, let facts)) = news else { return nil }
        let reports = facts.hazards.map { HomeFacts(hazards: [$0]) } + facts.batteries.map { HomeFacts(batteries: [$0]) }
        guard reports.count > 1 else { return nil }
        return reports.inParts(count).enumerated().map { index, part in
            var merged = HomeFacts(hazards: part.flatMap(\.hazards), batteries: part.flatMap(\.batteries))
            if index == 0 { merged.lastActivity = facts.lastActivity }
            return .agents(.facts(flat: flat, merged))
        }
    }
}
