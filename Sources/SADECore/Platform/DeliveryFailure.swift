import SADEACL

/// Why a message could not be delivered to one of its receivers.
public enum DeliveryFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// No agent has this name on the platform.
    case unknownAgent(AgentIdentifier)
    /// The agent stopped before it could handle the message.
    case agentStopped(AgentIdentifier)
    /// The receiver lives on a platform this one cannot reach.
    case unreachable(AgentIdentifier, reason: String)
    /// The receiver's platform did not take the message in time.
    case timedOut(AgentIdentifier, reason: String)
    /// The receiver's platform refused the message, e.g. too large or not decodable.
    case rejected(AgentIdentifier, reason: String)
    /// The outgoing queue to the receiver's platform is full; send again later, or
    /// use ``Agent/sendWhenReady(_:)``, which waits for room.
    case queueFull(AgentIdentifier)
    /// The message names no receiver.
    case noReceiver

    /// Every ``code``.
    public static let codes = ["unknown-agent", "agent-stopped", "unreachable", "timeout", "rejected", "queue-full", "no-receiver"]

    /// The reason as a short code, sent as the `X-failure-reason` parameter.
    public var code: String {
        switch self {
        case .unknownAgent: "unknown-agent"
        case .agentStopped: "agent-stopped"
        case .unreachable: "unreachable"
        case .timedOut: "timeout"
        case .rejected: "rejected"
        case .queueFull: "queue-full"
        case .noReceiver: "no-receiver"
        }
    }

    /// The receiver the message did not reach, if there was one.
    public var receiver: AgentIdentifier? {
        switch self {
        case .unknownAgent(let receiver), .agentStopped(let receiver), .unreachable(let receiver, _),
            .timedOut(let receiver, _), .rejected(let receiver, _), .queueFull(let receiver):
            receiver
        case .noReceiver: nil
        }
    }

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unknownAgent(let receiver): "no agent named '\(receiver.name)' on this platform"
        case .agentStopped(let receiver): "agent '\(receiver.name)' stopped before handling the message"
        case .unreachable(let receiver, let reason): "agent '\(receiver.name)' is unreachable: \(reason)"
        case .timedOut(let receiver, let reason): "delivery to '\(receiver.name)' timed out: \(reason)"
        case .rejected(let receiver, let reason): "the platform of '\(receiver.name)' refused the message: \(reason)"
        case .queueFull(let receiver): "the outgoing queue towards '\(receiver.name)' is full"
        case .noReceiver: "the message has no receiver"
        }
    }

    /// The content of the `failure` message: a FIPA-SL style proposition naming the
    /// receiver and the reason, e.g.
    /// `(MTS-error (agent-identifier :name Fireman) (unknown-agent "no agent named …"))`.
    var content: String {
        let who = receiver.map { "(agent-identifier :name \($0.name))" } ?? "(set)"
        let text = description.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "(MTS-error \(who) (\(code) \"\(text)\"))"
    }
}
