import Foundation
import Logging
import Metrics
import SADEPostgres

/// The durable outbox: a notification accepted by ``send(_:)`` is in the database
/// (SQLite, or PostgreSQL shared by several nodes) before `send` returns, then
/// delivered at least once on every channel that accepts it.
///
/// A failed attempt is retried with exponential backoff and jitter; after
/// ``Configuration/maxAttempts`` (or a permanent refusal) the delivery is marked dead
/// and reported as an ``OutboxEvent/dead(_:channel:error:)`` and a log error — never
/// dropped silently. Pending deliveries survive restarts: a new outbox on the same
/// directory resumes them when started. Attempts and outcomes are queryable.
///
/// Several nodes may share one PostgreSQL outbox: each delivery is claimed by one
/// dispatcher at a time (`FOR UPDATE SKIP LOCKED`) for ``Configuration/hold``, so it is
/// attempted once, and what a dead node held is taken up by the others when the hold
/// runs out.
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
        /// How long a dispatcher holds the deliveries it takes from a shared store: longer
        /// than an attempt lasts (a channel's timeout); a node that dies lets them go then.
        public var hold: Duration
        /// How often a dispatcher on a shared store looks for work other nodes left.
        public var pollInterval: Duration

        /// Creates a configuration.
        public init(
            maxAttempts: Int = 8, initialBackoff: Duration = .seconds(5), maximumBackoff: Duration = .seconds(600), jitter: Double = 0.2,
            hold: Duration = .seconds(60), pollInterval: Duration = .seconds(5)
        ) {
            self.hold = hold
            self.pollInterval = pollInterval
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

    nonisolated let store: any OutboxStore
    let channels: [String: any NotificationChannel]
    /// Retry behaviour.
    public let configuration: Configuration
    /// The outbox's time.
    public nonisolated let clock: OutboxClock
    let logger: Logger
    /// Where the outbox's metrics go: the task's swift-metrics factory when it was
    /// created, or the process's (see ``recordPendingCount()``).
    let metrics: any MetricsFactory
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

    /// Opens the outbox in `directory` (`notifications.sqlite`), or in memory when `nil`.
    ///
    /// - Parameter channels: the channels, with distinct names.
    public init(
        directory: String?, channels: [any NotificationChannel], configuration: Configuration = Configuration(),
        clock: OutboxClock = .system, logger: Logger = Logger(label: "sade.notifications")
    ) throws {
        self.init(store: try SQLiteOutboxStore(directory: directory), channels: channels, configuration: configuration, clock: clock, logger: logger)
    }

    /// Opens the outbox in PostgreSQL, in `pool`'s database, which every node sharing it
    /// dispatches from (the tables are made on first use by any node).
    public init(
        postgres pool: PostgresPool, channels: [any NotificationChannel], configuration: Configuration = Configuration(),
        clock: OutboxClock = .system, logger: Logger = Logger(label: "sade.notifications")
    ) async throws {
        self.init(store: try await PostgresOutboxStore(pool), channels: channels, configuration: configuration, clock: clock, logger: logger)
    }

    /// Opens the outbox on `store`.
    package init(
        store: any OutboxStore, channels: [any NotificationChannel], configuration: Configuration = Configuration(),
        clock: OutboxClock = .system, logger: Logger = Logger(label: "sade.notifications")
    ) {
        self.store = store
        self.channels = Dictionary(channels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        metrics = MetricsSystem.factory
    }

    /// The push subscriptions, kept in the outbox's database.
    public nonisolated var pushSubscriptions: any PushSubscriptionRecords { store.pushSubscriptions }

    // MARK: Accepting

    /// Stores the notification with one pending delivery per channel that accepts it,
    /// in one transaction, and wakes the dispatcher.
    ///
    /// - Returns: the notification stored — the earlier one when a notification with
    ///   the same deduplication key is still undelivered or open.
    @discardableResult
    public func send(_ notification: Notice) async throws -> Notice {
        let insertion = try await store.insert(notification, channels: channels(for: notification), at: clock.now)
        if insertion.inserted { wake() }
        return insertion.notice
    }

    /// The names of the channels that accept `notification`, sorted.
    func channels(for notification: Notice) -> [String] {
        let chosen = channels.values.filter { $0.accepts(notification) }.map(\.name).sorted()
        if chosen.isEmpty { logger.warning("no channel accepts the notification", metadata: ["id": "\(notification.id)"]) }
        return chosen
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
}
