import Foundation
import SADEACL

extension Anomaly {
    /// The `:language` of messages carrying an anomaly: the content is one JSON object.
    public static let aclLanguage = "json"
    /// The `:ontology` of messages carrying an anomaly.
    public static let aclOntology = "sade-anomaly"

    /// The anomaly as a JSON object: the properties of ``Anomaly`` by name, `kind` as
    /// in ``AnomalyKind/description``, dates as seconds since 1970, `score` as
    /// ``NEWS2Score`` encodes it (band `low`, `low-medium`, `medium` or `high`).
    public func jsonContent() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An `inform` telling `receiver` about the anomaly, with the ``jsonContent()``
    /// as content and the ``aclLanguage`` and ``aclOntology``.
    public func inform(_ receiver: AgentIdentifier) throws -> ACLMessage {
        ACLMessage(
            .inform, receivers: [receiver], content: try jsonContent(), language: Self.aclLanguage, ontology: Self.aclOntology)
    }

    /// The anomaly in `message`'s content, as sent by ``inform(_:)``.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` naming `content` when the
    ///   message holds no anomaly.
    public init(message: ACLMessage) throws(HealthError) {
        guard let content = message.content else { throw .invalidValue(field: "content", reason: "the message has no content") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            self = try decoder.decode(Anomaly.self, from: Data(content.utf8))
        } catch {
            throw .invalidValue(field: "content", reason: "not an anomaly in JSON: \(error)")
        }
    }
}
