import Foundation
import GRDB
import Logging

/// The durable outbox: a notification accepted by ``send(_:)`` is in SQLite before
/// `send` returns, then delivered at least once on every channel that accepts it.
///
/// A failed attempt is retried with exponential backoff and jitter; after
/// ``Configuration/maxAttempts`` (or a permanent refusal) the delivery is marked dead
/// and reported as an ``OutboxEvent/dead(_:channel:error:)`` and a log error — never
/// dropped silently. Pending deliveries survive restarts: a new outbox on the same
/// directory resumes them when started. Attempts and outcomes are queryable.
public actor NotificationOutbox {
    /// Retry behaviour.
    public struct Configuration: Sendable {
        /// Attempts per channel before a delivery is dead.
        public var maxAttempts: Int
        /// The wait after the first failure; doubles after each further one.
        public var initialBackoff: Duration
        /// The longest wait between attempts.
        public var maximumBackoff: Duration
        /// Up to this fraction of the wait is added at random, so retries spread out.
        public var jitter: Double

        /// Creates a configuration.
        public init(maxAttempts: Int = 8, initialBackoff: Duration = .seconds(5), maximumBackoff: Duration = .seconds(600), jitter: Double = 0.2) {
            self.maxAttempts = maxAttempts
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.jitter = jitter
        }

        /// The wait after `failures` failed attempts.
        func backoff(after failures: Int) -> TimeInterval {
            let base = min(initialBackoff.seconds * pow(2, Double(max(0, failures - 1))), maximumBackoff.seconds)
            return base * (1 + Double.random(in: 0...max(0, jitter)))
        }
    }

    let database: OutboxDatabase
    let channels: [String: any NotificationChannel]
    /// Retry behaviour.
    public let configuration: Configuration
    /// The outbox's time.
    public nonisolated let clock: OutboxClock
    let logger: Logger
    var dispatcher: Task<Void, Never>?
    var inFlight: Set<DeliveryKey> = []
    /// Deliveries whose outcome could not be written, kept out of dispatch until then
    /// so a failing disk does not turn into a loop of repeated deliveries.
    var quarantine: [DeliveryKey: Date] = [:]
    /// Set when there is news while the dispatcher is not waiting.
    var wakeRequested = false
    /// The waiting dispatcher, resumed by news or its timer.
    var sleeper: CheckedContinuation<Void, Never>?
    /// Passes of the dispatch loop, so tests can tell waiting from spinning.
    var dispatchPasses = 0
    var observers: [Int: AsyncStream<OutboxEvent>.Continuation] = [:]
    private var nextObserverID = 0

    struct DeliveryKey: Hashable, Sendable {
        let notificationID: String
        let channel: String
    }

    /// Opens the outbox in `directory` (`notifications.sqlite`), or in memory when `nil`.
    ///
    /// - Parameter channels: the channels, with distinct names.
    public init(
        directory: String?, channels: [any NotificationChannel], configuration: Configuration = Configuration(),
        clock: OutboxClock = .system, logger: Logger = Logger(label: "sade.notifications")
    ) throws {
        database = try OutboxDatabase(directory: directory)
        self.channels = Dictionary(channels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    // MARK: Accepting

    /// Stores the notification with one pending delivery per channel that accepts it,
    /// in one transaction, and wakes the dispatcher.
    ///
    /// - Returns: the notification stored — the earlier one when a notification with
    ///   the same deduplication key is still undelivered or open.
    @discardableResult
    public func send(_ notification: Notice) throws -> Notice {
        let (stored, inserted) = try database.writer.write { db in try insert(notification, in: db) }
        if inserted { wake() }
        return stored
    }

    /// Inserts the notification and its pending deliveries; or, without inserting
    /// anything, returns the notice already stored under its id or the open duplicate
    /// that stands for it.
    func insert(_ notification: Notice, in db: Database) throws -> (notice: Notice, inserted: Bool) {
        if let payload = try String.fetchOne(db, sql: "SELECT payload FROM notification WHERE id = ?", arguments: [notification.id.uuidString]) {
            return (try Self.decoder.decode(Notice.self, from: Data(payload.utf8)), false)
        }
        if let key = notification.deduplicationKey, let existing = try Self.openDuplicate(of: key, in: db) {
            return (existing, false)
        }
        let now = clock.now.timeIntervalSince1970
        let payload = String(decoding: try Self.encoder.encode(notification), as: UTF8.self)
        let chosen = channels.values.filter { $0.accepts(notification) }.map(\.name).sorted()
        try db.execute(
            sql: "INSERT INTO notification (id, payload, severity, createdAt, deduplicationKey) VALUES (?, ?, ?, ?, ?)",
            arguments: [notification.id.uuidString, payload, notification.severity.rawValue, now, notification.deduplicationKey])
        for channel in chosen {
            try db.execute(
                sql: "INSERT INTO delivery (notificationID, channel, status, nextAttemptAt) VALUES (?, ?, 'pending', ?)",
                arguments: [notification.id.uuidString, channel, now])
        }
        if chosen.isEmpty { logger.warning("no channel accepts the notification", metadata: ["id": "\(notification.id)"]) }
        return (notification, true)
    }

    /// Wakes the dispatcher after something was inserted.
    func notifyDispatcher() { wake() }

    /// A notification with this deduplication key that is still on its way (a pending
    /// delivery), an open alert that reached someone (delivered, not acknowledged), or
    /// an open alert that is escalating. One whose deliveries all died and that does
    /// not escalate stands for nothing: a new one goes out.
    private static func openDuplicate(of key: String, in db: Database) throws -> Notice? {
        let payload = try String.fetchOne(db, sql: """
            SELECT payload FROM notification n WHERE deduplicationKey = ? AND (
                EXISTS (SELECT 1 FROM delivery d WHERE d.notificationID = n.id AND (d.status = 'pending'
                    OR (d.status = 'delivered' AND n.severity IN ('warning', 'alarm') AND n.acknowledgedAt IS NULL)))
                OR (n.acknowledgedAt IS NULL AND EXISTS (SELECT 1 FROM escalationPolicy p WHERE p.alertID = n.id)))
            ORDER BY createdAt DESC LIMIT 1
            """, arguments: [key])
        return try payload.map { try decoder.decode(Notice.self, from: Data($0.utf8)) }
    }

    // MARK: Observing

    /// What happens from now on: deliveries, failures, dead letters.
    public func events() -> AsyncStream<OutboxEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: OutboxEvent.self)
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.removeObserver(id) } }
        return stream
    }

    private func removeObserver(_ id: Int) { observers[id] = nil }

    /// Dates as the number a `Date` holds, so a notice reads back exactly as sent.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static let decoder = JSONDecoder()
}
