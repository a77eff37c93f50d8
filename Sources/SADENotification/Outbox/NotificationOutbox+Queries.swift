import Foundation
import Metrics

extension NotificationOutbox {
    /// The notification with this id, if the outbox has it.
    public func notification(_ id: UUID) async throws -> Notice? {
        try await store.notification(id)
    }

    /// Every notice about `subject` (a patient's id), oldest first.
    public func notices(about subject: String) async throws -> [Notice] {
        try await store.notices(about: subject)
    }

    /// Removes every notice about `subject`, with its deliveries, attempts and escalation
    /// steps: none is sent any more. Returns how many there were.
    @discardableResult
    public func erase(about subject: String) async throws -> Int {
        try await store.erase(about: subject)
    }

    /// Where the notification stands on each of its channels.
    public func deliveries(of id: UUID) async throws -> [DeliveryStatus] {
        try await store.deliveries(of: id)
    }

    /// Every attempt made for the notification, oldest first.
    public func attempts(of id: UUID) async throws -> [DeliveryAttempt] {
        try await store.attempts(of: id)
    }

    /// Deliveries given up on, newest first.
    public func deadLetters() async throws -> [DeliveryStatus] {
        try await store.deadLetters()
    }

    /// How many deliveries wait for an attempt.
    public func pendingCount() async throws -> Int {
        try await store.pendingCount()
    }

    /// Records ``pendingCount()`` into the `sade_outbox_pending` gauge (the server does,
    /// before it answers `GET /metrics`); the gauge keeps its value if the database
    /// does not answer.
    public func recordPendingCount() async throws {
        Gauge(label: "sade_outbox_pending", factory: metrics).record(try await store.pendingCount())
    }

    // MARK: Acknowledgement

    /// Records that `worker` acknowledged the alert; the first acknowledgement counts.
    ///
    /// - Returns: `false` if it had been acknowledged already.
    /// - Throws: ``NotificationError/unknownNotification(_:)``.
    @discardableResult
    public func acknowledge(_ id: UUID, by worker: String) async throws -> Bool {
        try await store.acknowledge(id, by: worker, at: clock.now)
    }

    /// Who acknowledged the notification and when, if someone did.
    public func acknowledgement(of id: UUID) async throws -> (worker: String, at: Date)? {
        try await store.acknowledgement(of: id)
    }

    /// Warnings and alarms nobody has acknowledged yet, oldest first.
    public func openAlerts() async throws -> [Notice] {
        try await store.openAlerts()
    }

    // MARK: Escalation history

    /// The escalation steps taken for an alert, in order.
    public func escalations(of alertID: UUID) async throws -> [EscalationRecord] {
        try await store.escalations(of: [alertID])[alertID] ?? []
    }

    /// The escalation steps taken for each of `alertIDs`, in order, in one read; an
    /// alert without any is absent.
    public func escalations(of alertIDs: [UUID]) async throws -> [UUID: [EscalationRecord]] {
        try await store.escalations(of: alertIDs)
    }
}

/// Why the notification module refused a request.
public enum NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No notification with this id.
    case unknownNotification(UUID)
    /// A row of the outbox's database holds a value it cannot be read as.
    case corruptRow(table: String, column: String, value: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unknownNotification(let id): "no notification with id \(id)"
        case .corruptRow(let table, let column, let value): "the outbox's \(table) table holds \(value.debugDescription) in \(column), which is not a notification id"
        }
    }
}
