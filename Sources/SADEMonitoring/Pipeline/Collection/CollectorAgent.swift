import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The CollectorAgent of SADE4Health §5.3: its collect goal's CollectPlan runs the
/// cyclic ``CollectorAction`` — every ``period`` on the platform clock it pulls new
/// samples from the pushing sources and saves them, reads what is new in the health
/// store since the last evaluated anchors, and tells the ``AnomaliesAgent`` (whom it
/// knows as a belief) with a FIPA-ACL `inform` carrying a ``SampleBatch``. A second
/// goal keeps no announced data unread: ``wake()`` (the API accepted samples) makes
/// the agent believe there is new data, and the plan that restores the goal collects
/// at once.
///
/// The anchors are persisted by the AnomaliesAgent once it has evaluated a batch, so
/// delivery is at least once: after a crash, what was accepted but not evaluated is
/// read again. The AnomaliesAgent's `confirm` ends a batch's flight; at most
/// ``maxBatchesInFlight`` batches are handed over unconfirmed, so a slow evaluation
/// slows collection down instead of piling up messages.
public final class CollectorAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "CollectorAgent"
    /// The goal of collecting every ``period``.
    public static let collectGoal = "CollectGoal"
    /// The goal of reading announced data at once.
    public static let announcedDataGoal = "no announced data unread"
    /// The agent.
    public let agent: Agent
    /// The time between collections.
    public let period: Duration
    /// The most batches handed over and not yet confirmed.
    public let maxBatchesInFlight: Int
    let collector: Collector
    let unread = UnreadSince()
    let clock: PlatformClock

    /// Creates the agent (not started).
    ///
    /// - Parameters:
    ///   - store: where pushed samples are saved and new ones read from.
    ///   - anchors: where evaluated anchors are persisted.
    ///   - sources: the pushing sources, pulled on every cycle while `sourcesGate` is open.
    ///   - types: the sample types read from the store.
    ///   - batchLimit: at most this many new samples of each type per cycle.
    ///   - anomaliesAgent: who gets the batches.
    ///   - gate: the shards of patients this node evaluates, whose samples it reads.
    ///   - sourcesGate: open while this node runs the pushing sources (one node at a time).
    init(
        name: String = defaultName, environment: Environment, store: any HealthStore, anchors: any PipelineRecords,
        sources: [any NewDataSource], types: [HealthType], batchLimit: Int, period: Duration, maxBatchesInFlight: Int = 4,
        anomaliesAgent: AgentIdentifier, gate: EvaluationGate, sourcesGate: LeaseGate
    ) {
        let collector = Collector(
            store: store, anchors: anchors, sources: sources, types: types, batchLimit: batchLimit,
            maxInFlight: maxBatchesInFlight, gate: gate, sourcesGate: sourcesGate, unread: unread, clock: environment.clock)
        self.collector = collector
        clock = environment.clock
        self.period = period
        self.maxBatchesInFlight = maxBatchesInFlight
        let batchReplies = MessageTemplate(performatives: [.confirm, .failure])
        agent = Agent(name, on: environment, runBDICycleOnStart: true) {
            Belief(.anomaliesAgent, anomaliesAgent)
            Belief(.newDataAnnounced, false)
            Goal(Self.collectGoal) {
                Plan("CollectPlan") { CollectorAction(collector, every: period) }
            }
            Goal.maintain(Self.announcedDataGoal, .belief(.newDataAnnounced, is: false)) {
                Plan("CollectPlan, at once") { CollectorAction(collector, taking: .newDataAnnounced) }
            }
            MessageHandler(batchReplies) { agent, message in
                guard let id = message.conversationID.flatMap(Collector.batchID(ofConversation:)) else { return }
                let failed = message.performative == .failure
                if failed { agent.logger.warning("a batch was not delivered", metadata: ["batch": "\(id)", "reason": "\(message.content ?? "")"]) }
                Task { await collector.settle(id, failed: failed) }
            }
        }
    }

    /// Collects now, in addition to the periodic cycle (e.g. after the API accepted
    /// samples); returns without waiting. The pipeline's lag is measured from the first
    /// wake a collection has not read past.
    public func wake() {
        unread.mark(clock.elapsed)
        Task { [agent] in await agent.setFlag(.newDataAnnounced) }
    }

    /// Runs a collection and returns once it has handed its batch over.
    public func collect() async {
        await collector.collect(from: agent)
    }

    /// Returns once every batch handed over has been confirmed (or failed).
    public func waitUntilConfirmed() async {
        await collector.waitUntilNothingInFlight()
    }
}

/// SADE4Health's `CollectorAction`: one collection — the pushing sources pulled and
/// saved, what is new in the store read and handed to the AnomaliesAgent. Cyclic in
/// the CollectPlan; one-shot when the agent was told of new data, which it then no
/// longer believes unread.
struct CollectorAction: Action {
    let name = "CollectorAction"
    let schedule: ActionSchedule
    let collector: Collector
    /// The belief the action clears before it reads, if any.
    let announcement: BeliefKey<Bool>?

    /// Collects every `period`.
    init(_ collector: Collector, every period: Duration) {
        self.collector = collector
        schedule = .every(period)
        announcement = nil
    }

    /// Collects once, after clearing `announcement`: what is announced later is read by the next run.
    init(_ collector: Collector, taking announcement: BeliefKey<Bool>) {
        self.collector = collector
        schedule = .once
        self.announcement = announcement
    }

    func runAction(_ context: ActionContext) async throws {
        if let announcement { _ = await context.agent.takeFlag(announcement) }
        await collector.collect(from: context.agent)
    }
}
