import Foundation

extension ACLMessage {
    /// Every parameter of a message, compared and hashed field by field.
    struct Parameters: Hashable {
        var performative: Performative
        var sender: AgentIdentifier?
        var receivers: [AgentIdentifier]
        var replyTo: [AgentIdentifier]
        var content: String?
        var language: String?
        var encoding: String?
        var ontology: String?
        var interactionProtocol: String?
        var conversationID: String?
        var replyWith: String?
        var inReplyTo: String?
        var replyBy: Date?
        var userDefined: [String: String]
    }

    /// The box that messages share until one of them is written.
    ///
    /// `@unchecked Sendable`, and safe: a box is written only through
    /// `ACLMessage.uniqueStorage()`, after `isKnownUniquelyReferenced` has found that
    /// no other message refers to it (a shared box is copied first). A box another
    /// thread can reach is therefore never written, only read — the copy-on-write
    /// discipline of the standard library's own collections.
    final class Storage: @unchecked Sendable {
        var parameters: Parameters

        init(_ parameters: Parameters) {
            self.parameters = parameters
        }

        /// An unshared copy, to be written.
        func copy() -> Storage { Storage(parameters) }
    }
}
