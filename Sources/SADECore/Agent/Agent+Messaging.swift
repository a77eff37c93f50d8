import SADEACL

extension Agent {
    /// Sends a message from this agent. The sender is filled in if missing.
    ///
    /// Sending never waits: the message is routed by the platform at once. If a
    /// receiver is unknown or cannot be reached, a `failure` comes back to this
    /// agent like any other message. Only an active agent sends: a message from an
    /// agent that is not started, suspended or stopped is not sent, and logged.
    public nonisolated func send(_ message: ACLMessage) {
        if let message = outgoing(message) { environment.route(message) }
    }

    /// The message with this agent as sender if none is set, or `nil` (and a log
    /// entry) when the agent is not active and so may not send.
    nonisolated func outgoing(_ message: ACLMessage) -> ACLMessage? {
        guard mailbox.withLock({ $0.noteSending() }) else {
            logger.warning(
                "message not sent: the agent is not active",
                metadata: ["performative": "\(message.performative)", "receivers": "\(message.receivers)"])
            return nil
        }
        var message = message
        if message.sender == nil { message.sender = identifier }
        return message
    }

    /// Adds a message handler; it sees messages handled from now on.
    public func addHandler(_ handler: MessageHandler) {
        handlers.append(handler)
    }

    /// Accepts a message into the mailbox and makes sure a drain will handle it: the
    /// agent's executor is scheduled (no task is created for it).
    /// Returns `false` if the agent is stopped.
    nonisolated func accept(_ message: ACLMessage) -> Bool {
        guard let mustSchedule = mailbox.withLock({ $0.accept(message) }) else { return false }
        if mustSchedule { executor.scheduleDrain(of: self) }
        return true
    }

    /// How many messages wait in the mailbox, counting the batch being handled as a whole
    /// until it ends (an agent busy with a large batch is seen as behind).
    public nonisolated var mailboxDepth: Int { mailbox.withLock { $0.depth } }

    /// Schedules a drain if messages wait and none is scheduled (after a resume).
    func scheduleMailboxDrain() {
        if mailbox.withLock({ $0.claimDrain() }) { executor.scheduleDrain(of: self) }
    }

    /// The largest batch buffer an agent keeps between batches.
    static let keptDrainCapacity = 64

    /// Handles the messages waiting now, in arrival order; run by the agent's
    /// executor, which calls it again (after the agent's other waiting work) while it
    /// returns `true`, so one busy agent cannot monopolise a thread.
    func drainMailboxBatch() -> Bool {
        guard state == .active else {
            // Suspended: messages wait for resume. Not started (a failed start):
            // start's failure path returned them. Stopped: stop returned them.
            if state != .stopped { mailbox.withLock { $0.putBack([]) } }
            return false
        }
        mailbox.withLock { $0.takeAll(into: &drainBuffer) }
        defer { drainBuffer.removeAll(keepingCapacity: drainBuffer.capacity <= Self.keptDrainCapacity) }
        for (index, message) in drainBuffer.enumerated() {
            guard state == .active else {
                let rest = drainBuffer[index...]
                if state == .stopped {
                    for message in rest { environment.returnToSender(message, failure: .agentStopped(identifier)) }
                } else {
                    mailbox.withLock { $0.putBack(rest) }
                }
                return false
            }
            handle(message)
        }
        return mailbox.withLock { $0.continueDrain() }
    }

    /// Routes a reply to the conversation waiting for it; otherwise runs the matching
    /// handlers, then the BDI cycle with the message as trigger.
    func handle(_ message: ACLMessage) {
        emit(.messageReceived(message))
        // A reply in a conversation this agent initiated goes to the waiting initiator
        // only, not to the handlers or the BDI cycle (see Agent+Conversations.swift).
        if routeToConversation(message) { return }
        isHandlingMessage = true
        for handler in handlers where handler.template.matches(message) {
            do {
                try handler.body(self, message)
            } catch {
                logger.error("message handler failed", metadata: ["error": "\(error)", "message": "\(message.performative)"])
                emit(.failed(activity: "handler for \(message.performative)", reason: "\(error)"))
            }
        }
        isHandlingMessage = false
        runBDICycle(trigger: .message(message))
    }
}
