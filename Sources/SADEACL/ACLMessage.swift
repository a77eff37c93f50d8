import Foundation

/// A FIPA-ACL message: a communicative act plus the parameters of fipa00061.
///
/// Only ``performative`` is mandatory; every other parameter is optional. Build one
/// with the memberwise initialiser, or answer a received message with
/// ``makeReply(_:content:)``, which fills in the conversation parameters.
public struct ACLMessage: Hashable, Sendable {
    /// What the sender means by the message.
    public var performative: Performative
    /// Who sent the message. The platform fills it in when an agent sends.
    public var sender: AgentIdentifier?
    /// Who should receive the message.
    public var receivers: [AgentIdentifier]
    /// Where replies should go instead of to ``sender``.
    public var replyTo: [AgentIdentifier]
    /// The content: an expression in ``language``.
    public var content: String?
    /// The language in which ``content`` is expressed, e.g. `fipa-sl`.
    public var language: String?
    /// The encoding of ``content``.
    public var encoding: String?
    /// The ontology that gives meaning to the symbols in ``content``.
    public var ontology: String?
    /// The interaction protocol the message is part of, e.g. `fipa-request`
    /// (the FIPA parameter `protocol`).
    public var interactionProtocol: String?
    /// Identifies the conversation the message belongs to.
    public var conversationID: String?
    /// An expression a reply should quote in its ``inReplyTo``.
    public var replyWith: String?
    /// The ``replyWith`` of the message this one answers.
    public var inReplyTo: String?
    /// The latest time by which the sender wants a reply, kept to the millisecond
    /// (the precision of FIPA date-times) so that every codec gives it back exactly.
    public var replyBy: Date? {
        didSet { replyBy = Timestamp.rounded(replyBy) }
    }
    /// User-defined parameters; their names must start with `X-` (e.g. `X-priority`),
    /// or encoding the message fails.
    public var userDefined: [String: String]

    /// Creates a message; every parameter but the performative is optional.
    public init(
        _ performative: Performative,
        sender: AgentIdentifier? = nil,
        receivers: [AgentIdentifier] = [],
        replyTo: [AgentIdentifier] = [],
        content: String? = nil,
        language: String? = nil,
        encoding: String? = nil,
        ontology: String? = nil,
        interactionProtocol: String? = nil,
        conversationID: String? = nil,
        replyWith: String? = nil,
        inReplyTo: String? = nil,
        replyBy: Date? = nil,
        userDefined: [String: String] = [:]
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
        self.replyBy = Timestamp.rounded(replyBy)
        self.userDefined = userDefined
    }

    /// Creates the reply to this message with the conversation parameters filled in:
    /// sent to ``replyTo`` (or the sender), same conversation, protocol, language and
    /// ontology, `in-reply-to` quoting this message's `reply-with`.
    public func makeReply(_ performative: Performative, content: String? = nil) -> ACLMessage {
        ACLMessage(
            performative,
            receivers: replyTo.isEmpty ? (sender.map { [$0] } ?? []) : replyTo,
            content: content,
            language: language,
            encoding: encoding,
            ontology: ontology,
            interactionProtocol: interactionProtocol,
            conversationID: conversationID,
            inReplyTo: replyWith
        )
    }
}
