import SADEACL

extension Agent {
    /// Sends a message from this agent, waiting while an outgoing queue to another
    /// platform is full (backpressure) instead of getting a `queue-full` failure back.
    /// Otherwise like ``send(_:)``.
    public nonisolated func sendWhenReady(_ message: ACLMessage) async {
        guard mailbox.withLock({ $0.canSend }) else {
            logger.warning(
                "message not sent: the agent is not active",
                metadata: ["performative": "\(message.performative)", "receivers": "\(message.receivers)"])
            return
        }
        var message = message
        if message.sender == nil { message.sender = identifier }
        await environment.routeWhenReady(message)
    }
}
