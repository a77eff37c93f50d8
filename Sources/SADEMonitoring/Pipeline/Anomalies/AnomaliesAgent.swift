import Foundation
import SADEACL
import SADECore
import SADEHealth

/// The AnomaliesAgent of SADE4Health §5.3: its goal keeps every ``SampleBatch`` the
/// ``CollectorAgent`` informs it of evaluated. The AnomaliesPlan runs the framework's
/// ``AnomaliesAction`` over the batches received — the health module's
/// ``AnomalyDetector`` with every patient's record (per-patient ranges from
/// ``Patient/rangeOverrides``, SpO2 scale 2) and NEWS2, and the check for patients
/// whose devices went silent —, publishes the samples and scores as
/// ``MonitoringEvent``s, informs the ``AlertAgent`` (whom it knows as a belief) of every
/// anomaly (``Anomaly/inform(_:)``), persists the batches' anchors and answers the
/// collector with `confirm`. While other nodes evaluate every patient, a second plan
/// confirms the batches without evaluating them.
///
/// Every ``missingDataInterval`` the agent also comes to believe a check of the
/// admitted patients it evaluates is due, which the same goal and plan carry out (the action looks
/// for silent devices only in a run that took a due check). Batches and checks
/// are evaluated one intention at a time, in arrival order; a batch it cannot read is
/// answered `not-understood` and changes nothing.
public final class AnomaliesAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "AnomaliesAgent"
    /// The goal of having every batch evaluated.
    public static let anomaliesGoal = "AnomaliesGoal"
    /// The agent.
    public let agent: Agent
    /// The detection engine; its episodes span batches.
    public let detector: AnomalyDetector
    /// The time between checks for missing data.
    public let missingDataInterval: Duration
    let evaluator: BatchEvaluator
    /// Batches and checks received and not yet done.
    let pending: InFlightCounter

    init(
        name: String = defaultName, environment: Environment, registry: any ClinicalRegistry, anchors: any PipelineRecords,
        events: MonitoringEventHub, detector: AnomalyDetector, news2Window: TimeInterval, epoch: Date, missingDataInterval: Duration,
        alertAgent: AgentIdentifier, anomaliesInFlight: InFlightCounter, gate: EvaluationGate
    ) {
        let pending = InFlightCounter()
        self.pending = pending
        let evaluator = BatchEvaluator(
            registry: registry, anchors: anchors, events: events, detector: detector, anomaliesInFlight: anomaliesInFlight,
            news2Window: news2Window, pending: pending, gate: gate)
        self.evaluator = evaluator
        self.detector = detector
        self.missingDataInterval = missingDataInterval
        let evaluating = Condition("this node evaluates some patients") { _ in gate.isOpen }
        let batches = MessageTemplate(performatives: [.inform], ontology: SampleBatch.aclOntology)
        let undelivered = MessageTemplate(performatives: [.failure], ontology: Anomaly.aclOntology)
        let everythingEvaluated = Condition("no batch received and no check due") { beliefs in
            beliefs[.batchesReceived]?.isEmpty != false && beliefs[.missingDataCheckDue] != true
        }
        agent = Agent(name, on: environment, runBDICycleOnStart: true) {
            Belief(.alertAgent, alertAgent)
            Belief(.batchesReceived, [])
            Belief(.missingDataCheckDue, false)
            Goal.maintain(Self.anomaliesGoal, everythingEvaluated) {
                Plan("AnomaliesPlan", priority: 1, context: evaluating) {
                    AnomaliesAction(detector: detector, epoch: epoch) { context in
                        await evaluator.take(from: context.agent)
                    } checkingMissingData: { _ in
                        await evaluator.checkInHand
                    } completion: { findings, context in
                        await evaluator.finish(findings, agent: context.agent)
                    }
                }
                // No context: tried whenever the AnomaliesPlan was not (the gate closed), so the
                // goal never ends with batches waiting and no plan run.
                Plan("leave the batches to the evaluating nodes") {
                    OneShotAction("confirm unevaluated") { context in
                        await evaluator.pass(from: context.agent)
                    }
                }
            }
            OneShotBehaviour("watch admitted patients") { context in
                await context.agent.setFlag(.missingDataCheckDue, counting: pending)
            }
            CyclicBehaviour("check for missing data", every: missingDataInterval) { context in
                await context.agent.setFlag(.missingDataCheckDue, counting: pending)
            }
            MessageHandler(batches) { agent, message in
                do {
                    let batch = try SampleBatch(message: message)
                    pending.add()
                    agent.append(ReceivedBatch(batch: batch, message: message), to: .batchesReceived)
                } catch {
                    agent.logger.warning("unreadable batch", metadata: ["error": "\(error)"])
                    agent.send(message.makeReply(.notUnderstood, content: "((inform) \"not a sample batch\")"))
                }
            }
            MessageHandler(undelivered) { agent, message in
                agent.logger.error("an anomaly did not reach the AlertAgent", metadata: ["reason": "\(message.content ?? "")"])
                anomaliesInFlight.done()
            }
        }
    }

    /// Returns once every batch and check received so far has been handled.
    public func waitUntilIdle() async {
        await pending.waitUntilZero()
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
