import SADEACL
import Synchronization

/// How a ``SubscriptionResponder`` answers a `subscribe`.
public enum SubscriptionDecision: Hashable, Sendable {
    /// Sends `agree` and adds the subscriber.
    case agree
    /// Sends `refuse` with this reason as content.
    case refuse(String)
    /// Sends `not-understood` with this reason as content.
    case notUnderstood(String)
}

/// The responder side of FIPA Subscribe (fipa00035), as part of an agent: keeps
/// the subscribers and informs them when ``publish(_:where:)`` is called.
///
/// ```swift
/// let alerts = SubscriptionResponder()
/// let monitor = Agent("Monitor", on: platform) {
///     alerts
///     CyclicAction("check", every: .seconds(60)) { _ in
///         if let alarm = await readAlarm() { alerts.publish(alarm) }
///     }
/// }
/// ```
///
/// A subscriber is removed when it sends `cancel` (answered `inform`, or `failure`
/// if it had no subscription) and when an inform cannot be delivered to it. Any
/// other message of the `fipa-subscribe` protocol is answered `not-understood`.
public final class SubscriptionResponder: AgentPart, Sendable {
    /// The subscriptions this responder takes; other messages pass by untouched.
    public let template: MessageTemplate
    private let decide: @Sendable (isolated Agent, ACLMessage) -> SubscriptionDecision
    private let subscribers = Mutex<[String: Subscriber]>([:])

    private struct Subscriber {
        let subscribe: ACLMessage
        weak var agent: Agent?
    }

    /// Creates a responder for subscriptions matching `template`; `decide` agrees
    /// to every subscription by default.
    public init(
        _ template: MessageTemplate = .any,
        decide: @escaping @Sendable (isolated Agent, ACLMessage) -> SubscriptionDecision = { _, _ in .agree }
    ) {
        self.template = template
        self.decide = decide
    }

    /// Adds the handler that answers subscriptions.
    public func contribute(to definition: inout AgentDefinition) {
        definition.handlers.append(handler)
    }

    /// The `subscribe` messages of the current subscribers.
    public var subscriptions: [ACLMessage] {
        subscribers.withLock { $0.values.map(\.subscribe) }
    }

    /// Sends an `inform` with `content` to every subscriber whose `subscribe`
    /// satisfies `filter` (all by default), in its own conversation. Returns how
    /// many were informed.
    @discardableResult
    public func publish(_ content: String, where filter: (ACLMessage) -> Bool = { _ in true }) -> Int {
        let targets = subscribers.withLock { $0.values.filter { filter($0.subscribe) } }
        for target in targets {
            target.agent?.send(target.subscribe.makeReply(.inform, content: content))
        }
        return targets.count
    }

    /// The responder as a message handler, for ``Agent/addHandler(_:)``.
    public var handler: MessageHandler {
        MessageHandler(.any) { [self] agent, message in
            handle(message, on: agent)
        }
    }

    private func subscriberKey(_ message: ACLMessage, subscriber: String, agent: Agent) -> String {
        "\(agent.name)|\(subscriber)|\(message.conversationID ?? message.replyWith ?? "")"
    }

    private func handle(_ message: ACLMessage, on agent: isolated Agent) {
        if message.isDeliveryFailure {
            // An inform that could not be delivered: that subscriber is gone.
            if let gone = agent.undeliveredReceiver(of: message) {
                subscribers.withLock { _ = $0.removeValue(forKey: subscriberKey(message, subscriber: agent.fullName(of: gone), agent: agent)) }
            }
            return
        }
        guard let senderID = message.sender else { return }
        let sender = agent.fullName(of: senderID)
        let key = subscriberKey(message, subscriber: sender, agent: agent)
        switch message.performative {
        case .subscribe where template.matches(message):
            switch decide(agent, message) {
            case .agree:
                // The agree goes first: an inform published meanwhile must not overtake it.
                agent.send(message.makeReply(.agree, content: message.content))
                subscribers.withLock { $0[key] = Subscriber(subscribe: message, agent: agent) }
            case .refuse(let reason): agent.send(message.makeReply(.refuse, content: reason))
            case .notUnderstood(let reason): agent.send(message.makeReply(.notUnderstood, content: reason))
            }
        case .cancel:
            if subscribers.withLock({ $0.removeValue(forKey: key) }) != nil {
                agent.send(message.makeReply(.inform, content: "(done)"))
            } else if message.interactionProtocol == "fipa-subscribe" {
                agent.send(message.makeReply(.failure, content: "(no-subscription)"))
            }
        default:
            if message.interactionProtocol == "fipa-subscribe", template.matches(message) {
                agent.answerNotUnderstood(message, reason: "a \(message.performative) is not expected by a subscription responder")
            }
        }
    }
}
