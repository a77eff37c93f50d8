import SADEACL

/// What the XMPP transport knows of the agents it talks to, by bare JID: the
/// conversations our agents await an answer in, the full JID that last wrote, whose
/// presence our agents asked for, and the liveness pings on their way. A peer that
/// disappears (its presence goes unavailable, or a ping to it bounces) fails the
/// conversations awaiting it at once instead of letting them run to their timeouts.
struct XMPPPeers {
    /// A message of ours that asks for an answer, not yet answered.
    struct Awaited: Hashable {
        /// The local name of the agent that sent it.
        let agent: String
        let conversationID: String?
        let replyWith: String?
        /// Forgotten after this (its reply-by and a minute, or an hour).
        let until: ContinuousClock.Instant
    }

    /// Performatives that ask the receiver for an answer.
    static let asking: Set<Performative> = [
        .request, .requestWhen, .requestWhenever, .cfp, .queryIf, .queryRef, .subscribe, .propose, .acceptProposal, .cancel,
        .proxy, .propagate,
    ]

    /// At most this many awaited conversations and presence subscriptions are kept (the oldest go first).
    static let capacity = 10_000

    private(set) var awaited: [String: [Awaited]] = [:]
    private var awaitedCount = 0
    private var fullJIDs: [String: String] = [:]
    private var subscribed: Set<String> = []
    private var pings: [String: String] = [:]
    private var pingCounter: UInt64 = 0

    /// Records that `agent` sent `message` to `peer` (bare JID); returns whether
    /// `agent` should now ask for `peer`'s presence (the first time they talk).
    mutating func sent(_ message: ACLMessage, by agent: String, to peer: String, now: ContinuousClock.Instant) -> Bool {
        if Self.asking.contains(message.performative), awaitedCount < Self.capacity {
            let until = message.replyBy.map { now + .seconds(max(0, $0.timeIntervalSinceNow)) + .seconds(60) } ?? now + .seconds(3_600)
            awaited[peer, default: []].append(Awaited(agent: agent, conversationID: message.conversationID, replyWith: message.replyWith, until: until))
            awaitedCount += 1
        }
        guard subscribed.count < Self.capacity else { return false }
        return subscribed.insert("\(agent) \(peer)").inserted
    }

    /// `message` came from `from` (a full or bare JID): what it answers is no longer
    /// awaited (an `agree` promises more, so it keeps the conversation awaited).
    mutating func received(_ message: ACLMessage, from: String) {
        let peer = SPADEMessageCoding.bareJID(from)
        if from != peer { fullJIDs[peer] = from }
        guard message.performative != .agree else { return }
        forget(peer, conversationID: message.conversationID, replyWith: message.inReplyTo)
    }

    /// The conversation with `peer` is answered or over (its message bounced).
    mutating func forget(_ peer: String, conversationID: String?, replyWith: String?) {
        guard let waiting = awaited[peer] else { return }
        let left = waiting.filter { entry in
            if let conversationID { return entry.conversationID != conversationID }
            return replyWith == nil || entry.replyWith != replyWith
        }
        awaitedCount -= waiting.count - left.count
        awaited[peer] = left.isEmpty ? nil : left
    }

    /// `peer` is gone (or the session it wrote from): the conversations awaiting it,
    /// now forgotten.
    mutating func gone(_ peer: String) -> [Awaited] {
        fullJIDs[peer] = nil
        pings = pings.filter { $0.value != peer }
        let waiting = awaited.removeValue(forKey: peer) ?? []
        awaitedCount -= waiting.count
        return waiting
    }

    /// The full JID that last wrote from `peer`, if known.
    func fullJID(of peer: String) -> String? { fullJIDs[peer] }

    /// Forgets expired conversations and returns a ping to send to every peer still
    /// awaited whose full JID is known (a bare JID's pings the server answers itself):
    /// which agent sends it, to whom, and its id.
    mutating func pingsDue(now: ContinuousClock.Instant) -> [(agent: String, to: String, id: String)] {
        var due: [(agent: String, to: String, id: String)] = []
        for (peer, waiting) in awaited {
            let left = waiting.filter { $0.until > now }
            awaitedCount -= waiting.count - left.count
            awaited[peer] = left.isEmpty ? nil : left
            guard let first = left.first, let full = fullJIDs[peer] else { continue }
            pings = pings.filter { $0.value != peer }  // one ping per peer on its way
            pingCounter += 1
            let id = "sade-ping-\(pingCounter)"
            pings[id] = peer
            due.append((first.agent, full, id))
        }
        return due
    }

    /// The peer a ping with `id` went to, forgotten now that it is answered.
    mutating func answeredPing(_ id: String) -> String? {
        pings.removeValue(forKey: id)
    }
}
