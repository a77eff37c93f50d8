import SADEACL

extension Environment {
    /// Delivers a message to each of its receivers: on this platform directly, on
    /// another platform through an attached ``MessageTransport``. A receiver that cannot
    /// be reached gets the message back to the sender as a FIPA `failure`.
    ///
    /// Never waits: a full outgoing queue is a ``DeliveryFailure/queueFull(_:)``
    /// failure. Agents send with ``Agent/send(_:)``; call this directly to inject a
    /// message from outside any agent (its sender then gets the failures, if it is an agent).
    public func route(_ message: ACLMessage) {
        sniffed(message)
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

    /// Like ``route(_:)``, but waits while an outgoing queue to another platform is
    /// full instead of failing, so a fast sender is slowed down to what the network
    /// and the other platform take (backpressure).
    public func routeWhenReady(_ message: ACLMessage) async {
        sniffed(message)
        guard !message.receivers.isEmpty else {
            returnToSender(message, failure: .noReceiver)
            return
        }
        for receiver in message.receivers {
            let failure: DeliveryFailure?
            switch destination(of: receiver) {
            case .local(let local): failure = deliverLocally(message, to: receiver, named: local)
            case .remote(let transport, let address):
                failure = await transport.sendWhenReady(stampingAddresses(message), to: receiver, at: address)
                if failure == nil { metrics.delivered.increment() }
            case .undeliverable(let reason): failure = reason
            }
            if let failure { returnToSender(message, failure: failure) }
        }
    }

    /// Delivers a message that arrived over a transport to its receiver on this
    /// platform; addresses are not looked at. A failure goes back to the sender.
    public func deliverArrived(_ message: ACLMessage, to receiver: AgentIdentifier) {
        sniffed(message, arrivingFor: receiver)
        let failure =
            if let local = localName(of: receiver) {
                deliverLocally(message, to: receiver, named: local)
            } else {
                DeliveryFailure.unknownAgent(receiver)
            }
        if let failure { returnToSender(message, failure: failure) }
    }

    /// Sends a `failure` from the AMS to the sender of an undeliverable message, with
    /// the reason in `X-failure-reason` and the receiver in `X-undelivered-to`. A
    /// failure that cannot itself be delivered is logged, never bounced again.
    public func returnToSender(_ message: ACLMessage, failure: DeliveryFailure) {
        metrics.countFailure(failure)
        let isFailureNotice = message.performative == .failure && message.sender?.localName == "ams"
        guard let sender = message.sender, !isFailureNotice else {
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
        sniffed(notice)
        if let problem = deliver(notice, to: sender) {
            logger.warning(
                "delivery failure could not be returned to its sender",
                metadata: ["sender": "\(sender)", "reason": "\(failure)", "return": "\(problem)"])
        }
    }

    /// Whether `agent` has transport addresses and none of them is this platform's:
    /// it lives on another platform.
    func isElsewhere(_ agent: AgentIdentifier) -> Bool {
        guard !agent.addresses.isEmpty else { return false }
        let own = transports.withLock { $0.ownAddresses }
        return !agent.addresses.contains(where: own.contains)
    }

    /// Where a receiver lives, as seen from this platform.
    enum Destination {
        case local(String)
        case remote(any MessageTransport, address: String)
        case undeliverable(DeliveryFailure)
    }

    /// A receiver with an address that is not this platform's own is remote; one
    /// without addresses is local if its name has no platform part or this one's.
    func destination(of receiver: AgentIdentifier) -> Destination {
        var addresses = receiver.addresses
        if addresses.isEmpty, let platform = receiver.platform, platform != name, let found = foundPlatforms.withLock({ $0[String(platform)] }) {
            addresses = found  // a platform found by discovery
        }
        if !addresses.isEmpty {
            let (transports, own) = transports.withLock { ($0.attached, $0.ownAddresses) }
            if !addresses.contains(where: own.contains) {
                for address in addresses {
                    if let transport = transports.first(where: { $0.canReach(address) }) {
                        return .remote(transport, address: address)
                    }
                }
                let listed = addresses.joined(separator: ", ")
                return .undeliverable(.unreachable(receiver, reason: "no transport for \(listed)"))
            }
        }
        guard let local = localName(of: receiver) else {
            return .undeliverable(.unreachable(receiver, reason: "no address for platform '\(receiver.platform ?? "")'"))
        }
        return .local(local)
    }

    /// Puts the message in the receiver's mailbox or hands it to a transport, or says
    /// why it cannot.
    func deliver(_ message: ACLMessage, to receiver: AgentIdentifier) -> DeliveryFailure? {
        switch destination(of: receiver) {
        case .local(let local): deliverLocally(message, to: receiver, named: local)
        case .remote(let transport, let address):
            if let failure = transport.send(stampingAddresses(message), to: receiver, at: address) {
                failure
            } else {
                countDelivered()
            }
        case .undeliverable(let failure): failure
        }
    }

    private func deliverLocally(_ message: ACLMessage, to receiver: AgentIdentifier, named local: String) -> DeliveryFailure? {
        let agent = registry.withLock({ $0[local] }) ?? platformAgents.withLock({ $0[local] })
        guard let agent else { return .unknownAgent(receiver) }
        return agent.accept(message) ? countDelivered() : .agentStopped(receiver)
    }

    /// Counts a delivered message; `nil`, the absence of a failure.
    private func countDelivered() -> DeliveryFailure? {
        metrics.delivered.increment()
        return nil
    }

    /// The message with this platform's addresses on the sender and reply-to agents
    /// that live here, so that the other platform can answer.
    private func stampingAddresses(_ message: ACLMessage) -> ACLMessage {
        let own = addresses
        guard !own.isEmpty else { return message }
        func stamped(_ agent: AgentIdentifier) -> AgentIdentifier {
            guard agent.addresses.isEmpty, localName(of: agent) != nil else { return agent }
            var agent = agent
            if agent.platform == nil { agent.name += "@\(name)" }
            agent.addresses = own
            return agent
        }
        var message = message
        message.sender = message.sender.map(stamped)
        message.replyTo = message.replyTo.map(stamped)
        return message
    }
}
