import Foundation
import SADEACL

/// What reaches the initiator side of a conversation.
enum ConversationSignal: Sendable {
    /// A message of the conversation arrived.
    case message(ACLMessage)
    /// A timer started with ``InitiatorChannel/startTimer(_:after:clock:)`` fired.
    case deadline(Int)
    /// The agent stopped; the conversation is over.
    case agentStopped
}

/// The conversations an agent initiated and that are still running, by
/// conversation-id, with the `reply-with` values each has sent.
///
/// The table only decides where a received message goes; what a message means is
/// up to the protocol that opened the conversation.
struct ConversationTable {
    struct Entry {
        /// The `reply-with` values of the messages sent in the conversation.
        var issued: Set<String> = []
        var nextReply = 0
        /// Where messages of the conversation go; returns whether the conversation is over.
        var deliver: @Sendable (ConversationSignal) -> Bool
        /// Set once the initiator sent `cancel`: everything is swallowed until the
        /// answer to the cancel (quoting this `reply-with`) ends the conversation.
        var closingAfterReplyTo: String?
    }

    /// Where a received message goes.
    enum Route {
        /// Not part of a running conversation: ordinary handlers and the BDI cycle.
        case notOurs
        /// Belongs to a conversation; hand it to its initiator.
        case deliver(@Sendable (ConversationSignal) -> Bool)
        /// Carries a running conversation's id but quotes a `reply-with` it never sent.
        case foreignReply
        /// Arrived in a conversation being cancelled; dropped.
        case swallowed
    }

    private var entries: [String: Entry] = [:]
    private var counter = 0

    /// How many conversations are running.
    var count: Int { entries.count }

    /// Whether a conversation with this id is running.
    func contains(_ id: String) -> Bool { entries[id] != nil }

    /// A conversation id no other conversation has: the agent's name, a counter and
    /// a random part, so ids stay unique across platforms and agent restarts.
    mutating func makeID(for agent: String) -> String {
        counter += 1
        let random = UInt32.random(in: 0...UInt32.max)
        return "\(agent)-\(counter)-\(String(random, radix: 16))"
    }

    mutating func open(_ id: String, deliver: @escaping @Sendable (ConversationSignal) -> Bool) {
        entries[id] = Entry(deliver: deliver)
    }

    /// A fresh `reply-with` for a message of conversation `id`, remembered so that
    /// replies quoting it are routed back.
    mutating func makeReplyWith(in id: String) -> String? {
        // In place, so the set of issued values is not copied for every message.
        guard let number = entries[id].map({ $0.nextReply + 1 }) else { return nil }
        let replyWith = "\(id).\(number)"
        entries[id]?.nextReply = number
        entries[id]?.issued.insert(replyWith)
        return replyWith
    }

    /// Marks a conversation as cancelled: it ends when the reply quoting `replyWith` arrives.
    mutating func closeAfterReply(to replyWith: String, in id: String) {
        entries[id]?.closingAfterReplyTo = replyWith
    }

    @discardableResult
    mutating func close(_ id: String) -> Entry? {
        entries.removeValue(forKey: id)
    }

    /// Removes every conversation and returns them.
    mutating func closeAll() -> [Entry] {
        defer { entries.removeAll() }
        return Array(entries.values)
    }

    /// Decides where `message` goes. The agent's own messages (`fromSelf`, carrying a
    /// `reply-with` the conversation issued — an agent may request itself) are not
    /// routed back to the conversation. Another agent's reply may carry our
    /// `reply-with` too: SPADE's `make_reply` copies every parameter.
    mutating func route(_ message: ACLMessage, fromSelf: @autoclosure () -> Bool) -> Route {
        guard let id = message.conversationID, let entry = entries[id] else { return .notOurs }
        if let replyWith = message.replyWith, entry.issued.contains(replyWith), fromSelf() { return .notOurs }
        if let inReplyTo = message.inReplyTo, !entry.issued.contains(inReplyTo) { return .foreignReply }
        if let closing = entry.closingAfterReplyTo {
            if message.inReplyTo == closing { entries[id] = nil }
            return .swallowed
        }
        return .deliver(entry.deliver)
    }
}

/// The waiting side of a conversation: the signals routed to it, and its timers on
/// the platform clock.
struct InitiatorChannel {
    let id: String
    let continuation: AsyncStream<ConversationSignal>.Continuation
    private var iterator: AsyncStream<ConversationSignal>.Iterator
    private var timers: [Task<Void, Never>] = []

    init(id: String) {
        let (stream, continuation) = AsyncStream.makeStream(of: ConversationSignal.self)
        self.id = id
        self.continuation = continuation
        self.iterator = stream.makeAsyncIterator()
    }

    /// The next signal; `nil` when the waiting task was cancelled.
    mutating func next(isolation: isolated (any Actor)? = #isolation) async -> ConversationSignal? {
        await iterator.next(isolation: isolation)
    }

    /// Delivers `.deadline(token)` after `duration` on `clock`.
    mutating func startTimer(_ token: Int, after duration: Duration, clock: PlatformClock) {
        let continuation = continuation
        timers.append(Task {
            do {
                try await clock.sleep(for: duration)
                continuation.yield(.deadline(token))
            } catch {}  // cancelled: the conversation ended first
        })
    }

    /// Cancels the running timers, so that no sleeper stays on the clock.
    mutating func cancelTimers() {
        for timer in timers { timer.cancel() }
        timers.removeAll()
    }

    /// Cancels the timers and ends the stream.
    func finish() {
        for timer in timers { timer.cancel() }
        continuation.finish()
    }
}
