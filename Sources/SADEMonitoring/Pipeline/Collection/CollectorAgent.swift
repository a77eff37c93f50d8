import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The CollectorAgent of SADE4Health §5.3: every ``period`` on the platform clock (and
/// at once after ``wake()``) it pulls new samples from the pushing sources and saves
/// them, reads what is new in the health store since the last evaluated anchors, and
/// tells the ``AnomaliesAgent`` with a FIPA-ACL `inform` carrying a ``SampleBatch``.
///
/// The anchors are persisted by the AnomaliesAgent once it has evaluated a batch, so
/// delivery is at least once: after a crash, what was accepted but not evaluated is
/// read again. The AnomaliesAgent's `confirm` ends a batch's flight; at most
/// ``maxBatchesInFlight`` batches are handed over unconfirmed, so a slow evaluation
/// slows collection down instead of piling up messages.
public final class CollectorAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "CollectorAgent"
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
    ///   - sources: the pushing sources, pulled on every cycle while this node evaluates.
    ///   - types: the sample types read from the store.
    ///   - batchLimit: at most this many new samples of each type per cycle.
    ///   - anomaliesAgent: who gets the batches.
    ///   - gate: open while this node evaluates.
    init(
        name: String = defaultName, environment: Environment, store: any HealthStore, anchors: any PipelineRecords,
        sources: [any NewDataSource], types: [HealthType], batchLimit: Int, period: Duration, maxBatchesInFlight: Int = 4,
        anomaliesAgent: AgentIdentifier, gate: EvaluationGate
    ) {
        let collector = Collector(
            store: store, anchors: anchors, sources: sources, types: types, batchLimit: batchLimit,
            maxInFlight: maxBatchesInFlight, anomaliesAgent: anomaliesAgent, gate: gate, unread: unread, clock: environment.clock)
        self.collector = collector
        clock = environment.clock
        self.period = period
        self.maxBatchesInFlight = maxBatchesInFlight
        let batchReplies = MessageTemplate(performatives: [.confirm, .failure])
        agent = Agent(name, on: environment) {
            CyclicBehaviour("collect", every: period) { context in await collector.collect(from: context.agent) }
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
        Task { [agent, collector] in await collector.collect(from: agent) }
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
