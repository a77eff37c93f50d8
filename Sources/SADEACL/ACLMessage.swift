import Foundation

/// A FIPA-ACL message: a communicative act plus the parameters of fipa00061.
///
/// Only ``performative`` is mandatory; every other parameter is optional. Build one
/// with the memberwise initialiser, or answer a received message with
/// ``makeReply(_:content:)``, which fills in the conversation parameters.
///
/// A value type with its parameters in one shared, copy-on-write box: a message is
/// copied at every step of its delivery (mailbox, handlers, reasoning trigger), and
/// copying one reference is much cheaper than copying a dozen strings and arrays.
public struct ACLMessage: Hashable, Sendable {
    private var storage: Storage
    /// What the sender means by the message.
    public var performative: Performative {
        get { storage.parameters.performative }
        _modify { yield &uniqueStorage().parameters.performative }
        set { uniqueStorage().parameters.performative = newValue }
    }
    /// Who sent the message. The platform fills it in when an agent sends.
    public var sender: AgentIdentifier? {
        get { storage.parameters.sender }
        _modify { yield &uniqueStorage().parameters.sender }
        set { uniqueStorage().parameters.sender = newValue }
    }
    /// Who should receive the message.
    public var receivers: [AgentIdentifier] {
        get { storage.parameters.receivers }
        _modify { yield &uniqueStorage().parameters.receivers }
        set { uniqueStorage().parameters.receivers = newValue }
    }
    /// Where replies should go instead of to ``sender``.
    public var replyTo: [AgentIdentifier] {
        get { storage.parameters.replyTo }
        _modify { yield &uniqueStorage().parameters.replyTo }
        set { uniqueStorage().parameters.replyTo = newValue }
    }
    /// The content: an expression in ``language``.
    public var content: String? {
        get { storage.parameters.content }
        _modify { yield &uniqueStorage().parameters.content }
        set { uniqueStorage().parameters.content = newValue }
    }
    /// The language in which ``content`` is expressed, e.g. `fipa-sl`.
    public var language: String? {
        get { storage.parameters.language }
        _modify { yield &uniqueStorage().parameters.language }
        set { uniqueStorage().parameters.language = newValue }
    }
    /// The encoding of ``content``.
    public var encoding: String? {
        get { storage.parameters.encoding }
        _modify { yield &uniqueStorage().parameters.encoding }
        set { uniqueStorage().parameters.encoding = newValue }
    }
    /// The ontology that gives meaning to the symbols in ``content``.
    public var ontology: String? {
        get { storage.parameters.ontology }
        _modify { yield &uniqueStorage().parameters.ontology }
        set { uniqueStorage().parameters.ontology = newValue }
    }
    /// The interaction protocol the message is part of, e.g. `fipa-request`
    /// (the FIPA parameter `protocol`).
    public var interactionProtocol: String? {
        get { storage.parameters.interactionProtocol }
        _modify { yield &uniqueStorage().parameters.interactionProtocol }
        set { uniqueStorage().parameters.interactionProtocol = newValue }
    }
    /// Identifies the conversation the message belongs to.
    public var conversationID: String? {
        get { storage.parameters.conversationID }
        _modify { yield &uniqueStorage().parameters.conversationID }
        set { uniqueStorage().parameters.conversationID = newValue }
    }
    /// An expression a reply should quote in its ``inReplyTo``.
    public var replyWith: String? {
        get { storage.parameters.replyWith }
        _modify { yield &uniqueStorage().parameters.replyWith }
        set { uniqueStorage().parameters.replyWith = newValue }
    }
    /// The ``replyWith`` of the message this one answers.
    public var inReplyTo: String? {
        get { storage.parameters.inReplyTo }
        _modify { yield &uniqueStorage().parameters.inReplyTo }
        set { uniqueStorage().parameters.inReplyTo = newValue }
    }
    /// The latest time by which the sender wants a reply, kept to the millisecond
    /// (the precision of FIPA date-times) so that every codec gives it back exactly.
    public var replyBy: Date? {
        get { storage.parameters.replyBy }
        set { uniqueStorage().parameters.replyBy = Timestamp.rounded(newValue) }
    }
    /// User-defined parameters; their names must start with `X-` (e.g. `X-priority`),
    /// or encoding the message fails.
    public var userDefined: [String: String] {
        get { storage.parameters.userDefined }
        _modify { yield &uniqueStorage().parameters.userDefined }
        set { uniqueStorage().parameters.userDefined = newValue }
    }

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
        storage = Storage(
            Parameters(
                performative: performative, sender: sender, receivers: receivers, replyTo: replyTo,
                content: content, language: language, encoding: encoding, ontology: ontology,
                interactionProtocol: interactionProtocol, conversationID: conversationID, replyWith: replyWith,
                inReplyTo: inReplyTo, replyBy: Timestamp.rounded(replyBy), userDefined: userDefined))
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

    /// The box, copied first if another message shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Messages are equal when every parameter is.
    public static func == (lhs: ACLMessage, rhs: ACLMessage) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.parameters == rhs.storage.parameters
    }

    /// Hashes every parameter.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.parameters)
    }
}
