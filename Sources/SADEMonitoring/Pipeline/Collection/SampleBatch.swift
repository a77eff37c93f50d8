import Foundation
import SADEACL
import SADEHealth

/// What the ``CollectorAgent`` tells the ``AnomaliesAgent``: the samples of some shards'
/// patients that are new in the health store, and those shards' anchors to persist once
/// they have been evaluated.
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
    /// Whose samples these are: the shards whose anchors move on.
    public var shards: PatientShards

    /// Creates a batch.
    public init(id: UUID = UUID(), samples: [HealthSample], anchors: [String: HealthAnchor], shards: PatientShards = .all) {
        self.id = id
        self.samples = samples
        self.anchors = anchors
        self.shards = shards
    }

    private enum CodingKeys: String, CodingKey {
        case id, samples, anchors, shards
    }

    /// Decodes a batch; one without shards is every patient's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), samples: try container.decode([HealthSample].self, forKey: .samples),
            anchors: try container.decode([String: HealthAnchor].self, forKey: .anchors),
            shards: try container.decodeIfPresent(PatientShards.self, forKey: .shards) ?? .all)
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
