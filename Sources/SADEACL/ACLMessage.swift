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
        get { storage.performative }
        _modify { yield &uniqueStorage().performative }
        set { uniqueStorage().performative = newValue }
    }
    /// Who sent the message. The platform fills it in when an agent sends.
    public var sender: AgentIdentifier? {
        get { storage.sender }
        _modify { yield &uniqueStorage().sender }
        set { uniqueStorage().sender = newValue }
    }
    /// Who should receive the message.
    public var receivers: [AgentIdentifier] {
        get { storage.receivers }
        _modify { yield &uniqueStorage().receivers }
        set { uniqueStorage().receivers = newValue }
    }
    /// Where replies should go instead of to ``sender``.
    public var replyTo: [AgentIdentifier] {
        get { storage.replyTo }
        _modify { yield &uniqueStorage().replyTo }
        set { uniqueStorage().replyTo = newValue }
    }
    /// The content: an expression in ``language``.
    public var content: String? {
        get { storage.content }
        _modify { yield &uniqueStorage().content }
        set { uniqueStorage().content = newValue }
    }
    /// The language in which ``content`` is expressed, e.g. `fipa-sl`.
    public var language: String? {
        get { storage.language }
        _modify { yield &uniqueStorage().language }
        set { uniqueStorage().language = newValue }
    }
    /// The encoding of ``content``.
    public var encoding: String? {
        get { storage.encoding }
        _modify { yield &uniqueStorage().encoding }
        set { uniqueStorage().encoding = newValue }
    }
    /// The ontology that gives meaning to the symbols in ``content``.
    public var ontology: String? {
        get { storage.ontology }
        _modify { yield &uniqueStorage().ontology }
        set { uniqueStorage().ontology = newValue }
    }
    /// The interaction protocol the message is part of, e.g. `fipa-request`
    /// (the FIPA parameter `protocol`).
    public var interactionProtocol: String? {
        get { storage.interactionProtocol }
        _modify { yield &uniqueStorage().interactionProtocol }
        set { uniqueStorage().interactionProtocol = newValue }
    }
    /// Identifies the conversation the message belongs to.
    public var conversationID: String? {
        get { storage.conversationID }
        _modify { yield &uniqueStorage().conversationID }
        set { uniqueStorage().conversationID = newValue }
    }
    /// An expression a reply should quote in its ``inReplyTo``.
    public var replyWith: String? {
        get { storage.replyWith }
        _modify { yield &uniqueStorage().replyWith }
        set { uniqueStorage().replyWith = newValue }
    }
    /// The ``replyWith`` of the message this one answers.
    public var inReplyTo: String? {
        get { storage.inReplyTo }
        _modify { yield &uniqueStorage().inReplyTo }
        set { uniqueStorage().inReplyTo = newValue }
    }
    /// The latest time by which the sender wants a reply, kept to the millisecond
    /// (the precision of FIPA date-times) so that every codec gives it back exactly.
    public var replyBy: Date? {
        get { storage.replyBy }
        set { uniqueStorage().replyBy = Timestamp.rounded(newValue) }
    }
    /// User-defined parameters; their names must start with `X-` (e.g. `X-priority`),
    /// or encoding the message fails.
    public var userDefined: [String: String] {
        get { storage.userDefined }
        _modify { yield &uniqueStorage().userDefined }
        set { uniqueStorage().userDefined = newValue }
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
            performative: performative, sender: sender, receivers: receivers, replyTo: replyTo, content: content,
            language: language, encoding: encoding, ontology: ontology, interactionProtocol: interactionProtocol,
            conversationID: conversationID, replyWith: replyWith, inReplyTo: inReplyTo,
            replyBy: Timestamp.rounded(replyBy), userDefined: userDefined)
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
