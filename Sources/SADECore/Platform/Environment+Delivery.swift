import SADEACL

/// Why a message could not be delivered to one of its receivers.
public enum DeliveryFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// No agent has this name on the platform.
    case unknownAgent(AgentIdentifier)
    /// The agent stopped before it could handle the message.
    case agentStopped(AgentIdentifier)
    /// The receiver lives on a platform this one cannot reach.
    case unreachable(AgentIdentifier, reason: String)
    /// The message names no receiver.
    case noReceiver

    /// The reason as a short code, sent as the `X-failure-reason` parameter.
    public var code: String {
        switch self {
        case .unknownAgent: "unknown-agent"
        case .agentStopped: "agent-stopped"
        case .unreachable: "unreachable"
        case .noReceiver: "no-receiver"
        }
    }

    /// The receiver the message did not reach, if there was one.
    public var receiver: AgentIdentifier? {
        switch self {
        case .unknownAgent(let receiver), .agentStopped(let receiver), .unreachable(let receiver, _): receiver
        case .noReceiver: nil
        }
    }

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unknownAgent(let receiver): "no agent named '\(receiver.name)' on this platform"
        case .agentStopped(let receiver): "agent '\(receiver.name)' stopped before handling the message"
        case .unreachable(let receiver, let reason): "agent '\(receiver.name)' is unreachable: \(reason)"
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

extension Environment {
    /// Delivers a message to each of its receivers on this platform. A receiver that
    /// cannot be reached gets the message back to the sender as a FIPA `failure`.
    ///
    /// Agents send with ``Agent/send(_:)``; call this directly to inject a message
    /// from outside any agent (its sender then gets the failures, if it is an agent).
    public func route(_ message: ACLMessage) {
        guard !message.receivers.isEmpty else {
            returnToSender(message, failure: .noReceiver)
            return
        }
        for receiver in message.receivers {
            if let failure = deliver(message, to: receiver) {
                returnToSender(message, failure: failure)
            }
        }
    }

    /// Puts the message in the receiver's mailbox, or says why it cannot.
    func deliver(_ message: ACLMessage, to receiver: AgentIdentifier) -> DeliveryFailure? {
        guard let local = localName(of: receiver) else {
            return .unreachable(receiver, reason: "no transport to platform '\(receiver.platform ?? "")'")
        }
        if Self.reservedNames.contains(local) {
            answerAsPlatform(message, to: receiver)
            return nil
        }
        guard let agent = registry.withLock({ $0[local]?.agent }) else { return .unknownAgent(receiver) }
        return agent.accept(message) ? nil : .agentStopped(receiver)
    }

    /// Handles a message to the platform's own `ams` or `df`, which take no requests
    /// over ACL yet (the Swift API is ``directory`` and the white-pages methods).
    /// A reply — such as an agent answering a delivery failure — is logged and ends
    /// there, so two parties never bounce messages forever; anything else gets one
    /// `not-understood`.
    private func answerAsPlatform(_ message: ACLMessage, to receiver: AgentIdentifier) {
        let isReply = message.inReplyTo != nil || [.failure, .notUnderstood, .inform, .agree, .refuse].contains(message.performative)
        guard !isReply, let sender = message.sender else {
            logger.notice(
                "message to the platform's \(receiver.localName) ignored",
                metadata: ["performative": "\(message.performative)", "sender": "\(message.sender?.name ?? "none")"])
            return
        }
        var answer = message.makeReply(
            .notUnderstood, content: "(platform-service-unavailable \"\(receiver.localName) answers no ACL requests yet\")")
        answer.sender = AgentIdentifier(name: "\(receiver.localName)@\(name)")
        answer.receivers = [sender]
        if let problem = deliver(answer, to: sender) {
            logger.warning("not-understood could not be returned", metadata: ["sender": "\(sender)", "reason": "\(problem)"])
        }
    }

    /// Sends a `failure` from the AMS to the sender of an undeliverable message. A
    /// failure that cannot itself be delivered is logged, never bounced again.
    func returnToSender(_ message: ACLMessage, failure: DeliveryFailure) {
        let isOwnFailure = message.performative == .failure && message.sender == amsIdentifier
        guard let sender = message.sender, !isOwnFailure else {
            logger.warning(
                "undeliverable message dropped: nobody to tell",
                metadata: ["performative": "\(message.performative)", "reason": "\(failure)"])
            return
        }
        var notice = message.makeReply(.failure, content: failure.content)
        notice.sender = amsIdentifier
        notice.receivers = [sender]
        notice.userDefined["X-failure-reason"] = failure.code
        if let receiver = failure.receiver { notice.userDefined["X-undelivered-to"] = receiver.name }
        if let problem = deliver(notice, to: sender) {
            logger.warning(
                "delivery failure could not be returned to its sender",
                metadata: ["sender": "\(sender)", "reason": "\(failure)", "return": "\(problem)"])
        }
    }
}
