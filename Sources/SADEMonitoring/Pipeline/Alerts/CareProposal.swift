import Foundation
import SADEACL
import SADEHealth

/// The call for proposals the AlertAgent sends to care workers: a patient of a sector
/// needs someone. JSON content, ontology ``AlertAgent/careOntology``.
struct CareCall: Codable, Hashable, Sendable {
    var patient: PatientID
    var sector: SectorID
    var summary: String

    func message() throws -> ACLMessage {
        ACLMessage(.cfp, content: try CareJSON.encode(self), language: "json", ontology: AlertAgent.careOntology)
    }
}

/// A care worker's proposal: who, and how many open alerts they already have.
struct CareProposal: Codable, Hashable, Sendable {
    var staff: StaffID
    var load: Int

    /// The proposal in `message`, if it holds one.
    init?(_ message: ACLMessage) {
        guard let content = message.content, let proposal = try? JSONDecoder().decode(CareProposal.self, from: Data(content.utf8)) else {
            return nil
        }
        self = proposal
    }

    init(staff: StaffID, load: Int) {
        self.staff = staff
        self.load = load
    }

    /// Accepts the proposal with the lowest load; equal loads go to the lower staff id,
    /// so the choice never depends on which answer came first.
    static let leastLoaded: @Sendable ([ACLMessage]) async -> [ACLMessage] = { proposals in
        let readable = proposals.compactMap { message in CareProposal(message).map { (message, $0) } }
        guard let best = readable.min(by: { ($0.1.load, $0.1.staff) < ($1.1.load, $1.1.staff) }) else { return [] }
        return [best.0]
    }
}

enum CareJSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
