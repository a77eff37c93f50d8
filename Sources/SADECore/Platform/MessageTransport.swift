import SADEACL

/// A way to carry messages to agents on other platforms (the transport hot spot).
///
/// A platform routes a message through a transport when the receiver has a
/// transport address that is not one of the platform's own. `SADENet`'s TCP transport
/// is one; attach it with ``Environment/attach(_:)``.
///
/// A transport that accepts a message owns it from then on: if it later cannot
/// deliver it, it tells the sender through ``Environment/returnToSender(_:failure:)``.
public protocol MessageTransport: Sendable {
    /// The addresses where this platform can be reached through the transport, e.g.
    /// `tcp://10.0.0.5:7000`; stamped on outgoing senders so that replies find their way.
    var addresses: [String] { get }

    /// Whether the transport can carry messages to `address` (e.g. its URL scheme).
    func canReach(_ address: String) -> Bool

    /// Takes a message for `receiver`, reachable at `address`, without waiting.
    /// Returns why it cannot, e.g. ``DeliveryFailure/queueFull(_:)`` while the outgoing
    /// queue to that platform is full.
    func send(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) -> DeliveryFailure?

    /// Takes a message for `receiver`, waiting while the outgoing queue to its
    /// platform is full (backpressure).
    func sendWhenReady(_ message: ACLMessage, to receiver: AgentIdentifier, at address: String) async -> DeliveryFailure?
}
