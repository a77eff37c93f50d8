import SADEACL
import SADECore
import SADEHealth

extension AlertDispatcher {
    /// Runs a Contract Net among the care workers on duty in `sector` whose role is
    /// among the rules' contractors; returns the staff id of the one who accepted the
    /// alert, or `nil` when nobody proposed (or the winner failed).
    func assign(_ anomaly: Anomaly, sector: HospitalSector, agent: Agent) async -> StaffID? {
        let template = ServiceTemplate(
            type: CareWorkerAgent.serviceType, interactionProtocol: "fipa-contract-net",
            properties: ["sector": sector.id, "onDuty": "true"])
        let participants = agent.environment.directory.search(template)
            .filter { entry in entry.services.contains { service in
                service.properties["role"].flatMap(HealthCareWorker.Role.init(rawValue:)).map(rules.contractors.contains) ?? false
            } }
            .map(\.agent)
        guard !participants.isEmpty else { return nil }
        do {
            let call = CareCall(patient: anomaly.patient, sector: sector.id, summary: anomaly.summary)
            let outcome = try await agent.contractNet(
                try call.message(), participants: participants, deadline: rules.proposalDeadline, resultTimeout: rules.proposalDeadline,
                select: CareProposal.leastLoaded)
            guard let accepted = outcome.accepted.first, let proposal = CareProposal(accepted) else { return nil }
            let informed = outcome.informs.contains { $0.sender?.localName == accepted.sender?.localName }
            return informed ? proposal.staff : nil
        } catch {
            agent.logger.error("contract net failed", metadata: ["patient": "\(anomaly.patient)", "error": "\(error)"])
            return nil
        }
    }
}
