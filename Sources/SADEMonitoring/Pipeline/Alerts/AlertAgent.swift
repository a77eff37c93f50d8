import Foundation
import SADEACL
import SADECore
import SADEHealth
import SADENotification

/// The AlertAgent of SADE4Health §5.3: told of anomalies by the ``AnomaliesAgent``, it
/// raises one alert per episode of a patient's condition (or of their silent devices)
/// when the ``AlertRules`` say it pages.
///
/// For each alert it looks up the ``CareWorkerAgent``s on duty in the patient's sector
/// in the directory facilitator and runs a FIPA Contract Net: each proposes with its
/// open-alert load, the least loaded is accepted (ties go to the lower staff id), the
/// others are rejected. The alert goes through the ``AlertDesk`` to the winner in the
/// app, escalating to the sector's doctors and then to the sector's mailing list while
/// nobody acknowledges it. When nobody proposes, the mailing list is e-mailed at once
/// and the alert is recorded unassigned. Every alert is recorded in the ``AlertBook``
/// and published as an event; escalation steps are published as they are taken.
public final class AlertAgent: Sendable {
    /// The agent's name on the platform.
    public static let defaultName = "AlertAgent"
    /// The ontology of the Contract Net with the care workers.
    public static let careOntology = "sade-patient-care"
    /// The agent.
    public let agent: Agent
    /// What pages whom.
    public let rules: AlertRules
    let dispatcher: AlertDispatcher
    let jobs: JobQueue

    init(
        name: String = defaultName, environment: Environment, registry: any ClinicalRegistry, book: AlertBook,
        rules: AlertRules, escalationCheckInterval: Duration, anomaliesInFlight: InFlightCounter
    ) {
        let dispatcher = AlertDispatcher(registry: registry, book: book, rules: rules)
        let jobs = JobQueue()
        self.dispatcher = dispatcher
        self.jobs = jobs
        self.rules = rules
        let anomalies = MessageTemplate(performatives: [.inform], ontology: Anomaly.aclOntology)
        agent = Agent(name, on: environment) {
            MessageHandler(anomalies) { agent, message in
                let anomaly: Anomaly
                do {
                    anomaly = try Anomaly(message: message)
                } catch {
                    agent.logger.warning("unreadable anomaly", metadata: ["error": "\(error)"])
                    agent.send(message.makeReply(.notUnderstood, content: "((inform) \"not an anomaly\")"))
                    if message.sender.map({ String($0.localName) }) == AnomaliesAgent.defaultName { anomaliesInFlight.done() }
                    return
                }
                jobs.enqueue {
                    await dispatcher.handle(anomaly, agent: agent)
                    if message.sender.map({ String($0.localName) }) == AnomaliesAgent.defaultName { anomaliesInFlight.done() }
                }
            }
            OneShotBehaviour("watch the outbox") { context in
                // Every delivery may be an escalation step: look at once rather than at the next tick.
                for await _ in await book.outbox.events() {
                    jobs.enqueue { await dispatcher.noticeEscalations(agent: context.agent) }
                }
            }
            CyclicBehaviour("notice escalations", every: escalationCheckInterval) { context in
                jobs.enqueue { await dispatcher.noticeEscalations(agent: context.agent) }
            }
        }
    }

    /// Records the pipeline's alerts the outbox has and the book has not (a node died
    /// between the two), before any anomaly received after this call is handled.
    func adoptUnrecordedAlerts() {
        jobs.enqueue { [dispatcher, agent] in await dispatcher.adoptUnrecordedAlerts(agent: agent) }
    }

    /// Returns once every anomaly received so far has been handled.
    public func waitUntilIdle() async {
        await jobs.waitUntilIdle()
    }
}
