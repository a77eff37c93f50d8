import SADEACL

/// Why an interaction protocol that an agent initiated (``Agent/request(_:timeout:)``,
/// ``Agent/queryIf(_:timeout:)``, ``Agent/contractNet(_:participants:deadline:resultTimeout:select:)``,
/// ``Agent/subscribe(_:timeout:)``) ended without the answer it asked for.
public enum InteractionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The responder refused; the message says why.
    case refused(ACLMessage)
    /// The responder tried and failed, or the platform could not deliver the message
    /// (a `failure` from `ams`, see ``deliveryFailureCode``).
    case failed(ACLMessage)
    /// The responder did not understand the message.
    case notUnderstood(ACLMessage)
    /// No answer came within the time allowed, measured on the platform clock.
    case timedOut(after: Duration)
    /// The initiating agent stopped while it was waiting.
    case agentStopped
    /// The initiating agent is not active (not started, suspended or stopped), so it
    /// cannot send.
    case agentNotActive(AgentState)
    /// The task waiting for the answer was cancelled.
    case cancelled
    /// The message cannot start this protocol; the text says what to change.
    case invalidMessage(String)

    /// The `X-failure-reason` code (`unknown-agent`, `agent-stopped`, `unreachable`,
    /// `timeout` …) when the platform could not deliver the message; `nil` otherwise.
    public var deliveryFailureCode: String? {
        guard case .failed(let failure) = self, failure.isDeliveryFailure else { return nil }
        return failure.userDefined["X-failure-reason"]
    }

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .refused(let reply):
            "\(reply.sender?.name ?? "the responder") refused: \(reply.content ?? "no reason given")"
        case .failed(let reply) where reply.isDeliveryFailure:
            "the message could not be delivered (\(reply.userDefined["X-failure-reason"] ?? "failure")): \(reply.content ?? "")"
        case .failed(let reply):
            "\(reply.sender?.name ?? "the responder") failed: \(reply.content ?? "no reason given")"
        case .notUnderstood(let reply):
            "\(reply.sender?.name ?? "the responder") did not understand the message: \(reply.content ?? "no reason given")"
        case .timedOut(let duration):
            "no answer within \(duration); raise the timeout or check that the responder is running"
        case .agentStopped:
            "the agent stopped while waiting for an answer"
        case .agentNotActive(let state):
            "the agent is \(state.rawValue); start or resume it before it initiates a conversation"
        case .cancelled:
            "the waiting task was cancelled"
        case .invalidMessage(let problem):
            "the message cannot start this interaction: \(problem)"
        }
    }
}

extension ACLMessage {
    /// Whether this is a delivery failure sent by a platform's AMS rather than an
    /// answer from the agent the message was meant for.
    var isDeliveryFailure: Bool {
        performative == .failure && sender?.localName == "ams" && userDefined["X-failure-reason"] != nil
    }
}
