import Foundation
import Logging
import Synchronization

/// Carries live events between nodes sharing a database, so that a client connected to
/// any node sees what happened on every node: what is handed to ``enqueue(_:)`` here
/// goes out with `NOTIFY` on ``channel`` (several events per notification, each under
/// PostgreSQL's 8,000-byte payload limit), and what other nodes send is handed to
/// `deliver` here. Best effort, like the hubs it joins: events sent while a node's
/// connection is lost do not reach it.
///
/// The monitoring dashboard's events, the homes' and the issue track office's calls go
/// through one each.
package final class NodeEventRelay<Event: Codable & Sendable>: Sendable {
    /// The most bytes of events in one notification.
    package static var payloadLimit: Int { 7_500 }

    let pool: PostgresPool
    /// The notification channel.
    let channel: String
    let node: String
    let logger: Logger
    /// `event` in about as many smaller parts as asked, `nil` when it cannot be split.
    private let split: @Sendable (Event, Int) -> [Event]?
    /// Hands another node's event to this node's subscribers.
    private let deliver: @Sendable (Event) async -> Void
    /// Events handed here and not sent yet (beyond 10,000, the oldest thousand are
    /// dropped; vital ones never), and a wake-up for the sender.
    private let pending = Mutex<(events: [Event], vital: [Event])>(([], []))
    private let news: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    /// What one notification carries.
    package struct Envelope: Codable {
        package let node: String
        package let events: [Event]
    }

    package init(
        pool: PostgresPool, channel: String, node: String, logger: Logger, split: @escaping @Sendable (Event, Int) -> [Event]? = { _, _ in nil },
        deliver: @escaping @Sendable (Event) async -> Void
    ) {
        self.pool = pool
        self.channel = channel
        self.node = node
        self.logger = logger
        self.split = split
        self.deliver = deliver
        (news, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Sends `event` to the other nodes with the next notification; a `vital` one (news
    /// an agent must hear, an alert a client must see) goes first and is never dropped
    /// for lack of room.
    package func enqueue(_ event: Event, vital: Bool = false) {
        pending.withLock { pending in
            if vital {
                pending.vital.append(event)
            } else {
                pending.events.append(event)
                if pending.events.count > 10_000 { pending.events.removeFirst(pending.events.count - 9_000) }
            }
        }
        signal.yield()
    }

    /// Sends this node's events until cancelled: whatever waits when the sender wakes
    /// goes out together, as few notifications as fit.
    package func send() async {
        for await _ in news { await flush() }
    }

    /// Sends what waits now (at shutdown, after the last evaluation).
    package func flush() async {
        let (events, vital) = pending.withLock { pending in
            defer { pending = ([], []) }
            return (pending.events, pending.vital)
        }
        // Vital news first, kept for the next flush when the database does not take it;
        // the notifications of a flush go out in a few statements (one trip each).
        let vitalPayloads = payloads(vital)
        for (index, batch) in vitalPayloads.inParts(Self.statements(vitalPayloads.count)).enumerated() {
            do {
                try await pool.notify(channel, Array(batch))
            } catch {
                logger.warning("news for the other nodes' agents not sent yet; kept", metadata: ["channel": "\(channel)", "error": "\(error)"])
                let unsent = vitalPayloads.inParts(Self.statements(vitalPayloads.count)).dropFirst(index).flatMap { $0.flatMap(Self.events(in:)) }
                pending.withLock { $0.vital.insert(contentsOf: unsent, at: 0) }
                Task { [signal] in  // tried again in a second, not in a tight loop while the database is away
                    try? await Task.sleep(for: .seconds(1))
                    signal.yield()
                }
                break
            }
        }
        let eventPayloads = payloads(events)
        for batch in eventPayloads.inParts(Self.statements(eventPayloads.count)) {
            do {
                try await pool.notify(channel, Array(batch))
            } catch {
                logger.warning("live events not sent to the other nodes", metadata: ["channel": "\(channel)", "error": "\(error)"])
            }
        }
    }

    /// How many statements carry `count` notifications: at most 32 in each.
    private static func statements(_ count: Int) -> Int {
        (count + 31) / 32
    }

    /// The events a payload of ``payloads(_:)`` carries.
    private static func events(in payload: String) -> [Event] {
        (try? JSONDecoder().decode(Envelope.self, from: Data(payload.utf8)).events) ?? []
    }

    /// Starts listening for the other nodes' events: once this returns, none sent after
    /// is missed while the connection lives. Pass the stream to ``receive(_:)``.
    package func listen() async -> AsyncThrowingStream<String, any Error>? {
        do {
            return try await pool.listen(channel)
        } catch {
            logger.warning("not listening for other nodes' live events yet", metadata: ["channel": "\(channel)", "error": "\(error)"])
            return nil
        }
    }

    /// Delivers the other nodes' events here until cancelled, from `first`
    /// (``listen()``'s stream), listening again after a lost connection.
    package func receive(_ first: AsyncThrowingStream<String, any Error>?) async {
        var stream = first
        while !Task.isCancelled {
            if stream == nil { stream = await listen() }
            do {
                for try await payload in stream ?? AsyncThrowingStream { $0.finish() } {
                    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(payload.utf8)) else {
                        logger.warning("an unreadable live-event notification was ignored", metadata: ["channel": "\(channel)", "bytes": "\(payload.utf8.count)"])
                        continue
                    }
                    guard envelope.node != node else { continue }
                    for event in envelope.events { await deliver(event) }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("the live events from other nodes stopped; listening again", metadata: ["channel": "\(channel)", "error": "\(error)"])
            }
            stream = nil
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
        }
    }

    /// The events as notification payloads of at most ``payloadLimit`` bytes each; an
    /// event too large for one is split into as many parts as its size asks for (again
    /// while a part is still too large). Each event is encoded once, and the envelopes
    /// are written around the encoded events.
    package func payloads(_ events: [Event]) -> [String] {
        let encoder = JSONEncoder()
        let head = "{\"node\":\(encodedNode),\"events\":["
        let room = Self.payloadLimit - head.utf8.count - 2  // "]}"
        var payloads: [String] = []
        var batch: [String] = []
        var size = 0
        for item in events.flatMap({ fitting($0, room: room, encoder: encoder) }) {
            let added = item.utf8.count + (batch.isEmpty ? 0 : 1)
            if size + added > room, !batch.isEmpty {
                payloads.append(head + batch.joined(separator: ",") + "]}")
                batch = []
                size = 0
            }
            size += item.utf8.count + (batch.isEmpty ? 0 : 1)
            batch.append(item)
        }
        if !batch.isEmpty { payloads.append(head + batch.joined(separator: ",") + "]}") }
        return payloads
    }

    /// `event` encoded, in parts of at most `room` bytes each; nothing (and a warning)
    /// for an event that cannot be encoded, or cannot be split and does not fit.
    private func fitting(_ event: Event, room: Int, encoder: JSONEncoder) -> [String] {
        guard let data = try? encoder.encode(event) else {
            logger.warning("a live event that cannot be encoded was left out", metadata: ["channel": "\(channel)"])
            return []
        }
        if data.count <= room { return [String(decoding: data, as: UTF8.self)] }
        // Parts a little smaller than the room on average, so that an uneven split still fits.
        let count = max(2, (data.count * 5 / 4 + room - 1) / room)
        guard let parts = split(event, count), parts.count > 1 else {
            logger.warning("a live event too large to relay was left out", metadata: ["channel": "\(channel)"])
            return []
        }
        return parts.flatMap { fitting($0, room: room, encoder: encoder) }
    }

    /// This node's name as a JSON string.
    private var encodedNode: String {
        (try? JSONEncoder().encode(node)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}

extension Array {
    /// The elements in `count` consecutive parts of nearly equal size (fewer when there
    /// are fewer elements), for a relay's `split`.
    package func inParts(_ count: Int) -> [ArraySlice<Element>] {
        let parts = Swift.min(Swift.max(1, count), self.count)
        guard parts > 0 else { return [] }
        return (0..<parts).map { part in self[(self.count * part / parts)..<(self.count * (part + 1) / parts)] }
    }
}
