import Foundation
import Logging
import SADEPostgres
import Synchronization

/// Carries live events between nodes sharing a database, so that a dashboard connected
/// to any node sees every sample, score, alert and acknowledgement: what is published on
/// this node's hub goes out with `NOTIFY` (several events per notification, each under
/// PostgreSQL's 8,000-byte payload limit), and what other nodes send is published on
/// this node's hub. Best effort, like the hub itself: events published while a node's
/// connection is lost do not reach it.
package final class MonitoringEventRelay: Sendable {
    /// The notification channel.
    package static let channel = "sade_events"
    /// The most bytes of events in one notification.
    static let payloadLimit = 7_500

    let pool: PostgresPool
    let hub: MonitoringEventHub
    let node: String
    let logger: Logger
    /// Events published here and not sent yet (the oldest dropped beyond 10,000), and
    /// a wake-up for the sender.
    private let pending = Mutex<[MonitoringEvent]>([])
    private let news: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    /// What one notification carries.
    struct Envelope: Codable {
        let node: String
        let events: [MonitoringEvent]
    }

    package init(pool: PostgresPool, hub: MonitoringEventHub, node: String, logger: Logger) {
        self.pool = pool
        self.hub = hub
        self.node = node
        self.logger = logger
        (news, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        hub.relay { [weak self] event in self?.enqueue(event) }
    }

    private func enqueue(_ event: MonitoringEvent) {
        pending.withLock { events in
            events.append(event)
            if events.count > 10_000 { events.removeFirst(events.count - 10_000) }
        }
        signal.yield()
    }

    /// Sends this node's events until cancelled: whatever waits when the sender wakes
    /// goes out together, as few notifications as fit.
    package func send() async {
        for await _ in news { await flush() }
    }

    /// Sends what waits now (at shutdown, after the pipeline's last evaluation).
    package func flush() async {
        let events = pending.withLock { events in
            defer { events = [] }
            return events
        }
        for payload in payloads(events) {
            do {
                try await pool.notify(Self.channel, payload)
            } catch {
                logger.warning("live events not sent to the other nodes", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Starts listening for the other nodes' events: once this returns, none sent after
    /// is missed while the connection lives. Pass the stream to ``receive(_:)``.
    package func listen() async -> AsyncThrowingStream<String, any Error>? {
        do {
            return try await pool.listen(Self.channel)
        } catch {
            logger.warning("not listening for other nodes' live events yet", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Publishes the other nodes' events on this node's hub until cancelled, from
    /// `first` (``listen()``'s stream), listening again after a lost connection.
    package func receive(_ first: AsyncThrowingStream<String, any Error>?) async {
        var stream = first
        while !Task.isCancelled {
            if stream == nil { stream = await listen() }
            do {
                for try await payload in stream ?? AsyncThrowingStream { $0.finish() } {
                    guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(payload.utf8)) else {
                        logger.warning("an unreadable live-event notification was ignored", metadata: ["bytes": "\(payload.utf8.count)"])
                        continue
                    }
                    guard envelope.node != node else { continue }
                    for event in envelope.events { hub.publishRelayed(event) }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("the live events from other nodes stopped; listening again", metadata: ["error": "\(error)"])
            }
            stream = nil
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
        }
    }

    /// The events as notification payloads of at most ``payloadLimit`` bytes each; a
    /// samples event too large for one is split by observations, in halves until each
    /// part fits.
    func payloads(_ events: [MonitoringEvent]) -> [String] {
        var payloads: [String] = []
        var batch: [MonitoringEvent] = []
        for event in events.flatMap(fitting) {
            if let payload = encoded(batch + [event]), payload.utf8.count <= Self.payloadLimit {
                batch.append(event)
            } else {
                if !batch.isEmpty, let payload = encoded(batch) { payloads.append(payload) }
                batch = [event]
            }
        }
        if !batch.isEmpty, let payload = encoded(batch) { payloads.append(payload) }
        return payloads
    }

    /// `event` in parts that each fit in a notification alone; nothing (and a warning)
    /// for an event that cannot be split and does not fit.
    private func fitting(_ event: MonitoringEvent) -> [MonitoringEvent] {
        if let alone = encoded([event]), alone.utf8.count <= Self.payloadLimit { return [event] }
        guard case .samples(let samples) = event, samples.observations.count > 1 else {
            logger.warning("a live event too large to relay was left out", metadata: ["type": "\(event.type)"])
            return []
        }
        let middle = samples.observations.count / 2
        var first = samples, second = samples
        first.observations = Array(samples.observations[..<middle])
        second.observations = Array(samples.observations[middle...])
        return fitting(.samples(first)) + fitting(.samples(second))
    }

    private func encoded(_ events: [MonitoringEvent]) -> String? {
        (try? JSONEncoder().encode(Envelope(node: node, events: events))).map { String(decoding: $0, as: UTF8.self) }
    }
}
