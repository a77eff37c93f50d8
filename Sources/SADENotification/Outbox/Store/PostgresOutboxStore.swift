import Foundation
import Logging
import PostgresNIO
import SADEPostgres

/// The outbox in PostgreSQL, shared by every node: each node's dispatcher claims due
/// deliveries with `FOR UPDATE SKIP LOCKED` and holds them while it attempts them, so a
/// delivery is attempted by one node at a time and a dead node's claims run out; an
/// escalation step is taken once across nodes (the alert's row is locked while the step
/// is checked and stored, and `(alert, step)` is unique); two nodes sending the same
/// deduplication key at once store one notice (a transaction-scoped advisory lock on
/// the key).
package struct PostgresOutboxStore: OutboxStore {
    private let pool: PostgresPool
    /// Who holds the deliveries this store's dispatcher claims: one per outbox.
    private let holder = UUID().uuidString

    package var isShared: Bool { true }

    package var pushSubscriptions: any PushSubscriptionRecords { PostgresPushSubscriptions(pool: pool) }

    /// The outbox in `pool`'s database; the tables are made on first use by any node.
    package init(_ pool: PostgresPool) async throws {
        self.pool = pool
        try await pool.migrate("outbox", Self.migrations)
    }

    static let migrations: [PostgresPool.Migration] = [
        .init(
            "v1-outbox",
            """
            CREATE TABLE outbox_notification (
                id TEXT PRIMARY KEY,
                payload TEXT NOT NULL,
                severity TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                deduplication_key TEXT,
                acknowledged_by TEXT,
                acknowledged_at DOUBLE PRECISION
            );
            CREATE INDEX outbox_notification_key ON outbox_notification (deduplication_key);
            CREATE TABLE outbox_delivery (
                notification_id TEXT NOT NULL REFERENCES outbox_notification (id) ON DELETE CASCADE,
                channel TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at DOUBLE PRECISION NOT NULL,
                held_until DOUBLE PRECISION NOT NULL DEFAULT 0,
                last_error TEXT,
                delivered_at DOUBLE PRECISION,
                position BIGSERIAL NOT NULL,
                PRIMARY KEY (notification_id, channel)
            );
            CREATE INDEX outbox_delivery_pending ON outbox_delivery (next_attempt_at) WHERE status = 'pending';
            CREATE TABLE outbox_attempt (
                id BIGSERIAL PRIMARY KEY,
                notification_id TEXT NOT NULL REFERENCES outbox_notification (id) ON DELETE CASCADE,
                channel TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                succeeded BOOLEAN NOT NULL,
                error TEXT
            );
            CREATE INDEX outbox_attempt_notification ON outbox_attempt (notification_id);
            CREATE TABLE outbox_escalation (
                alert_id TEXT NOT NULL REFERENCES outbox_notification (id) ON DELETE CASCADE,
                step INTEGER NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                notification_id TEXT NOT NULL,
                recipients TEXT NOT NULL,
                PRIMARY KEY (alert_id, step)
            );
            CREATE INDEX outbox_escalation_notice ON outbox_escalation (notification_id);
            CREATE TABLE outbox_policy (
                alert_id TEXT PRIMARY KEY REFERENCES outbox_notification (id) ON DELETE CASCADE,
                policy TEXT NOT NULL,
                raised_at DOUBLE PRECISION NOT NULL
            );
            """),
        .init("v2-delivery-holder", "ALTER TABLE outbox_delivery ADD COLUMN held_by TEXT;"),
        PostgresPushSubscriptions.migration,
    ]

    // MARK: Accepting

    package func insert(_ notice: Notice, channels: [String], at now: Date) async throws -> OutboxInsertion {
        try await pool.transaction { connection in try await Self.insert(notice, channels: channels, at: now, on: connection) }
    }

    package func insertAlert(_ alert: Notice, channels: [String], policy: EscalationPolicy, takesFirstStep: Bool, at now: Date) async throws
        -> OutboxInsertion
    {
        let policyText = try OutboxCoding.text(policy)
        return try await pool.transaction { connection in
            try await Self.insert(alert, channels: channels, at: now, policy: policyText, takesFirstStep: takesFirstStep, on: connection)
        }
    }

    package func insertEscalation(_ notice: Notice, channels: [String], alertID: UUID, step: Int, at now: Date) async throws -> Bool {
        try await pool.transaction { connection in
            // The alert's row, locked: an acknowledgement on another node waits for this
            // step or is seen by it, and a second node taking the same step waits here.
            let open = try await Self.run(
                "SELECT acknowledged_at IS NULL FROM outbox_notification WHERE id = \(alertID.uuidString) FOR UPDATE", on: connection)
            guard try open.first?.decode(Bool.self) == true else { return false }
            let taken = try await Self.run(
                "SELECT 1 FROM outbox_escalation WHERE alert_id = \(alertID.uuidString) AND step = \(step)", on: connection)
            guard taken.isEmpty, try await Self.insert(notice, channels: channels, at: now, on: connection).inserted else { return false }
            try await Self.recordStep(alertID: alertID, step: step, notice: notice, at: now, on: connection)
            return true
        }
    }

    /// Inserts `notice` with its deliveries — and, for an alert, its escalation `policy`
    /// and (when `takesFirstStep`) its first step — unless the same notice or an open
    /// duplicate of its key is there: one statement looks and inserts every row, as few
    /// trips as an alert's raising can take (the key's lock is taken before it, so that
    /// its snapshot sees what a node that held the lock committed).
    private static func insert(
        _ notice: Notice, channels: [String], at now: Date, policy: String? = nil, takesFirstStep: Bool = false,
        on connection: PostgresConnection
    ) async throws -> OutboxInsertion {
        if let key = notice.deduplicationKey {
            // Two nodes sending the same key at once: the second waits for the first's commit.
            try await run("SELECT pg_advisory_xact_lock(hashtextextended(\("outbox:" + key), 0))", on: connection)
        }
        // `found`: the same notice (sent on another node), else an open duplicate of its key:
        // on its way, reached someone and open, or escalating (as ``SQLiteOutboxStore``);
        // the notice and its rows are inserted only when there is none.
        let at = now.timeIntervalSince1970
        let rows = try await run(
            """
            WITH found AS (
              SELECT payload FROM (
                SELECT payload, 0 AS rank FROM outbox_notification WHERE id = \(notice.id.uuidString)
                UNION ALL (
                    SELECT payload, 1 FROM outbox_notification n WHERE \(notice.deduplicationKey)::TEXT IS NOT NULL
                    AND deduplication_key = \(notice.deduplicationKey)::TEXT AND (
                        EXISTS (SELECT 1 FROM outbox_delivery d WHERE d.notification_id = n.id AND (d.status = 'pending'
                            OR (d.status = 'delivered' AND n.severity IN ('warning', 'alarm') AND n.acknowledged_at IS NULL)))
                        OR (n.acknowledged_at IS NULL AND EXISTS (SELECT 1 FROM outbox_policy p WHERE p.alert_id = n.id)))
                    ORDER BY created_at DESC LIMIT 1)
              ) AS candidates ORDER BY rank LIMIT 1
            ), notification AS (
                INSERT INTO outbox_notification (id, payload, severity, created_at, deduplication_key)
                SELECT \(notice.id.uuidString), \(try OutboxCoding.text(notice)), \(notice.severity.rawValue), \(at), \(notice.deduplicationKey)::TEXT
                WHERE NOT EXISTS (SELECT 1 FROM found)
                ON CONFLICT (id) DO NOTHING RETURNING id
            ), delivery AS (
                INSERT INTO outbox_delivery (notification_id, channel, status, next_attempt_at)
                SELECT notification.id, channel, 'pending', \(at) FROM notification, unnest(\(channels)::TEXT[]) AS channel ORDER BY channel
                RETURNING 1
            ), policy AS (
                INSERT INTO outbox_policy (alert_id, policy, raised_at)
                SELECT id, \(policy)::TEXT, \(at) FROM notification WHERE \(policy)::TEXT IS NOT NULL RETURNING 1
            ), first_step AS (
                INSERT INTO outbox_escalation (alert_id, step, at, notification_id, recipients)
                SELECT id, 0, \(at), id, \(try OutboxCoding.text(notice.recipients)) FROM notification WHERE \(takesFirstStep) RETURNING 1
            )
            SELECT (SELECT payload FROM found), EXISTS (SELECT 1 FROM notification)
            """, on: connection)
        guard let row = rows.first else { throw NotificationError.unknownNotification(notice.id) }  // a SELECT without FROM: never
        let (found, inserted) = try row.decode((String?, Bool).self)
        if let found { return OutboxInsertion(notice: try OutboxCoding.notice(found), inserted: false) }
        guard inserted else {  // the same notice, sent on another node meanwhile
            let payload = try await run("SELECT payload FROM outbox_notification WHERE id = \(notice.id.uuidString)", on: connection)
            return OutboxInsertion(notice: try payload.first.map { try OutboxCoding.notice($0.decode(String.self)) } ?? notice, inserted: false)
        }
        return OutboxInsertion(notice: notice, inserted: true)
    }

    private static func recordStep(alertID: UUID, step: Int, notice: Notice, at now: Date, on connection: PostgresConnection) async throws {
        try await run(
            """
            INSERT INTO outbox_escalation (alert_id, step, at, notification_id, recipients)
            VALUES (\(alertID.uuidString), \(step), \(now.timeIntervalSince1970), \(notice.id.uuidString),
                    \(try OutboxCoding.text(notice.recipients)))
            """, on: connection)
    }

    // MARK: Escalation

    package func alertID(ofNotice id: UUID) async throws -> UUID {
        let rows = try await pool.query("SELECT alert_id FROM outbox_escalation WHERE notification_id = \(id.uuidString) LIMIT 1")
        return try rows.first.flatMap { UUID(uuidString: try $0.decode(String.self)) } ?? id
    }

    package func openEscalations() async throws -> [StoredEscalation] {
        try await pool.query(
            """
            SELECT n.payload, p.policy, p.raised_at, ARRAY(SELECT step FROM outbox_escalation e WHERE e.alert_id = n.id)
            FROM outbox_policy p JOIN outbox_notification n ON n.id = p.alert_id WHERE n.acknowledged_at IS NULL
            ORDER BY p.raised_at, p.alert_id
            """
        ).map { row in
            let (payload, policy, raisedAt, steps) = try row.decode((String, String, Double, [Int]).self)
            return StoredEscalation(
                alert: try OutboxCoding.notice(payload), policy: try OutboxCoding.policy(policy),
                raisedAt: Date(timeIntervalSince1970: raisedAt), stepsTaken: Set(steps))
        }
    }

    // MARK: Dispatch

    package func claimDue(at now: Date, hold: Duration, limit: Int, channels: [String]) async throws -> DueDeliveries {
        let at = now.timeIntervalSince1970, until = at + hold.seconds
        return try await pool.transaction { connection in
            let claimed = try await Self.run(
                """
                WITH due AS (
                    SELECT notification_id, channel FROM outbox_delivery
                    WHERE status = 'pending' AND next_attempt_at <= \(at) AND held_until <= \(at) AND channel = ANY(\(channels))
                    ORDER BY next_attempt_at, position LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                UPDATE outbox_delivery d SET held_until = \(until), held_by = \(holder) FROM due, outbox_notification n
                WHERE d.notification_id = due.notification_id AND d.channel = due.channel AND n.id = d.notification_id
                RETURNING d.notification_id, d.channel, n.payload, d.next_attempt_at, d.position
                """, on: connection)
            // Due rows another dispatcher is claiming at this moment are left to the next look,
            // rather than looked at again at once.
            let next = try await Self.run(
                """
                SELECT min(greatest(next_attempt_at, held_until)) FROM outbox_delivery
                WHERE status = 'pending' AND greatest(next_attempt_at, held_until) > \(at) AND channel = ANY(\(channels))
                """, on: connection)
            let rows = try claimed.map { try $0.decode((String, String, String, Double, Int).self) }
                .sorted { ($0.3, $0.4) < ($1.3, $1.4) }
            return DueDeliveries(
                due: try rows.map { (DeliveryKey(notificationID: $0.0, channel: $0.1), try OutboxCoding.notice($0.2)) },
                nextDue: try next.first?.decode(Double?.self).map { Date(timeIntervalSince1970: max($0, at)) })
        }
    }

    package func release(_ key: DeliveryKey) async throws {
        try await pool.query(
            """
            UPDATE outbox_delivery SET held_until = 0, held_by = NULL
            WHERE notification_id = \(key.notificationID) AND channel = \(key.channel) AND status = 'pending' AND held_by = \(holder)
            """)
    }

    package func recordAttempt(_ attempt: AttemptOutcome, maxAttempts: Int, retryAt: @escaping @Sendable (Int) -> Date) async throws -> OutboxEvent {
        let key = attempt.key, at = attempt.at.timeIntervalSince1970, id = attempt.notice
        return try await pool.transaction { connection in
            try await Self.run(
                """
                INSERT INTO outbox_attempt (notification_id, channel, at, succeeded, error)
                VALUES (\(key.notificationID), \(key.channel), \(at), \(attempt.error == nil), \(attempt.error))
                """, on: connection)
            let current = try await Self.run(
                """
                SELECT attempts, status = 'pending' AND held_by IS NOT DISTINCT FROM \(holder) FROM outbox_delivery
                WHERE notification_id = \(key.notificationID) AND channel = \(key.channel) FOR UPDATE
                """, on: connection)
            let (previous, stillHeld) = try current.first?.decode((Int, Bool).self) ?? (0, false)
            let attempts = previous + 1
            guard stillHeld else {
                // The hold ran out and another dispatcher took the delivery over: the attempt
                // is on record, the delivery's state is the other's to write.
                return attempt.error.map { .failed(id, channel: key.channel, attempt: attempts, error: $0, retryAt: attempt.at) }
                    ?? .delivered(id, channel: key.channel)
            }
            guard let error = attempt.error else {
                try await Self.run(
                    """
                    UPDATE outbox_delivery SET status = 'delivered', attempts = \(attempts), delivered_at = \(at), last_error = NULL, held_until = 0, held_by = NULL
                    WHERE notification_id = \(key.notificationID) AND channel = \(key.channel)
                    """, on: connection)
                return .delivered(id, channel: key.channel)
            }
            if attempt.permanent || attempts >= maxAttempts {
                try await Self.run(
                    """
                    UPDATE outbox_delivery SET status = 'dead', attempts = \(attempts), last_error = \(error), held_until = 0, held_by = NULL
                    WHERE notification_id = \(key.notificationID) AND channel = \(key.channel)
                    """, on: connection)
                return .dead(id, channel: key.channel, error: error)
            }
            let next = retryAt(attempts)
            try await Self.run(
                """
                UPDATE outbox_delivery SET attempts = \(attempts), last_error = \(error), next_attempt_at = \(next.timeIntervalSince1970),
                    held_until = 0, held_by = NULL
                WHERE notification_id = \(key.notificationID) AND channel = \(key.channel)
                """, on: connection)
            return .failed(id, channel: key.channel, attempt: attempts, error: error, retryAt: next)
        }
    }

    // MARK: Queries

    package func notices(about subject: String) async throws -> [Notice] {
        try await pool.query(
            "SELECT payload FROM outbox_notification WHERE payload::JSONB ->> 'subject' = \(subject) ORDER BY created_at, id"
        ).map { try OutboxCoding.notice($0.decode(String.self)) }
    }

    package func erase(about subject: String) async throws -> Int {
        // Deliveries, attempts, steps and policies go with their notice (ON DELETE CASCADE).
        try await pool.query("DELETE FROM outbox_notification WHERE payload::JSONB ->> 'subject' = \(subject) RETURNING id").count
    }

    package func notification(_ id: UUID) async throws -> Notice? {
        try await pool.query("SELECT payload FROM outbox_notification WHERE id = \(id.uuidString)").first.map {
            try OutboxCoding.notice($0.decode(String.self))
        }
    }

    private static let deliveryColumns = "notification_id, channel, status, attempts, next_attempt_at, last_error, delivered_at"

    package func deliveries(of id: UUID) async throws -> [DeliveryStatus] {
        try await pool.query(
            """
            SELECT \(unescaped: Self.deliveryColumns) FROM outbox_delivery WHERE notification_id = \(id.uuidString) ORDER BY channel COLLATE "C"
            """
        ).map(Self.status)
    }

    package func attempts(of id: UUID) async throws -> [DeliveryAttempt] {
        try await pool.query(
            "SELECT notification_id, channel, at, succeeded, error FROM outbox_attempt WHERE notification_id = \(id.uuidString) ORDER BY id"
        ).map { row in
            let (notice, channel, at, succeeded, error) = try row.decode((String?, String, Double, Bool, String?).self)
            return DeliveryAttempt(
                notificationID: try OutboxCoding.notificationID(notice, in: "attempt"), channel: channel,
                at: Date(timeIntervalSince1970: at), succeeded: succeeded, error: error)
        }
    }

    package func deadLetters() async throws -> [DeliveryStatus] {
        try await pool.query(
            "SELECT \(unescaped: Self.deliveryColumns) FROM outbox_delivery WHERE status = 'dead' ORDER BY position DESC"
        ).map(Self.status)
    }

    package func pendingCount() async throws -> Int {
        try await pool.query("SELECT COUNT(*) FROM outbox_delivery WHERE status = 'pending'").first?.decode(Int.self) ?? 0
    }

    package func acknowledge(_ id: UUID, by worker: String, at now: Date) async throws -> Bool {
        let rows = try await pool.query(
            """
            WITH target AS (SELECT id, acknowledged_at IS NULL AS open FROM outbox_notification WHERE id = \(id.uuidString) FOR UPDATE),
            changed AS (
                UPDATE outbox_notification n SET acknowledged_by = \(worker), acknowledged_at = \(now.timeIntervalSince1970)
                FROM target WHERE n.id = target.id AND target.open RETURNING n.id)
            SELECT (SELECT COUNT(*) FROM changed) FROM target
            """)
        guard let row = rows.first else { throw NotificationError.unknownNotification(id) }
        return try row.decode(Int.self) > 0
    }

    package func acknowledgement(of id: UUID) async throws -> (worker: String, at: Date)? {
        try await pool.query(
            """
            SELECT acknowledged_by, acknowledged_at FROM outbox_notification WHERE id = \(id.uuidString) AND acknowledged_at IS NOT NULL
            """
        ).first.map { row in
            let (worker, at) = try row.decode((String, Double).self)
            return (worker, Date(timeIntervalSince1970: at))
        }
    }

    package func openAlerts() async throws -> [Notice] {
        try await pool.query(
            """
            SELECT payload FROM outbox_notification WHERE severity IN ('warning', 'alarm') AND acknowledged_at IS NULL
            AND id NOT IN (SELECT notification_id FROM outbox_escalation WHERE notification_id <> alert_id) ORDER BY created_at, id
            """
        ).map { try OutboxCoding.notice($0.decode(String.self)) }
    }

    package func escalations(of alertIDs: [UUID]) async throws -> [UUID: [EscalationRecord]] {
        guard !alertIDs.isEmpty else { return [:] }
        var escalations: [UUID: [EscalationRecord]] = [:]
        for row in try await pool.query(
            """
            SELECT alert_id, step, at, notification_id, recipients FROM outbox_escalation
            WHERE alert_id = ANY(\(Array(Set(alertIDs.map(\.uuidString))))::TEXT[]) ORDER BY alert_id, step
            """)
        {
            let (alert, step, at, notice, recipients) = try row.decode((String, Int, Double, String?, String).self)
            guard let alertID = UUID(uuidString: alert) else { continue }
            escalations[alertID, default: []].append(EscalationRecord(
                alertID: alertID, step: step, at: Date(timeIntervalSince1970: at),
                notificationID: try OutboxCoding.notificationID(notice, in: "escalation"), recipients: OutboxCoding.recipients(recipients)))
        }
        return escalations
    }

    private static func status(_ row: PostgresRow) throws -> DeliveryStatus {
        let (notice, channel, status, attempts, nextAttemptAt, lastError, deliveredAt) = try row.decode(
            (String?, String, String, Int, Double, String?, Double?).self)
        let state = DeliveryStatus.State(rawValue: status) ?? .pending
        return DeliveryStatus(
            notificationID: try OutboxCoding.notificationID(notice, in: "delivery"), channel: channel, state: state, attempts: attempts,
            nextAttemptAt: state == .pending ? Date(timeIntervalSince1970: nextAttemptAt) : nil, lastError: lastError,
            deliveredAt: deliveredAt.map(Date.init(timeIntervalSince1970:)))
    }

    // MARK: Statements

    private static let logger = Logger(label: "sade.notifications.postgres")

    @discardableResult
    private static func run(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
    }
}
