import SADEACL

extension Agent {
    /// Runs the FIPA Subscribe protocol (fipa00035) as initiator: sends `message` (a
    /// `subscribe` to one receiver) and waits for the responder to `agree`.
    ///
    /// - Parameter timeout: how long the agreement may take, on the platform clock.
    ///   Once agreed, the subscription runs until cancelled, failed or the agent
    ///   stops.
    /// - Returns: the subscription, an asynchronous sequence of the responder's informs.
    /// - Throws: ``InteractionError/refused(_:)``, ``InteractionError/failed(_:)``
    ///   (also when the message could not be delivered),
    ///   ``InteractionError/notUnderstood(_:)``, ``InteractionError/timedOut(after:)``,
    ///   ``InteractionError/agentStopped``, ``InteractionError/agentNotActive(_:)``,
    ///   ``InteractionError/cancelled`` or ``InteractionError/invalidMessage(_:)``.
    public func subscribe(_ message: ACLMessage, timeout: Duration) async throws(InteractionError) -> Subscription {
        guard message.performative == .subscribe else {
            throw .invalidMessage("a FIPA Subscribe starts with a subscribe, not a \(message.performative)")
        }
        guard message.receivers.count == 1, let responder = message.receivers.first else {
            throw .invalidMessage(
                "a subscribe goes to exactly one receiver, this one names \(message.receivers.count); subscribe to each separately")
        }
        guard state == .active else { throw .agentNotActive(state) }
        var channel = InitiatorChannel(id: conversationID(preferring: message.conversationID))
        let feed = SubscriptionFeed(handshake: channel.continuation)
        conversations.open(channel.id) { [weak self] signal in
            feed.receive(signal, from: responder, agent: self)
        }
        let sent = send(message, in: channel.id, protocol: "fipa-subscribe", replyWithin: timeout)
        channel.startTimer(0, after: timeout, clock: environment.clock)
        defer { channel.finish() }
        let error: InteractionError
        switch await channel.next() {
        case nil: error = .cancelled
        case .agentStopped: error = .agentStopped
        case .deadline: error = .timedOut(after: timeout)
        case .message(let reply):
            switch reply.performative {
            case .agree, .inform:
                let agreement = reply.performative == .agree ? reply : nil
                return Subscription(conversationID: channel.id, agreement: agreement, subscribe: sent, agent: self, feed: feed)
            case .refuse: error = .refused(reply)
            case .notUnderstood: error = .notUnderstood(reply)
            default: error = .failed(reply)
            }
        }
        conversations.close(channel.id)
        feed.end(with: nil)
        throw error
    }

    /// Sends `cancel` for a running subscription and ends its sequence. The
    /// conversation stays open only to swallow what is still on its way, until the
    /// responder answers the cancel (or the agent stops).
    func cancel(_ subscription: Subscription) {
        subscription.feed.end(with: nil)
        let id = subscription.conversationID
        guard conversations.contains(id) else { return }
        guard state == .active else {
            conversations.close(id)
            return
        }
        let subscribe = subscription.subscribe
        let cancel = ACLMessage(
            .cancel, receivers: subscribe.receivers, content: subscribe.content, language: subscribe.language,
            ontology: subscribe.ontology)
        let sent = send(cancel, in: id, protocol: "fipa-subscribe", replyWithin: nil)
        if let replyWith = sent.replyWith { conversations.closeAfterReply(to: replyWith, in: id) }
    }
}
