/// A pattern over messages: every field that is set must match, unset fields match
/// anything (JADE's `MessageTemplate`). Used to route received messages to handlers.
public struct MessageTemplate: Hashable, Sendable {
    /// Matches only these performatives, if set.
    public var performatives: Set<Performative>?
    /// Matches only this sender's local name, if set.
    public var senderName: String?
    /// Matches only this conversation, if set.
    public var conversationID: String?
    /// Matches only replies quoting this `reply-with`, if set.
    public var inReplyTo: String?
    /// Matches only this interaction protocol, if set.
    public var interactionProtocol: String?
    /// Matches only this ontology, if set.
    public var ontology: String?

    /// Creates a template; leave a field `nil` to accept any value.
    public init(
        performatives: Set<Performative>? = nil,
        senderName: String? = nil,
        conversationID: String? = nil,
        inReplyTo: String? = nil,
        interactionProtocol: String? = nil,
        ontology: String? = nil
    ) {
        self.performatives = performatives
        self.senderName = senderName
        self.conversationID = conversationID
        self.inReplyTo = inReplyTo
        self.interactionProtocol = interactionProtocol
        self.ontology = ontology
    }

    /// A template that matches every message.
    public static let any = MessageTemplate()

    /// A template that matches messages with one of the given performatives.
    public static func performative(_ performatives: Performative...) -> MessageTemplate {
        MessageTemplate(performatives: Set(performatives))
    }

    /// Whether `message` matches every field set in this template.
    public func matches(_ message: ACLMessage) -> Bool {
        if let performatives, !performatives.contains(message.performative) { return false }
        if let senderName, message.sender.map({ $0.localName == senderName }) != true { return false }
        if let conversationID, message.conversationID != conversationID { return false }
        if let inReplyTo, message.inReplyTo != inReplyTo { return false }
        if let interactionProtocol, message.interactionProtocol != interactionProtocol { return false }
        if let ontology, message.ontology != ontology { return false }
        return true
    }
}
