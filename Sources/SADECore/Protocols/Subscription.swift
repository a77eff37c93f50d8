import SADEACL
import Synchronization

/// A running FIPA Subscribe conversation (fipa00035) this agent initiated: the
/// responder's `inform`s as an asynchronous sequence.
///
/// ```swift
/// let alerts = try await nurse.subscribe(
///     ACLMessage(.subscribe, receivers: ["Monitor"], content: "(alerts :patient 7)"), timeout: .seconds(5))
/// for try await alert in alerts {
///     print(alert.content ?? "")
///     if done { await alerts.cancel() }
/// }
/// ```
///
/// The sequence ends when ``cancel()`` is called, and throws when the responder
/// sends `failure` (``InteractionError/failed(_:)``, also when it can no longer be
/// reached) or the agent stops (``InteractionError/agentStopped``). Iterate it from
/// one task only. Informs wait in the sequence until read.
public struct Subscription: AsyncSequence, Sendable {
    /// Each element is an `inform` from the responder.
    public typealias Element = ACLMessage
    /// The sequence throws only interaction errors.
    public typealias Failure = InteractionError

    /// The conversation-id of the subscription.
    public let conversationID: String
    /// The responder's `agree`; `nil` if it started informing without one.
    public let agreement: ACLMessage?
    /// The `subscribe` as sent.
    let subscribe: ACLMessage
    let agent: Agent
    let feed: SubscriptionFeed

    /// The iterator of the informs.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<SubscriptionFeed.Event>.Iterator
        var isOver = false

        /// The next `inform`, or `nil` once the subscription is cancelled.
        public mutating func next() async throws(InteractionError) -> ACLMessage? {
            guard !isOver else { return nil }
            switch await base.next() {
            case .inform(let message): return message
            case .ended(let error):
                isOver = true
                if let error { throw error }
                return nil
            case nil:
                isOver = true
                return nil
            }
        }
    }

    /// Makes the iterator; call once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: feed.events.makeAsyncIterator())
    }

    /// Sends `cancel` to the responder and ends the sequence. Informs already on
    /// their way are dropped, and so is the responder's answer to the cancel.
    public func cancel() async {
        await agent.cancel(self)
    }
}

/// Sorts the messages of one subscription: the answer to the `subscribe` goes to
/// the waiting ``Agent/subscribe(_:timeout:)`` call, later `inform`s to the
/// subscription's sequence.
final class SubscriptionFeed: Sendable {
    enum Event: Sendable {
        case inform(ACLMessage)
        case ended(InteractionError?)
    }

    enum Phase { case handshake, active, ended }

    let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let handshake: AsyncStream<ConversationSignal>.Continuation
    private let phase = Mutex(Phase.handshake)

    init(handshake: AsyncStream<ConversationSignal>.Continuation) {
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
        self.handshake = handshake
    }

    /// Takes a signal of the conversation; returns whether the subscription is over.
    func receive(_ signal: ConversationSignal, from responder: AgentIdentifier, agent: Agent?) -> Bool {
        let current = phase.withLock { $0 }
        guard case .message(let message) = signal else {
            if current == .handshake { handshake.yield(signal) } else { end(with: .agentStopped) }
            return true
        }
        guard let agent else { return true }
        if message.isDeliveryFailure {
            let target = agent.undeliveredReceiver(of: message)
            guard target == nil || agent.isSameAgent(target, responder) else { return false }
            return settle(current, message, error: .failed(message))
        }
        guard agent.isSameAgent(message.sender, responder) else {
            agent.answerNotUnderstood(message, reason: "the sender is not a party to this subscription")
            return false
        }
        switch (message.performative, current) {
        case (.agree, .handshake):
            phase.withLock { $0 = .active }
            handshake.yield(signal)
        case (.inform, _):
            if current == .handshake { handshake.yield(signal) }  // informing without agree: agreed
            phase.withLock { $0 = .active }
            eventSink.yield(.inform(message))
        case (.refuse, .handshake), (.notUnderstood, .handshake), (.failure, _):
            let error: InteractionError =
                switch message.performative {
                case .refuse: .refused(message)
                case .notUnderstood: .notUnderstood(message)
                default: .failed(message)
                }
            return settle(current, message, error: error)
        default:
            agent.answerNotUnderstood(message, reason: "a \(message.performative) is not expected in a subscription")
        }
        return false
    }

    /// Ends the subscription with `error`: during the handshake the waiting call
    /// throws it, afterwards the sequence does.
    private func settle(_ current: Phase, _ message: ACLMessage, error: InteractionError) -> Bool {
        if current == .handshake {
            phase.withLock { $0 = .ended }
            handshake.yield(.message(message))
        } else {
            end(with: error)
        }
        return true
    }

    /// Ends the sequence, with an error or (`nil`) quietly.
    func end(with error: InteractionError?) {
        let wasOver = phase.withLock { phase in
            defer { phase = .ended }
            return phase == .ended
        }
        guard !wasOver else { return }
        eventSink.yield(.ended(error))
        eventSink.finish()
    }
}
