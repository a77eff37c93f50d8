import Foundation
import GRDB

extension NotificationOutbox {
    /// The notification with this id, if the outbox has it.
    public func notification(_ id: UUID) throws -> Notice? {
        try database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT payload FROM notification WHERE id = ?", arguments: [id.uuidString])
        }.map { try Self.decoder.decode(Notice.self, from: Data($0.utf8)) }
    }

    /// Where the notification stands on each of its channels.
    public func deliveries(of id: UUID) throws -> [DeliveryStatus] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM delivery WHERE notificationID = ? ORDER BY channel", arguments: [id.uuidString])
        }.map { try Self.status($0) }
    }

    /// Every attempt made for the notification, oldest first.
    public func attempts(of id: UUID) throws -> [DeliveryAttempt] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM attempt WHERE notificationID = ? ORDER BY id", arguments: [id.uuidString])
        }.map { row in
            DeliveryAttempt(
                notificationID: try Self.notificationID(row, in: "attempt"), channel: row["channel"],
                at: Date(timeIntervalSince1970: row["at"]), succeeded: row["succeeded"], error: row["error"])
        }
    }

    /// Deliveries given up on, newest first.
    public func deadLetters() throws -> [DeliveryStatus] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM delivery WHERE status = 'dead' ORDER BY rowid DESC")
        }.map { try Self.status($0) }
    }

    /// How many deliveries wait for an attempt.
    public func pendingCount() throws -> Int {
        try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery WHERE status = 'pending'") ?? 0 }
    }

    // MARK: Acknowledgement

    /// Records that `worker` acknowledged the alert; the first acknowledgement counts.
    ///
    /// - Returns: `false` if it had been acknowledged already.
    /// - Throws: ``NotificationError/unknownNotification(_:)``.
    @discardableResult
    public func acknowledge(_ id: UUID, by worker: String) throws -> Bool {
        let now = clock.now.timeIntervalSince1970
        return try database.writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM notification WHERE id = ?", arguments: [id.uuidString]) != nil else {
                throw NotificationError.unknownNotification(id)
            }
            try db.execute(
                sql: "UPDATE notification SET acknowledgedBy = ?, acknowledgedAt = ? WHERE id = ? AND acknowledgedAt IS NULL",
                arguments: [worker, now, id.uuidString])
            return db.changesCount > 0
        }
    }

    /// Who acknowledged the notification and when, if someone did.
    public func acknowledgement(of id: UUID) throws -> (worker: String, at: Date)? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT acknowledgedBy, acknowledgedAt FROM notification WHERE id = ? AND acknowledgedAt IS NOT NULL",
                             arguments: [id.uuidString])
        }.map { row in (row["acknowledgedBy"], Date(timeIntervalSince1970: row["acknowledgedAt"])) }
    }

    /// Warnings and alarms nobody has acknowledged yet, oldest first.
    public func openAlerts() throws -> [Notice] {
        try database.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT payload FROM notification WHERE severity IN ('warning', 'alarm') AND acknowledgedAt IS NULL
                AND id NOT IN (SELECT notificationID FROM escalation WHERE notificationID <> alertID) ORDER BY createdAt
                """)
        }.map { try Self.decoder.decode(Notice.self, from: Data($0.utf8)) }
    }

    // MARK: Escalation history

    /// The escalation steps taken for an alert, in order.
    public func escalations(of alertID: UUID) throws -> [EscalationRecord] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM escalation WHERE alertID = ? ORDER BY step", arguments: [alertID.uuidString])
        }.map { row in
            let recipients: String = row["recipients"]
            return EscalationRecord(
                alertID: alertID, step: row["step"], at: Date(timeIntervalSince1970: row["at"]),
                notificationID: try Self.notificationID(row, in: "escalation"),
                recipients: (try? Self.decoder.decode([Recipient].self, from: Data(recipients.utf8))) ?? [])
        }
    }

    /// The row's notification id; a value that is not one (a row written by hand, a
    /// damaged file) is ``NotificationError/corruptRow(table:column:value:)``, not a crash.
    private static func notificationID(_ row: Row, in table: String) throws -> UUID {
        let text: String? = row["notificationID"]
        guard let text, let id = UUID(uuidString: text) else {
            throw NotificationError.corruptRow(table: table, column: "notificationID", value: String((text ?? "NULL").prefix(64)))
        }
        return id
    }

    private static func status(_ row: Row) throws -> DeliveryStatus {
        let state = DeliveryStatus.State(rawValue: row["status"]) ?? .pending
        let deliveredAt: Double? = row["deliveredAt"]
        return DeliveryStatus(
            notificationID: try notificationID(row, in: "delivery"), channel: row["channel"], state: state, attempts: row["attempts"],
            nextAttemptAt: state == .pending ? Date(timeIntervalSince1970: row["nextAttemptAt"]) : nil,
            lastError: row["lastError"], deliveredAt: deliveredAt.map(Date.init(timeIntervalSince1970:)))
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
