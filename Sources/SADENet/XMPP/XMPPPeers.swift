import SADEACL

/// What the XMPP transport knows of the agents it talks to, by bare JID: the
/// conversations our agents await an answer in, the full JID that last wrote, which
/// sessions answer pings, and the pings on their way. A peer that disappears (its
/// presence goes unavailable, or a ping to a session known to answer pings bounces)
/// fails the conversations awaiting it at once instead of letting them run to their
/// timeouts.
struct XMPPPeers {
    /// A message of ours that asks for an answer, not yet answered.
    struct Awaited: Hashable {
        /// The local name of the agent that sent it.
        let agent: String
        let conversationID: String?
        let replyWith: String?
        /// A subscription: awaited until cancelled, refused or failed, not just answered.
        let isStanding: Bool
        /// Forgotten after this (its reply-by and a minute, or an hour; a standing one, never).
        let until: ContinuousClock.Instant
    }

    /// A liveness ping on its way.
    struct Ping: Hashable {
        let peer: String
        /// The full JID pinged: only its answer counts.
        let target: String
    }

    /// Performatives that ask the receiver for an answer.
    static let asking: Set<Performative> = [
        .request, .requestWhen, .requestWhenever, .cfp, .queryIf, .queryRef, .subscribe, .propose, .acceptProposal, .cancel,
        .proxy, .propagate,
    ]

    /// At most this many awaited conversations, known sessions and presence
    /// subscriptions are kept; beyond, new ones are not (no liveness for them).
    static let capacity = 10_000

    private(set) var awaited: [String: [Awaited]] = [:]
    private var awaitedCount = 0
    private var fullJIDs: [String: String] = [:]
    private var answersPings: Set<String> = []
    private var subscribed: Set<String> = []
    private var pings: [String: Ping] = [:]
    private var pingOfPeer: [String: String] = [:]
    private var pingCounter: UInt64 = 0
    /// The conversations failed because their peer left, the last 1,024: a bounce of
    /// one of their messages arriving after does not fail them twice.
    private var failed: Set<String> = []
    private var failedOrder: [String] = []

    /// Records that `agent` sent `message` to `peer` (bare JID); returns whether
    /// `agent` should now ask for `peer`'s presence (the first time they talk).
    mutating func sent(_ message: ACLMessage, by agent: String, to peer: String, now: ContinuousClock.Instant) -> Bool {
        if message.performative == .cancel, let conversation = message.conversationID {
            drop(peer) { $0.agent == agent && $0.conversationID == conversation && $0.isStanding }  // the cancel is awaited instead
        }
        // A message no answer can name (no conversation, no reply-with) is not followed.
        if Self.asking.contains(message.performative), message.conversationID != nil || message.replyWith != nil, awaitedCount < Self.capacity {
            let isStanding = message.performative == .subscribe || message.performative == .requestWhenever
            let until =
                isStanding
                ? now + .seconds(10 * 365 * 86_400)
                : message.replyBy.map { now + .seconds(max(0, $0.timeIntervalSinceNow)) + .seconds(60) } ?? now + .seconds(3_600)
            awaited[peer, default: []].append(
                Awaited(agent: agent, conversationID: message.conversationID, replyWith: message.replyWith, isStanding: isStanding, until: until))
            awaitedCount += 1
        }
        guard subscribed.count < Self.capacity else { return false }
        return subscribed.insert("\(agent) \(peer)").inserted
    }

    /// `message` came from `from` (a full or bare JID) to our `agent`: what it answers
    /// is no longer awaited (an `agree` promises more; a subscription stays awaited
    /// through its informs). Returns a ping to send at once when `from` is a session
    /// not seen before, to learn whether it answers pings.
    mutating func received(_ message: ACLMessage, from: String, by agent: String) -> (to: String, id: String)? {
        let peer = SPADEMessageCoding.bareJID(from)
        var probe: (to: String, id: String)?
        if from != peer, fullJIDs[peer] != from, fullJIDs[peer] != nil || fullJIDs.count < Self.capacity {
            fullJIDs[peer] = from
            probe = (from, newPing(to: from, of: peer))
        }
        guard message.performative != .agree else { return probe }
        let ending = [.refuse, .failure, .notUnderstood].contains(message.performative)
        drop(peer) { entry in
            guard entry.agent == agent, !entry.isStanding || ending else { return false }
            if let conversation = message.conversationID { return entry.conversationID == conversation }
            return message.inReplyTo != nil && entry.replyWith == message.inReplyTo
        }
        return probe
    }

    /// The conversation of `agent` with `peer` is over (its message bounced).
    mutating func forget(_ peer: String, agent: String, conversationID: String?, replyWith: String?) {
        drop(peer) { entry in
            guard entry.agent == agent else { return false }
            if let conversationID { return entry.conversationID == conversationID }
            return replyWith != nil && entry.replyWith == replyWith
        }
    }

    /// `peer` is gone: the conversations awaiting it, now forgotten, once each.
    mutating func gone(_ peer: String) -> [Awaited] {
        if let full = fullJIDs.removeValue(forKey: peer) { answersPings.remove(full) }
        if let id = pingOfPeer.removeValue(forKey: peer) { pings[id] = nil }
        let waiting = awaited.removeValue(forKey: peer) ?? []
        awaitedCount -= waiting.count
        var seen: Set<String> = []
        let once = waiting.filter { seen.insert("\($0.agent) \($0.conversationID ?? "") \($0.replyWith ?? "")").inserted }
        for entry in once {
            guard let conversation = entry.conversationID, failed.insert("\(entry.agent) \(conversation)").inserted else { continue }
            failedOrder.append("\(entry.agent) \(conversation)")
            if failedOrder.count > 1_024 { failed.remove(failedOrder.removeFirst()) }
        }
        return once
    }

    /// Whether `agent`'s conversation already ended with a failure because its peer left.
    func hasFailed(agent: String, conversationID: String?) -> Bool {
        conversationID.map { failed.contains("\(agent) \($0)") } ?? false
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
            due.append((first.agent, full, newPing(to: full, of: peer)))
        }
        return due
    }

    /// What the answer to a ping says, if it is one: the peer, when the answer tells
    /// that the session pinged is gone. A session known to answer pings that the server
    /// now answers `service-unavailable` for has left; a session that never answered one
    /// may just not implement them (RFC 6120 §8.4), so that answer alone says nothing.
    mutating func pingAnswered(id: String, from: String?, error condition: String?) -> String? {
        guard let ping = pings[id], from == ping.target else { return nil }
        pings[id] = nil
        if pingOfPeer[ping.peer] == id { pingOfPeer[ping.peer] = nil }
        guard let condition else {
            if answersPings.count < Self.capacity { answersPings.insert(ping.target) }
            return nil
        }
        let gone = Self.goneConditions.contains(condition) || (condition == "service-unavailable" && answersPings.contains(ping.target))
        return gone && fullJIDs[ping.peer] == ping.target ? ping.peer : nil
    }

    /// The errors that say nobody is there, whatever the session (RFC 6120 §8.3.3).
    private static let goneConditions: Set<String> = [
        "recipient-unavailable", "item-not-found", "remote-server-not-found", "remote-server-timeout",
    ]

    /// A new ping id for `target`, replacing the one on its way to `peer` if any.
    private mutating func newPing(to target: String, of peer: String) -> String {
        if let previous = pingOfPeer[peer] { pings[previous] = nil }
        pingCounter += 1
        let id = "sade-ping-\(pingCounter)"
        pings[id] = Ping(peer: peer, target: target)
        pingOfPeer[peer] = id
        return id
    }

    /// Removes the entries of `peer` that `matching` selects.
    private mutating func drop(_ peer: String, where matching: (Awaited) -> Bool) {
        guard let waiting = awaited[peer] else { return }
        let left = waiting.filter { !matching($0) }
        awaitedCount -= waiting.count - left.count
        awaited[peer] = left.isEmpty ? nil : left
    }
}
