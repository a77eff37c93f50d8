import Foundation
import SADEACL
import SADECore
import SADEHealth
import SADENotification

/// The AlertAgent of SADE4Health §5.3: its alert goal keeps every anomaly the
/// ``AnomaliesAgent`` tells it of attended to, and its AlertPlan runs the
/// ``AlertAction`` on demand. It raises one alert per episode of a patient's condition
/// (or of their silent devices) when the ``AlertRules`` say it pages.
///
/// For each alert it looks up the ``CareWorkerAgent``s on duty in the patient's sector
/// in the directory facilitator and runs a FIPA Contract Net: each proposes with its
/// open-alert load, the least loaded is accepted (ties go to the lower staff id), the
/// others are rejected. The alert goes through the ``AlertDesk`` to the winner in the
/// app, escalating to the sector's doctors and then to the sector's mailing list while
/// nobody acknowledges it. When nobody proposes, the mailing list is e-mailed at once
/// and the alert is recorded unassigned. Every alert is recorded in the ``AlertBook``
/// and published as an event; escalation steps are published as they are taken — the
/// agent comes to believe escalations are due on every outbox delivery and every
/// escalation check interval, and the same goal has them noticed.
public final class AlertAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "AlertAgent"
    /// The ontology of the Contract Net with the care workers.
    public static let careOntology = "sade-patient-care"
    /// The goal of having every anomaly and escalation attended to.
    public static let alertGoal = "AlertGoal"
    /// The agent.
    public let agent: Agent
    /// What pages whom.
    public let rules: AlertRules
    let dispatcher: AlertDispatcher
    /// Anomalies, escalation checks and adoptions received and not yet done.
    let pending: InFlightCounter

    init(
        name: String = defaultName, environment: Environment, registry: any ClinicalRegistry, book: AlertBook,
        rules: AlertRules, escalationCheckInterval: Duration, anomaliesInFlight: InFlightCounter, gate: EvaluationGate
    ) {
        let dispatcher = AlertDispatcher(registry: registry, book: book, rules: rules, gate: gate)
        let pending = InFlightCounter()
        self.dispatcher = dispatcher
        self.pending = pending
        self.rules = rules
        let anomalies = MessageTemplate(performatives: [.inform], ontology: Anomaly.aclOntology)
        let everythingAttended = Condition("no anomaly, escalation or adoption waiting") { beliefs in
            beliefs[.anomaliesReceived]?.isEmpty != false && beliefs[.escalationsDue] != true && beliefs[.unrecordedAlertsDue] != true
        }
        agent = Agent(name, on: environment, runBDICycleOnStart: true) {
            Belief(.anomaliesReceived, [])
            Belief(.escalationsDue, false)
            Belief(.unrecordedAlertsDue, false)
            Goal.maintain(Self.alertGoal, everythingAttended) {
                Plan("AlertPlan") {
                    AlertAction(dispatcher: dispatcher, pending: pending, anomaliesInFlight: anomaliesInFlight)
                }
            }
            MessageHandler(anomalies) { agent, message in
                let fromPipeline = message.sender.map({ String($0.localName) }) == AnomaliesAgent.defaultName
                do {
                    let anomaly = try Anomaly(message: message)
                    pending.add()
                    agent.append(ReceivedAnomaly(anomaly: anomaly, fromPipeline: fromPipeline), to: .anomaliesReceived)
                } catch {
                    agent.logger.warning("unreadable anomaly", metadata: ["error": "\(error)"])
                    agent.send(message.makeReply(.notUnderstood, content: "((inform) \"not an anomaly\")"))
                    if fromPipeline { anomaliesInFlight.done() }
                }
            }
            OneShotBehaviour("watch the outbox") { context in
                // Every delivery may be an escalation step: look at once rather than at the next tick.
                for await _ in await book.outbox.events() {
                    await context.agent.setFlag(.escalationsDue, counting: pending)
                }
            }
            CyclicBehaviour("notice escalations", every: escalationCheckInterval) { context in
                await context.agent.setFlag(.escalationsDue, counting: pending)
            }
        }
    }

    /// Records the pipeline's alerts the outbox has and the book has not (a node died
    /// between the two), before any anomaly received after this call is handled.
    func adoptUnrecordedAlerts() async {
        await agent.setFlag(.unrecordedAlertsDue, counting: pending)
    }

    /// Returns once every anomaly received so far has been handled.
    public func waitUntilIdle() async {
        await pending.waitUntilZero()
    }
}

/// SADE4Health's `AlertAction`, run on demand by the AlertPlan: takes what the agent
/// was told of — alerts to adopt, anomalies, due escalations — and attends to it in
/// that order, through the ``AlertDispatcher`` (episodes, the Contract Net with the care
/// workers, the alert desk).
struct AlertAction: Action {
    let name = "AlertAction"
    let dispatcher: AlertDispatcher
    /// Work received and not yet done.
    let pending: InFlightCounter
    /// Anomalies the pipeline sent and the agent has not handled.
    let anomaliesInFlight: InFlightCounter

    func runAction(_ context: ActionContext) async throws {
        let agent = context.agent
        let (adopt, anomalies, escalations) = await agent.takeAlertWork()
        if adopt {
            await dispatcher.adoptUnrecordedAlerts(agent: agent)
            pending.done()
        }
        for received in anomalies {
            await dispatcher.handle(received.anomaly, agent: agent)
            if received.fromPipeline { anomaliesInFlight.done() }
            pending.done()
        }
        if escalations {
            await dispatcher.noticeEscalations(agent: agent)
            pending.done()
        }
    }
}

extension Agent {
    /// The AlertAgent takes what it was told of, leaving nothing.
    func takeAlertWork() -> (adopt: Bool, anomalies: [ReceivedAnomaly], escalations: Bool) {
        (takeFlag(.unrecordedAlertsDue), takeAll(.anomaliesReceived), takeFlag(.escalationsDue))
    }
}
