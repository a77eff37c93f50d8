import Foundation
import GRDB

extension NotificationOutbox {
    /// An alert being escalated, as stored: what is needed to resume it after a restart.
    struct StoredEscalation: Sendable {
        let alert: Notice
        let policy: EscalationPolicy
        let raisedAt: Date
        let stepsTaken: Set<Int>
    }

    /// Stores an alert with its escalation policy in one transaction: the notice and
    /// its deliveries, the policy, and — when the policy's first step is immediate —
    /// step 0. Returns the open duplicate instead, if there is one.
    func sendAlert(_ alert: Notice, policy: EscalationPolicy) throws -> Notice {
        let now = clock.now.timeIntervalSince1970
        let policyText = String(decoding: try Self.encoder.encode(policy), as: UTF8.self)
        let (stored, inserted) = try database.writer.write { db -> (Notice, Bool) in
            let (stored, inserted) = try insert(alert, in: db)
            guard inserted else { return (stored, false) }
            try db.execute(
                sql: "INSERT INTO escalationPolicy (alertID, policy, raisedAt) VALUES (?, ?, ?)",
                arguments: [alert.id.uuidString, policyText, now])
            if policy.steps.first?.after == .zero {
                try recordStep(alertID: alert.id, step: 0, notice: alert, at: now, in: db)
            }
            return (stored, true)
        }
        if inserted { notifyDispatcher() }
        return stored
    }

    /// Sends an escalation notice for step `step` of `alertID` in one transaction, only
    /// if the alert is still unacknowledged and the step was not taken yet.
    ///
    /// - Returns: whether it was sent.
    func sendEscalation(_ notice: Notice, alertID: UUID, step: Int) throws -> Bool {
        let now = clock.now.timeIntervalSince1970
        let sent = try database.writer.write { db -> Bool in
            let open = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM notification WHERE id = ? AND acknowledgedAt IS NULL", arguments: [alertID.uuidString]) ?? false
            let taken = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM escalation WHERE alertID = ? AND step = ?", arguments: [alertID.uuidString, step]) ?? false
            guard open, !taken else { return false }
            guard try insert(notice, in: db).inserted else { return false }
            try recordStep(alertID: alertID, step: step, notice: notice, at: now, in: db)
            return true
        }
        if sent { notifyDispatcher() }
        return sent
    }

    /// The alert an escalation notice was sent for, or `id` itself when it is none.
    func alertID(ofNotice id: UUID) throws -> UUID {
        let alert = try database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT alertID FROM escalation WHERE notificationID = ?", arguments: [id.uuidString])
        }
        return alert.flatMap(UUID.init(uuidString:)) ?? id
    }

    /// Unacknowledged alerts with a policy, for resuming their escalation.
    func openEscalations() throws -> [StoredEscalation] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT n.payload, p.policy, p.raisedAt, (SELECT group_concat(step) FROM escalation e WHERE e.alertID = n.id) AS steps
                FROM escalationPolicy p JOIN notification n ON n.id = p.alertID WHERE n.acknowledgedAt IS NULL ORDER BY p.raisedAt
                """)
        }.map { row in
            let payload: String = row["payload"], policy: String = row["policy"], steps: String? = row["steps"]
            return StoredEscalation(
                alert: try Self.decoder.decode(Notice.self, from: Data(payload.utf8)),
                policy: try Self.decoder.decode(EscalationPolicy.self, from: Data(policy.utf8)),
                raisedAt: Date(timeIntervalSince1970: row["raisedAt"]),
                stepsTaken: Set((steps ?? "").split(separator: ",").compactMap { Int($0) }))
        }
    }

    private func recordStep(alertID: UUID, step: Int, notice: Notice, at time: Double, in db: Database) throws {
        let recipients = String(decoding: try Self.encoder.encode(notice.recipients), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO escalation (alertID, step, at, notificationID, recipients) VALUES (?, ?, ?, ?, ?)",
            arguments: [alertID.uuidString, step, time, notice.id.uuidString, recipients])
    }
}
