import SADEACL

/// The successful end of a FIPA Request (fipa00026) or Query (fipa00027).
public struct RequestOutcome: Hashable, Sendable {
    /// The `agree` the responder sent before the result, if it sent one.
    public let agreement: ACLMessage?
    /// The `inform` with the result.
    public let result: ACLMessage

    /// The result's content.
    public var content: String? { result.content }
}

extension Agent {
    /// Runs the FIPA Request protocol (fipa00026) as initiator: sends `message` (a
    /// `request` to one receiver) and waits for the result.
    ///
    /// The responder may answer at once with the result (`inform`) or first `agree`
    /// and send the result later. Replies of the conversation go to this call only,
    /// not to the agent's handlers or BDI cycle.
    ///
    /// ```swift
    /// let outcome = try await agent.request(
    ///     ACLMessage(.request, receivers: ["Pharmacy"], content: "(deliver insulin)"), timeout: .seconds(5))
    /// print(outcome.content ?? "done")
    /// ```
    ///
    /// - Parameter timeout: how long the whole conversation may take, agreement and
    ///   result together, on the platform clock; the message's `reply-by` says the
    ///   same in wall-clock time.
    /// - Returns: the result and the agreement, if one came.
    /// - Throws: ``InteractionError/refused(_:)``, ``InteractionError/failed(_:)``
    ///   (also when the message could not be delivered),
    ///   ``InteractionError/notUnderstood(_:)``, ``InteractionError/timedOut(after:)``,
    ///   ``InteractionError/agentStopped``, ``InteractionError/agentNotActive(_:)``,
    ///   ``InteractionError/cancelled`` or ``InteractionError/invalidMessage(_:)``.
    public func request(_ message: ACLMessage, timeout: Duration) async throws(InteractionError) -> RequestOutcome {
        guard message.performative == .request else {
            throw .invalidMessage("a FIPA Request starts with a request, not a \(message.performative)")
        }
        return try await initiateRequestLike(message, protocol: "fipa-request", timeout: timeout)
    }

    /// Asks `receiver` to perform the action in `content`; see ``request(_:timeout:)``.
    public func request(
        to receiver: AgentIdentifier, content: String, language: String? = nil, ontology: String? = nil,
        timeout: Duration
    ) async throws(InteractionError) -> RequestOutcome {
        let message = ACLMessage(.request, receivers: [receiver], content: content, language: language, ontology: ontology)
        return try await request(message, timeout: timeout)
    }

    /// Runs the FIPA Query protocol (fipa00027) with a `query-if`: asks whether the
    /// proposition in the message's content is true. Returns the `inform` with the
    /// answer; throws like ``request(_:timeout:)``.
    public func queryIf(_ message: ACLMessage, timeout: Duration) async throws(InteractionError) -> ACLMessage {
        guard message.performative == .queryIf else {
            throw .invalidMessage("queryIf sends a query-if, not a \(message.performative)")
        }
        return try await initiateRequestLike(message, protocol: "fipa-query", timeout: timeout).result
    }

    /// Asks `receiver` whether the proposition in `content` is true; see ``queryIf(_:timeout:)``.
    public func queryIf(to receiver: AgentIdentifier, content: String, timeout: Duration) async throws(InteractionError) -> ACLMessage {
        try await queryIf(ACLMessage(.queryIf, receivers: [receiver], content: content), timeout: timeout)
    }

    /// Runs the FIPA Query protocol (fipa00027) with a `query-ref`: asks for the
    /// objects the referential expression in the content refers to. Returns the
    /// `inform` with the answer; throws like ``request(_:timeout:)``.
    public func queryRef(_ message: ACLMessage, timeout: Duration) async throws(InteractionError) -> ACLMessage {
        guard message.performative == .queryRef else {
            throw .invalidMessage("queryRef sends a query-ref, not a \(message.performative)")
        }
        return try await initiateRequestLike(message, protocol: "fipa-query", timeout: timeout).result
    }

    /// Asks `receiver` for what the expression in `content` refers to; see ``queryRef(_:timeout:)``.
    public func queryRef(to receiver: AgentIdentifier, content: String, timeout: Duration) async throws(InteractionError) -> ACLMessage {
        try await queryRef(ACLMessage(.queryRef, receivers: [receiver], content: content), timeout: timeout)
    }

    /// Request and Query share one shape: the act → optional `agree` or
    /// `refuse` / `not-understood` → `inform` or `failure`.
    private func initiateRequestLike(
        _ message: ACLMessage, protocol name: String, timeout: Duration
    ) async throws(InteractionError) -> RequestOutcome {
        guard message.receivers.count == 1, let responder = message.receivers.first else {
            throw .invalidMessage(
                "a \(message.performative) goes to exactly one receiver, this one names \(message.receivers.count); "
                    + "use a contract net or one conversation per receiver")
        }
        var channel = try openChannel(preferredID: message.conversationID)
        defer { closeChannel(channel) }
        send(message, in: channel.id, protocol: name, replyWithin: timeout)
        channel.startTimer(0, after: timeout, clock: environment.clock)
        var agreement: ACLMessage?
        while true {
            guard let signal = await channel.next() else { throw .cancelled }
            let reply: ACLMessage
            switch signal {
            case .agentStopped: throw .agentStopped
            case .deadline: throw .timedOut(after: timeout)
            case .message(let message): reply = message
            }
            if reply.isDeliveryFailure {
                // A failure about our own not-understood to a stranger is not the responder's.
                let target = undeliveredReceiver(of: reply)
                if target == nil || isSameAgent(target, responder) { throw .failed(reply) }
                continue
            }
            guard isSameAgent(reply.sender, responder) else {
                answerNotUnderstood(reply, reason: "the sender is not a party to this conversation")
                continue
            }
            switch reply.performative {
            case .agree where agreement == nil: agreement = reply
            case .refuse where agreement == nil: throw .refused(reply)
            case .notUnderstood where agreement == nil: throw .notUnderstood(reply)
            case .inform: return RequestOutcome(agreement: agreement, result: reply)
            case .failure: throw .failed(reply)
            default:
                let stage = agreement == nil ? "in answer to a \(message.performative)" : "after agree"
                answerNotUnderstood(reply, reason: "a \(reply.performative) is not expected \(stage)")
            }
        }
    }
}
