import Foundation
import SADEPostgres
@testable import SADENotification
import SADETestSupport
import Testing

/// The stores the outbox's suites run against: SQLite in a fresh temporary directory,
/// and PostgreSQL (a database of its own on the test process's throwaway server).
enum OutboxBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A new place for outboxes: a directory, or a database's URL. Outboxes opened on
    /// the same place share their notices (a restart, or another node).
    func place() async throws -> String {
        switch self {
        case .sqlite: try TestServer.freshDirectory().path
        case .postgres: try await PostgresTestServer.makeDatabase()
        }
    }

    /// An outbox on `place` (a new one when `nil`).
    func outbox(
        at place: String? = nil, channels: [any NotificationChannel], configuration: NotificationOutbox.Configuration = .init(),
        clock: OutboxClock
    ) async throws -> NotificationOutbox {
        switch self {
        case .sqlite:
            return try NotificationOutbox(directory: place, channels: channels, configuration: configuration, clock: clock)
        case .postgres:
            var url = place
            if url == nil { url = try await self.place() }
            let pool = try await PostgresPool.connect(PostgresLocation(url: url ?? ""), maximumConnections: 4, timeout: .seconds(30))
            return try await NotificationOutbox(postgres: pool, channels: channels, configuration: configuration, clock: clock)
        }
    }

    /// The push subscriptions of a new outbox store.
    func pushSubscriptions() async throws -> any PushSubscriptionRecords {
        switch self {
        case .sqlite: return try SQLiteOutboxStore(directory: try await place()).pushSubscriptions
        case .postgres:
            let pool = try await PostgresPool.connect(PostgresLocation(url: try await place()), maximumConnections: 2, timeout: .seconds(30))
            return try await PostgresOutboxStore(pool).pushSubscriptions
        }
    }

    /// Timers an idle dispatcher keeps on the clock: a shared store's look for work other
    /// nodes left.
    var idleSleepers: Int {
        switch self {
        case .sqlite: 0
        case .postgres: 1
        }
    }
}
