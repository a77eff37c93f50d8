import Foundation

extension ACLMessage {
    /// The parameters of one or more messages.
    ///
    /// `@unchecked Sendable`, and safe: a box is written only through
    /// `ACLMessage.uniqueStorage()`, after `isKnownUniquelyReferenced` has found that
    /// no other message refers to it (a shared box is copied first). A box another
    /// thread can reach is therefore never written, only read — the copy-on-write
    /// discipline of the standard library's own collections.
    final class Storage: @unchecked Sendable {
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

        init(
            performative: Performative,
            sender: AgentIdentifier?,
            receivers: [AgentIdentifier],
            replyTo: [AgentIdentifier],
            content: String?,
            language: String?,
            encoding: String?,
            ontology: String?,
            interactionProtocol: String?,
            conversationID: String?,
            replyWith: String?,
            inReplyTo: String?,
            replyBy: Date?,
            userDefined: [String: String]
        ) {
            self.performative = performative
            self.sender = sender
            self.receivers = receivers
            self.replyTo = replyTo
            self.content = content
            self.language = language
            self.encoding = encoding
            self.ontology = ontology
            self.interactionProtocol = interactionProtocol
            self.conversationID = conversationID
            self.replyWith = replyWith
            self.inReplyTo = inReplyTo
            self.replyBy = replyBy
            self.userDefined = userDefined
        }

        /// An unshared copy, to be written.
        func copy() -> Storage {
            Storage(
                performative: performative,
                sender: sender,
                receivers: receivers,
                replyTo: replyTo,
                content: content,
                language: language,
                encoding: encoding,
                ontology: ontology,
                interactionProtocol: interactionProtocol,
                conversationID: conversationID,
                replyWith: replyWith,
                inReplyTo: inReplyTo,
                replyBy: replyBy,
                userDefined: userDefined)
        }

        /// Every parameter, for equality and hashing.
        var parameters: Parameters {
            Parameters(
                performative: performative,
                sender: sender,
                receivers: receivers,
                replyTo: replyTo,
                content: content,
                language: language,
                encoding: encoding,
                ontology: ontology,
                interactionProtocol: interactionProtocol,
                conversationID: conversationID,
                replyWith: replyWith,
                inReplyTo: inReplyTo,
                replyBy: replyBy,
                userDefined: userDefined)
        }
    }

    /// The parameters as one value, compared and hashed field by field.
    struct Parameters: Hashable {
        let performative: Performative
        let sender: AgentIdentifier?
        let receivers: [AgentIdentifier]
        let replyTo: [AgentIdentifier]
        let content: String?
        let language: String?
        let encoding: String?
        let ontology: String?
        let interactionProtocol: String?
        let conversationID: String?
        let replyWith: String?
        let inReplyTo: String?
        let replyBy: Date?
        let userDefined: [String: String]
    }
}
