import Foundation
import SADEACL
import SADEHealth

/// What the ``CollectorAgent`` tells the ``AnomaliesAgent``: the samples that are new
/// in the health store, and the anchors to persist once they have been evaluated.
///
/// Travels as the JSON content of a FIPA-ACL `inform` (language `json`, ontology
/// `sade-monitoring-batch`; the batch's `Codable` form, written and read by
/// `SampleBatchJSON`); the AnomaliesAgent answers `confirm` with the batch's id
/// when it has evaluated it. The samples are in the content rather than referenced so
/// that the AnomaliesAgent needs no store access to evaluate them and the message is
/// the complete record of what was handed over.
public struct SampleBatch: Hashable, Sendable, Codable, Identifiable {
    /// Unique per batch; the `confirm` quotes it.
    public var id: UUID
    /// The samples, oldest first.
    public var samples: [HealthSample]
    /// Per sample type (its identifier), the store anchor after these samples.
    public var anchors: [String: HealthAnchor]

    /// Creates a batch.
    public init(id: UUID = UUID(), samples: [HealthSample], anchors: [String: HealthAnchor]) {
        self.id = id
        self.samples = samples
        self.anchors = anchors
    }

    /// The `:language` of batch messages.
    public static let aclLanguage = "json"
    /// The `:ontology` of batch messages.
    public static let aclOntology = "sade-monitoring-batch"

    /// An `inform` carrying the batch to `receiver`.
    public func inform(_ receiver: AgentIdentifier) throws -> ACLMessage {
        let content = try SampleBatchJSON.encode(self)
        var message = ACLMessage(.inform, receivers: [receiver], content: content, language: Self.aclLanguage, ontology: Self.aclOntology)
        message.conversationID = "batch-\(id.uuidString.lowercased())"
        return message
    }

    /// The batch an `inform` carries.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `content`.
    public init(message: ACLMessage) throws(HealthError) {
        guard let content = message.content else { throw .invalidValue(field: "content", reason: "the message has no content") }
        do {
            self = try SampleBatchJSON.decode(content)
        } catch {
            throw .invalidValue(field: "content", reason: "not a sample batch in JSON: \(error)")
        }
    }
}
