import Foundation
import GRDB

/// The outbox on SQLite (`notifications.sqlite`, WAL mode), for one process:
/// notifications, one delivery per channel, every attempt, and escalation steps;
/// schema by named migrations.
package struct SQLiteOutboxStore: OutboxStore {
    /// The database (tests reach in to damage rows).
    package let writer: any DatabaseWriter

    package var isShared: Bool { false }

    package var pushSubscriptions: any PushSubscriptionRecords { SQLitePushSubscriptions(writer: writer) }

    /// Opens (creating if needed) `<directory>/notifications.sqlite`, or an in-memory
    /// database when `directory` is `nil`.
    package init(directory: String?) throws {
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            writer = try DatabasePool(path: (directory as NSString).appendingPathComponent("notifications.sqlite"))
        } else {
            writer = try DatabaseQueue()
        }
        try Self.migrator.migrate(writer)
    }

    // MARK: Accepting

    package func insert(_ notice: Notice, channels: [String], at now: Date) async throws -> OutboxInsertion {
        try await writer.write { db in try Self.insert(notice, channels: channels, at: now, in: db) }
    }

    package func insertAlert(_ alert: Notice, channels: [String], policy: EscalationPolicy, takesFirstStep: Bool, at now: Date) async throws
        -> OutboxInsertion
    {
        let policyText = try OutboxCoding.text(policy)
        return try await writer.write { db in
            let insertion = try Self.insert(alert, channels: channels, at: now, in: db)
            guard insertion.inserted else { return insertion }
            try db.execute(
                sql: "INSERT INTO escalationPolicy (alertID, policy, raisedAt) VALUES (?, ?, ?)",
                arguments: [alert.id.uuidString, policyText, now.timeIntervalSince1970])
            if takesFirstStep { try Self.recordStep(alertID: alert.id, step: 0, notice: alert, at: now, in: db) }
            return insertion
        }
    }

    package func insertEscalation(_ notice: Notice, channels: [String], alertID: UUID, step: Int, at now: Date) async throws -> Bool {
        try await writer.write { db in
            let open = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM notification WHERE id = ? AND acknowledgedAt IS NULL", arguments: [alertID.uuidString]) ?? false
            let taken = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM escalation WHERE alertID = ? AND step = ?", arguments: [alertID.uuidString, step]) ?? false
            guard open, !taken, try Self.insert(notice, channels: channels, at: now, in: db).inserted else { return false }
            try Self.recordStep(alertID: alertID, step: step, notice: notice, at: now, in: db)
            return true
        }
    }

    private static func insert(_ notice: Notice, channels: [String], at now: Date, in db: Database) throws -> OutboxInsertion {
        if let payload = try String.fetchOne(db, sql: "SELECT payload FROM notification WHERE id = ?", arguments: [notice.id.uuidString]) {
            return OutboxInsertion(notice: try OutboxCoding.notice(payload), inserted: false)
        }
        if let key = notice.deduplicationKey, let existing = try openDuplicate(of: key, in: db) {
            return OutboxInsertion(notice: existing, inserted: false)
        }
        let at = now.timeIntervalSince1970
        try db.execute(
            sql: "INSERT INTO notification (id, payload, severity, createdAt, deduplicationKey) VALUES (?, ?, ?, ?, ?)",
            arguments: [notice.id.uuidString, try OutboxCoding.text(notice), notice.severity.rawValue, at, notice.deduplicationKey])
        for channel in channels {
            try db.execute(
                sql: "INSERT INTO delivery (notificationID, channel, status, nextAttemptAt) VALUES (?, ?, 'pending', ?)",
                arguments: [notice.id.uuidString, channel, at])
        }
        return OutboxInsertion(notice: notice, inserted: true)
    }

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
        return try payload.map(OutboxCoding.notice)
    }

    private static func recordStep(alertID: UUID, step: Int, notice: Notice, at now: Date, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO escalation (alertID, step, at, notificationID, recipients) VALUES (?, ?, ?, ?, ?)",
            arguments: [alertID.uuidString, step, now.timeIntervalSince1970, notice.id.uuidString, try OutboxCoding.text(notice.recipients)])
    }

    // MARK: Escalation

    package func alertID(ofNotice id: UUID) async throws -> UUID {
        let alert = try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT alertID FROM escalation WHERE notificationID = ?", arguments: [id.uuidString])
        }
        return alert.flatMap(UUID.init(uuidString:)) ?? id
    }

    package func openEscalations() async throws -> [StoredEscalation] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.payload, p.policy, p.raisedAt, (SELECT group_concat(step) FROM escalation e WHERE e.alertID = n.id) AS steps
                FROM escalationPolicy p JOIN notification n ON n.id = p.alertID WHERE n.acknowledgedAt IS NULL ORDER BY p.raisedAt
                """)
        }.map { row in
            let steps: String? = row["steps"]
            return StoredEscalation(
                alert: try OutboxCoding.notice(row["payload"]), policy: try OutboxCoding.policy(row["policy"]),
                raisedAt: Date(timeIntervalSince1970: row["raisedAt"]),
                stepsTaken: Set((steps ?? "").split(separator: ",").compactMap { Int($0) }))
        }
    }

    // MARK: Dispatch

    /// One process dispatches from this store: the dispatcher's own flight list is the
    /// hold, so nothing is written here, and every due delivery is returned (those in
    /// flight among them).
    /// Every due delivery, whatever its channel: one outbox owns the file, and a delivery
    /// on a channel it no longer has is attempted, fails as not configured and ends as a
    /// dead letter, never silently pending.
    package func claimDue(at now: Date, hold: Duration, limit: Int, channels: [String]) async throws -> DueDeliveries {
        let at = now.timeIntervalSince1970
        return try await writer.read { db in
            let due = try Row.fetchAll(db, sql: """
                SELECT d.notificationID, d.channel, n.payload FROM delivery d JOIN notification n ON n.id = d.notificationID
                WHERE d.status = 'pending' AND d.nextAttemptAt <= ? ORDER BY d.nextAttemptAt
                """, arguments: [at])
            let next = try Double.fetchOne(
                db, sql: "SELECT min(nextAttemptAt) FROM delivery WHERE status = 'pending' AND nextAttemptAt > ?", arguments: [at])
            return DueDeliveries(
                due: try due.map { row in
                    (DeliveryKey(notificationID: row["notificationID"], channel: row["channel"]), try OutboxCoding.notice(row["payload"]))
                },
                nextDue: next.map(Date.init(timeIntervalSince1970:)))
        }
    }

    package func release(_ key: DeliveryKey) async throws {}

    package func recordAttempt(_ attempt: AttemptOutcome, maxAttempts: Int, retryAt: @escaping @Sendable (Int) -> Date) async throws -> OutboxEvent {
        let key = attempt.key, at = attempt.at.timeIntervalSince1970, id = attempt.notice
        return try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO attempt (notificationID, channel, at, succeeded, error) VALUES (?, ?, ?, ?, ?)",
                arguments: [key.notificationID, key.channel, at, attempt.error == nil, attempt.error])
            let attempts = (try Int.fetchOne(
                db, sql: "SELECT attempts FROM delivery WHERE notificationID = ? AND channel = ?",
                arguments: [key.notificationID, key.channel]) ?? 0) + 1
            guard let error = attempt.error else {
                try db.execute(
                    sql: "UPDATE delivery SET status = 'delivered', attempts = ?, deliveredAt = ?, lastError = NULL WHERE notificationID = ? AND channel = ?",
                    arguments: [attempts, at, key.notificationID, key.channel])
                return .delivered(id, channel: key.channel)
            }
            if attempt.permanent || attempts >= maxAttempts {
                try db.execute(
                    sql: "UPDATE delivery SET status = 'dead', attempts = ?, lastError = ? WHERE notificationID = ? AND channel = ?",
                    arguments: [attempts, error, key.notificationID, key.channel])
                return .dead(id, channel: key.channel, error: error)
            }
            let retry = retryAt(attempts)
            try db.execute(
                sql: "UPDATE delivery SET attempts = ?, lastError = ?, nextAttemptAt = ? WHERE notificationID = ? AND channel = ?",
                arguments: [attempts, error, retry.timeIntervalSince1970, key.notificationID, key.channel])
            return .failed(id, channel: key.channel, attempt: attempts, error: error, retryAt: retry)
        }
    }

    // MARK: Queries

    package func notices(about subject: String) async throws -> [Notice] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT payload FROM notification WHERE json_extract(payload, '$.subject') = ? ORDER BY createdAt, id",
                arguments: [subject])
        }.map(OutboxCoding.notice)
    }

    package func erase(about subject: String) async throws -> Int {
        try await writer.write { db in
            // Deliveries, attempts, steps and policies go with their notice (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM notification WHERE json_extract(payload, '$.subject') = ?", arguments: [subject])
            return db.changesCount
        }
    }

    package func notification(_ id: UUID) async throws -> Notice? {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT payload FROM notification WHERE id = ?", arguments: [id.uuidString])
        }.map(OutboxCoding.notice)
    }

    package func deliveries(of id: UUID) async throws -> [DeliveryStatus] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM delivery WHERE notificationID = ? ORDER BY channel", arguments: [id.uuidString])
        }.map(Self.status)
    }

    package func attempts(of id: UUID) async throws -> [DeliveryAttempt] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM attempt WHERE notificationID = ? ORDER BY id", arguments: [id.uuidString])
        }.map { row in
            DeliveryAttempt(
                notificationID: try OutboxCoding.notificationID(row["notificationID"], in: "attempt"), channel: row["channel"],
                at: Date(timeIntervalSince1970: row["at"]), succeeded: row["succeeded"], error: row["error"])
        }
    }

    package func deadLetters() async throws -> [DeliveryStatus] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM delivery WHERE status = 'dead' ORDER BY rowid DESC")
        }.map(Self.status)
    }

    package func pendingCount() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery WHERE status = 'pending'") ?? 0 }
    }

    package func acknowledge(_ id: UUID, by worker: String, at now: Date) async throws -> Bool {
        try await writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM notification WHERE id = ?", arguments: [id.uuidString]) != nil else {
                throw NotificationError.unknownNotification(id)
            }
            try db.execute(
                sql: "UPDATE notification SET acknowledgedBy = ?, acknowledgedAt = ? WHERE id = ? AND acknowledgedAt IS NULL",
                arguments: [worker, now.timeIntervalSince1970, id.uuidString])
            return db.changesCount > 0
        }
    }

    package func acknowledgement(of id: UUID) async throws -> (worker: String, at: Date)? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT acknowledgedBy, acknowledgedAt FROM notification WHERE id = ? AND acknowledgedAt IS NOT NULL",
                arguments: [id.uuidString])
        }.map { row in (row["acknowledgedBy"], Date(timeIntervalSince1970: row["acknowledgedAt"])) }
    }

    package func openAlerts() async throws -> [Notice] {
        try await writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT payload FROM notification WHERE severity IN ('warning', 'alarm') AND acknowledgedAt IS NULL
                AND id NOT IN (SELECT notificationID FROM escalation WHERE notificationID <> alertID) ORDER BY createdAt
                """)
        }.map(OutboxCoding.notice)
    }

    package func escalations(of alertIDs: [UUID]) async throws -> [UUID: [EscalationRecord]] {
        guard !alertIDs.isEmpty else { return [:] }
        let ids = Set(alertIDs.map(\.uuidString))
        var escalations: [UUID: [EscalationRecord]] = [:]
        for row in try await writer.read({ db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM escalation WHERE alertID IN (SELECT value FROM json_each(?)) ORDER BY alertID, step",
                arguments: [String(decoding: try JSONEncoder().encode(Array(ids)), as: UTF8.self)])
        }) {
            guard let alertID = UUID(uuidString: row["alertID"]) else { continue }
            escalations[alertID, default: []].append(EscalationRecord(
                alertID: alertID, step: row["step"], at: Date(timeIntervalSince1970: row["at"]),
                notificationID: try OutboxCoding.notificationID(row["notificationID"], in: "escalation"),
                recipients: OutboxCoding.recipients(row["recipients"])))
        }
        return escalations
    }

    private static func status(_ row: Row) throws -> DeliveryStatus {
        let state = DeliveryStatus.State(rawValue: row["status"]) ?? .pending
        let deliveredAt: Double? = row["deliveredAt"]
        return DeliveryStatus(
            notificationID: try OutboxCoding.notificationID(row["notificationID"], in: "delivery"), channel: row["channel"], state: state,
            attempts: row["attempts"], nextAttemptAt: state == .pending ? Date(timeIntervalSince1970: row["nextAttemptAt"]) : nil,
            lastError: row["lastError"], deliveredAt: deliveredAt.map(Date.init(timeIntervalSince1970:)))
    }

    // MARK: Schema

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-outbox") { db in
            try db.create(table: "notification") { table in
                table.primaryKey("id", .text)
                table.column("payload", .text).notNull()
                table.column("severity", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.column("deduplicationKey", .text).indexed()
                table.column("acknowledgedBy", .text)
                table.column("acknowledgedAt", .double)
            }
            try db.create(table: "delivery") { table in
                table.column("notificationID", .text).notNull().references("notification", onDelete: .cascade)
                table.column("channel", .text).notNull()
                table.column("status", .text).notNull()
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("nextAttemptAt", .double).notNull()
                table.column("lastError", .text)
                table.column("deliveredAt", .double)
                table.primaryKey(["notificationID", "channel"])
            }
            try db.create(index: "delivery_due", on: "delivery", columns: ["status", "nextAttemptAt"])
            try db.create(table: "attempt") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("notificationID", .text).notNull().indexed().references("notification", onDelete: .cascade)
                table.column("channel", .text).notNull()
                table.column("at", .double).notNull()
                table.column("succeeded", .boolean).notNull()
                table.column("error", .text)
            }
            try db.create(table: "escalation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("alertID", .text).notNull().indexed().references("notification", onDelete: .cascade)
                table.column("step", .integer).notNull()
                table.column("at", .double).notNull()
                table.column("notificationID", .text).notNull()
                table.column("recipients", .text).notNull()
            }
        }
        migrator.registerMigration("v2-escalation-policies") { db in
            try db.create(table: "escalationPolicy") { table in
                table.primaryKey("alertID", .text).references("notification", onDelete: .cascade)
                table.column("policy", .text).notNull()
                table.column("raisedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v3-push-subscriptions", migrate: SQLitePushSubscriptions.createTable)
        return migrator
    }
}
