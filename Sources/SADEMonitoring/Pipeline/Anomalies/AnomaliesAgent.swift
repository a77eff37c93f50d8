import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The AnomaliesAgent of SADE4Health §5.3: evaluates each ``SampleBatch`` the
/// ``CollectorAgent`` informs it of — the health module's ``AnomalyDetector`` with
/// every patient's record (per-patient ranges from ``Patient/rangeOverrides``, SpO2
/// scale 2) and NEWS2 —, publishes the samples and scores as ``MonitoringEvent``s,
/// informs the ``AlertAgent`` of every anomaly (``Anomaly/inform(_:)``), persists the
/// batch's anchors and answers the collector with `confirm`.
///
/// Every ``missingDataInterval`` it also checks for admitted patients whose devices
/// went silent. Batches and checks run one at a time, in arrival order; a batch it
/// cannot read is answered `not-understood` and changes nothing.
public final class AnomaliesAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "AnomaliesAgent"
    /// The agent.
    public let agent: Agent
    /// The detection engine; its episodes span batches.
    public let detector: AnomalyDetector
    /// The time between checks for missing data.
    public let missingDataInterval: Duration
    let evaluator: BatchEvaluator
    let jobs: JobQueue

    init(
        name: String = defaultName, environment: Environment, registry: any ClinicalRegistry, anchors: any PipelineRecords,
        events: MonitoringEventHub, detector: AnomalyDetector, news2Window: TimeInterval, epoch: Date, missingDataInterval: Duration,
        alertAgent: AgentIdentifier, anomaliesInFlight: InFlightCounter, gate: EvaluationGate
    ) {
        let evaluator = BatchEvaluator(
            registry: registry, anchors: anchors, events: events, detector: detector,
            clock: PipelineClock(clock: environment.clock, epoch: epoch), alertAgent: alertAgent,
            anomaliesInFlight: anomaliesInFlight, news2Window: news2Window, gate: gate)
        let jobs = JobQueue()
        self.jobs = jobs
        self.evaluator = evaluator
        self.detector = detector
        self.missingDataInterval = missingDataInterval
        let batches = MessageTemplate(performatives: [.inform], ontology: SampleBatch.aclOntology)
        let undelivered = MessageTemplate(performatives: [.failure], ontology: Anomaly.aclOntology)
        agent = Agent(name, on: environment) {
            MessageHandler(undelivered) { agent, message in
                agent.logger.error("an anomaly did not reach the AlertAgent", metadata: ["reason": "\(message.content ?? "")"])
                anomaliesInFlight.done()
            }
            OneShotBehaviour("watch admitted patients") { context in
                let agent = context.agent
                jobs.enqueue { await evaluator.checkMissingData(from: agent) }
            }
            CyclicBehaviour("check for missing data", every: missingDataInterval) { context in
                let agent = context.agent
                jobs.enqueue { await evaluator.checkMissingData(from: agent) }
            }
            MessageHandler(batches) { agent, message in
                let batch: SampleBatch
                do {
                    batch = try SampleBatch(message: message)
                } catch {
                    agent.logger.warning("unreadable batch", metadata: ["error": "\(error)"])
                    agent.send(message.makeReply(.notUnderstood, content: "((inform) \"not a sample batch\")"))
                    return
                }
                jobs.enqueue {
                    await evaluator.evaluate(batch, from: agent)
                    agent.send(message.makeReply(.confirm, content: batch.id.uuidString))
                }
            }
        }
    }

    /// Returns once every batch and check received so far has been handled.
    public func waitUntilIdle() async {
        await jobs.waitUntilIdle()
    }
}

/// The platform clock read as dates: `epoch` is the date at which it read zero.
package struct PipelineClock: Sendable {
    let clock: PlatformClock
    let epoch: Date

    package init(clock: PlatformClock, epoch: Date) {
        self.clock = clock
        self.epoch = epoch
    }

    /// Now.
    package var now: Date {
        epoch.addingTimeInterval(clock.elapsed.seconds)
    }
}
