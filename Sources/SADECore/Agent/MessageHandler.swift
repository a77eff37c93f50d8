import SADEACL

/// Reacts to received messages that match a template, on the agent's own executor,
/// before the reasoning cycle that every message triggers.
///
/// The body runs isolated to the agent, so it can read and set beliefs and send
/// replies directly. Keep it short: long work belongs in an action or behaviour.
public struct MessageHandler: Sendable {
    /// The messages this handler reacts to.
    public let template: MessageTemplate
    let body: @Sendable (isolated Agent, ACLMessage) throws -> Void

    /// Creates a handler for messages matching `template`.
    public init(_ template: MessageTemplate = .any, _ body: @escaping @Sendable (isolated Agent, ACLMessage) throws -> Void) {
        self.template = template
        self.body = body
    }

    /// Creates a handler for messages with one of the given performatives.
    public static func on(
        _ performatives: Performative...,
        perform body: @escaping @Sendable (isolated Agent, ACLMessage) throws -> Void
    ) -> MessageHandler {
        MessageHandler(MessageTemplate(performatives: Set(performatives)), body)
    }
}
