import Foundation
import SADEACL
import SADECore
import SADEHealth

/// A health-care worker's agent: published in the directory facilitator as offering
/// `patient-care` in each of the worker's sectors (with the worker's role and whether
/// they are on duty), it answers the ``AlertAgent``'s calls for proposals — proposing
/// with the worker's open-alert load from the ``AlertBook`` while on duty in the
/// patient's sector, refusing otherwise — and accepts the alerts it wins.
public final class CareWorkerAgent: Sendable {
    /// The service type care workers are found by.
    public static let serviceType = "patient-care"
    /// The agent.
    public let agent: Agent
    /// The worker as the agent was created for.
    public let worker: HealthCareWorker

    /// The agent name for a worker: `CareWorker-<id>`, with characters agent names may
    /// not hold (`@`, spaces) replaced.
    public static func name(for staff: StaffID) -> String {
        "CareWorker-" + String(staff.map { $0 == "@" || $0.isWhitespace ? "_" : $0 })
    }

    /// Creates the agent for `worker` (not started).
    public init(worker: HealthCareWorker, environment: Environment, book: AlertBook) {
        self.worker = worker
        let services = worker.sectors.sorted().map { sector in
            ServiceDescription(
                name: "patient-care:\(sector)", type: Self.serviceType, protocols: ["fipa-contract-net"],
                ontologies: [AlertAgent.careOntology], languages: ["json"],
                properties: ["sector": sector, "staff": worker.id, "role": worker.role.rawValue, "onDuty": worker.onDuty ? "true" : "false"])
        }
        let calls = MessageTemplate(performatives: [.cfp], ontology: AlertAgent.careOntology)
        agent = Agent(Self.name(for: worker.id), on: environment) {
            for service in services { service }
            ContractNetResponder(calls) { _, cfp in
                guard worker.onDuty else { return .refuse("(off-duty)") }
                guard let content = cfp.content, let call = try? JSONDecoder().decode(CareCall.self, from: Data(content.utf8)) else {
                    return .refuse("(unreadable-call)")
                }
                guard worker.sectors.contains(call.sector) else { return .refuse("(not-my-sector)") }
                let proposal = CareProposal(staff: worker.id, load: book.openAlertCount(assignee: worker.id))
                return (try? CareJSON.encode(proposal)).map(ContractNetBid.propose) ?? .refuse("(no-proposal)")
            } perform: { _, _ in
                "(accepted)"
            }
        }
    }
}
