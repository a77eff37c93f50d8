import SADEACL

extension Agent {
    /// Sends a message from this agent, waiting while an outgoing queue to another
    /// platform is full (backpressure) instead of getting a `queue-full` failure back.
    /// Otherwise like ``send(_:)``.
    public nonisolated func sendWhenReady(_ message: ACLMessage) async {
        if let message = outgoing(message) { await environment.routeWhenReady(message) }
    }
}
