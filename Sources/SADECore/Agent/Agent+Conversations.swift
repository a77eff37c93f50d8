import Foundation
import SADEACL

/// The bookkeeping behind the interaction protocols an agent initiates (see
/// `Protocols/`): every conversation it started, by conversation-id, with the
/// `reply-with` of each message it sent in it.
///
/// A received message that belongs to a running conversation goes to the waiting
/// initiator only: it is reported as ``AgentEvent/messageReceived(_:)`` but runs no
/// message handler and no BDI cycle. The initiator asked for that answer and is
/// awaiting it; letting the plans react to it as well would handle it twice.
extension Agent {
    /// Hands `message` to the conversation it belongs to, if this agent initiated
    /// one with its conversation-id. Returns whether the message was taken.
    func routeToConversation(_ message: ACLMessage) -> Bool {
        switch conversations.route(message, fromSelf: isSameAgent(message.sender, identifier)) {
        case .notOurs:
            return false
        case .deliver(let deliver):
            if deliver(.message(message)), let id = message.conversationID { conversations.close(id) }
            return true
        case .foreignReply:
            answerNotUnderstood(message, reason: "its in-reply-to quotes no message of this conversation")
            return true
        case .swallowed:
            return true
        }
    }

    /// Opens a conversation whose messages are delivered to a new channel.
    ///
    /// - Parameter preferredID: the conversation-id the caller set, used if no
    ///   running conversation has it; a fresh unique id otherwise.
    func openChannel(preferredID: String?) throws(InteractionError) -> InitiatorChannel {
        guard state == .active else { throw .agentNotActive(state) }
        let id = conversationID(preferring: preferredID)
        let channel = InitiatorChannel(id: id)
        let continuation = channel.continuation
        conversations.open(id) { signal in
            continuation.yield(signal)
            return false  // the initiator closes the channel itself
        }
        return channel
    }

    /// A conversation-id for a new conversation: `preferred` if free.
    func conversationID(preferring preferred: String?) -> String {
        if let preferred, !preferred.isEmpty, !conversations.contains(preferred) { return preferred }
        return conversations.makeID(for: name)
    }

    /// Ends a conversation: later messages with its id are ordinary messages again.
    func closeChannel(_ channel: InitiatorChannel) {
        conversations.close(channel.id)
        channel.finish()
    }

    /// Sends `message` as part of conversation `id`: sets the conversation-id, a
    /// fresh `reply-with`, the protocol if missing, and `reply-by` when an answer is
    /// expected within `replyWithin`. Returns the message as sent.
    ///
    /// `reply-by` is wall-clock time, informational for the receiver; the initiator
    /// itself times out on the platform clock.
    @discardableResult
    func send(_ message: ACLMessage, in id: String, protocol name: String, replyWithin: Duration?) -> ACLMessage {
        var message = message
        message.conversationID = id
        message.replyWith = conversations.makeReplyWith(in: id)
        if message.interactionProtocol == nil { message.interactionProtocol = name }
        if message.sender == nil { message.sender = identifier }
        if let replyWithin {
            message.replyBy = Date().addingTimeInterval(replyWithin.seconds)
        }
        send(message)
        return message
    }

    /// Ends every running conversation; their initiators throw
    /// ``InteractionError/agentStopped``. Called when the agent stops.
    func endConversations() {
        for entry in conversations.closeAll() { _ = entry.deliver(.agentStopped) }
    }

    /// Answers `message` with `not-understood`, saying why. Never answers a
    /// `not-understood`, a `failure` or a platform agent (`ams`, `df`), so that two
    /// parties never bounce messages forever.
    nonisolated func answerNotUnderstood(_ message: ACLMessage, reason: String) {
        guard let sender = message.sender, ![.notUnderstood, .failure].contains(message.performative),
              !["ams", "df"].contains(sender.localName)
        else { return }
        let escaped = reason.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        logger.notice(
            "unexpected message answered with not-understood",
            metadata: ["performative": "\(message.performative)", "sender": "\(sender)", "reason": "\(reason)"])
        send(message.makeReply(.notUnderstood, content: "((\(message.performative)) \"\(escaped)\")"))
    }

    /// The full name of `agent`: a name without `@platform` is on this agent's platform.
    nonisolated func fullName(of agent: AgentIdentifier) -> String {
        agent.platform == nil ? "\(agent.name)@\(environment.name)" : agent.name
    }

    /// Whether `sender` is `agent`, however each is spelled (`P1` or `P1@platform`).
    /// An agent addressed without its platform at another platform's address (`echo`
    /// at `tcp://…`) answers with its full name (`echo@beta`), so for such an agent
    /// the local names are compared.
    nonisolated func isSameAgent(_ sender: AgentIdentifier?, _ agent: AgentIdentifier) -> Bool {
        guard let sender else { return false }
        if fullName(of: sender) == fullName(of: agent) { return true }
        return agent.platform == nil && environment.isElsewhere(agent) && sender.localName == agent.localName
    }

    /// The key under which `sender` is filed in `table` (keyed by ``fullName(of:)``), if any.
    nonisolated func key(of sender: AgentIdentifier, in table: [String: AgentIdentifier]) -> String? {
        let name = fullName(of: sender)
        if table[name] != nil { return name }
        return table.first { isSameAgent(sender, $0.value) }?.key
    }

    /// The agent a delivery failure says the message did not reach, if it says.
    nonisolated func undeliveredReceiver(of failure: ACLMessage) -> AgentIdentifier? {
        failure.userDefined["X-undelivered-to"].map { AgentIdentifier(name: $0) }
    }
}
