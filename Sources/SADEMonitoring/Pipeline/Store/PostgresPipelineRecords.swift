import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// The pipeline's state in PostgreSQL, shared by every node: the anchors the evaluating
/// node reached (so the next one goes on from there) and the alert book (so an alert
/// raised on one node is listed, counted and acknowledged on all).
package struct PostgresPipelineRecords: PipelineRecords {
    private let pool: PostgresPool

    /// The records in `pool`'s database; the tables are made on first use by any node.
    package init(_ pool: PostgresPool) async throws(AlertBookError) {
        self.pool = pool
        do {
            try await pool.migrate("pipeline", Self.migrations)
        } catch {
            throw Self.error(error)
        }
    }

    static let migrations: [PostgresPool.Migration] = [
        .init(
            "v1-pipeline",
            """
            CREATE TABLE pipeline_anchor (
                type TEXT PRIMARY KEY,
                anchor BIGINT NOT NULL
            );
            CREATE TABLE pipeline_alert (
                id TEXT PRIMARY KEY,
                patient TEXT NOT NULL,
                sector TEXT,
                category TEXT NOT NULL,
                severity TEXT NOT NULL,
                title TEXT NOT NULL,
                message TEXT NOT NULL,
                raised_at DOUBLE PRECISION NOT NULL,
                assignee TEXT,
                acknowledged_by TEXT,
                acknowledged_at DOUBLE PRECISION,
                episode_open BOOLEAN NOT NULL DEFAULT TRUE,
                escalation_steps INTEGER NOT NULL DEFAULT 0,
                position BIGSERIAL NOT NULL
            );
            CREATE INDEX pipeline_alert_patient ON pipeline_alert (patient);
            CREATE INDEX pipeline_alert_open ON pipeline_alert (raised_at) WHERE acknowledged_at IS NULL;
            """),
        // Each shard of patients is evaluated by one node at a time, from its own anchors;
        // pipeline_anchor stays where the pipeline was before, where new shards start.
        .init(
            "v2-shard-anchors",
            """
            CREATE TABLE pipeline_shard_anchor (
                shard INTEGER NOT NULL,
                type TEXT NOT NULL,
                anchor BIGINT NOT NULL,
                PRIMARY KEY (shard, type)
            );
            """),
    ]

    // MARK: Anchors

    package func anchors(of shards: PatientShards) async throws(AlertBookError) -> [Int: [String: HealthAnchor]] {
        let members = shards.members.map(Int64.init)
        let rows = try await query(
            """
            SELECT shard, type, anchor FROM pipeline_shard_anchor WHERE shard = ANY(\(members)::BIGINT[])
            UNION ALL SELECT -1, type, anchor FROM pipeline_anchor
            """)
        return try decode {
            var before: [String: HealthAnchor] = [:], anchors: [Int: [String: HealthAnchor]] = [:]
            for row in rows {
                let (shard, type, anchor) = try row.decode((Int, String, Int64).self)
                if shard < 0 { before[type] = HealthAnchor(rawValue: anchor) } else { anchors[shard, default: [:]][type] = HealthAnchor(rawValue: anchor) }
            }
            return Dictionary(uniqueKeysWithValues: shards.members.map { ($0, before.merging(anchors[$0] ?? [:]) { _, shard in shard }) })
        }
    }

    package func advanceAnchors(of shards: PatientShards, to anchors: [String: HealthAnchor]) async throws(AlertBookError) {
        guard !anchors.isEmpty, !shards.isEmpty else { return }
        let rows = shards.members.flatMap { shard in anchors.sorted { $0.key < $1.key }.map { (shard, $0.key, $0.value.rawValue) } }
        try await query(
            """
            INSERT INTO pipeline_shard_anchor (shard, type, anchor)
            SELECT * FROM unnest(\(rows.map { Int64($0.0) })::BIGINT[], \(rows.map(\.1))::TEXT[], \(rows.map(\.2))::BIGINT[])
            ON CONFLICT (shard, type) DO UPDATE SET anchor = greatest(pipeline_shard_anchor.anchor, excluded.anchor)
            """)
    }

    // MARK: Alerts

    private static let columns =
        "id, patient, sector, category, severity, title, message, raised_at, assignee, acknowledged_by, acknowledged_at, escalation_steps"

    package func insert(_ alert: AlertRecord) async throws(AlertBookError) -> Bool {
        try await !query(
            """
            INSERT INTO pipeline_alert (id, patient, sector, category, severity, title, message, raised_at, assignee, escalation_steps)
            VALUES (\(alert.id.uuidString), \(alert.patient.rawValue), \(alert.sector), \(alert.category.rawValue), \(alert.severity.rawValue),
                    \(alert.title), \(alert.message), \(alert.raisedAt.timeIntervalSince1970), \(alert.assignee), \(alert.escalations.count))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """
        ).isEmpty
    }

    package func alert(_ id: UUID) async throws(AlertBookError) -> AlertRow? {
        try await alertRows("SELECT \(unescaped: Self.columns) FROM pipeline_alert WHERE id = \(id.uuidString)").first
    }

    package func alerts(status: AlertStatus, patients: Set<PatientID>?, limit: Int) async throws(AlertBookError) -> [AlertRow] {
        let list = patients.map { $0.map(\.rawValue).sorted() }
        return try await alertRows(
            """
            SELECT \(unescaped: Self.columns) FROM pipeline_alert
            WHERE (\(status.rawValue) = 'all' OR (acknowledged_at IS NULL) = (\(status.rawValue) = 'open'))
            AND (\(list)::TEXT[] IS NULL OR patient = ANY(\(list)::TEXT[]))
            ORDER BY raised_at DESC, position DESC LIMIT \(max(0, limit))
            """)
    }

    package func openAlertCounts(patients: Set<PatientID>?) async throws(AlertBookError) -> [PatientID: Int] {
        let list = patients.map { $0.map(\.rawValue).sorted() }
        let rows = try await query(
            """
            SELECT patient, COUNT(*) FROM pipeline_alert
            WHERE acknowledged_at IS NULL AND (\(list)::TEXT[] IS NULL OR patient = ANY(\(list)::TEXT[])) GROUP BY patient
            """)
        return try decode {
            Dictionary(try rows.map { row in let (patient, count) = try row.decode((String, Int).self); return (PatientID(rawValue: patient), count) },
                uniquingKeysWith: +)
        }
    }

    package func openAlertLoads() async throws(AlertBookError) -> [StaffID: Int] {
        let rows = try await query(
            "SELECT assignee, COUNT(*) FROM pipeline_alert WHERE acknowledged_at IS NULL AND assignee IS NOT NULL GROUP BY assignee")
        return try decode { Dictionary(try rows.map { try $0.decode((String, Int).self) }, uniquingKeysWith: +) }
    }

    package func markAcknowledged(_ id: UUID, by staff: StaffID, at date: Date) async throws(AlertBookError) -> Bool {
        try await !query(
            """
            UPDATE pipeline_alert SET acknowledged_by = \(staff), acknowledged_at = \(date.timeIntervalSince1970)
            WHERE id = \(id.uuidString) AND acknowledged_at IS NULL RETURNING id
            """
        ).isEmpty
    }

    package func openEpisodeAlert(of patient: PatientID, category: AlertCategory) async throws(AlertBookError) -> UUID? {
        let rows = try await query(
            """
            SELECT id FROM pipeline_alert
            WHERE patient = \(patient.rawValue) AND category = \(category.rawValue) AND episode_open AND acknowledged_at IS NULL
            ORDER BY raised_at DESC, position DESC LIMIT 1
            """)
        return try decode { try rows.first.flatMap { UUID(uuidString: try $0.decode(String.self)) } }
    }

    package func deleteAlerts(of patient: PatientID) async throws(AlertBookError) -> Int {
        try await query("DELETE FROM pipeline_alert WHERE patient = \(patient.rawValue) RETURNING id").count
    }

    package func closeEpisode(of id: UUID) async throws(AlertBookError) {
        try await query("UPDATE pipeline_alert SET episode_open = FALSE WHERE id = \(id.uuidString)")
    }

    package func unacknowledged() async throws(AlertBookError) -> [AlertRow] {
        try await alertRows(
            "SELECT \(unescaped: Self.columns) FROM pipeline_alert WHERE acknowledged_at IS NULL ORDER BY raised_at, position")
    }

    package func claimEscalationSteps(of id: UUID, from known: Int, to count: Int) async throws(AlertBookError) -> Bool {
        try await !query(
            """
            UPDATE pipeline_alert SET escalation_steps = \(count) WHERE id = \(id.uuidString) AND escalation_steps = \(known) RETURNING id
            """
        ).isEmpty
    }

    // MARK: Database access with typed errors

    private func alertRows(_ query: PostgresQuery) async throws(AlertBookError) -> [AlertRow] {
        let rows = try await self.query(query)
        return try decode {
            try rows.map { row in
                let (id, patient, sector, category, severity, title, message, raisedAt, assignee, acknowledgedBy, acknowledgedAt, steps) =
                    try row.decode((String, String, String?, String, String, String, String, Double, String?, String?, Double?, Int).self)
                return try AlertRow(
                    id: id, patient: patient, sector: sector, category: category, severity: severity, title: title, message: message,
                    raisedAt: raisedAt, assignee: assignee, acknowledgedBy: acknowledgedBy, acknowledgedAt: acknowledgedAt,
                    escalationSteps: steps)
            }
        }
    }

    @discardableResult
    private func query(_ query: PostgresQuery) async throws(AlertBookError) -> [PostgresRow] {
        do {
            return try await pool.query(query)
        } catch {
            throw Self.error(error)
        }
    }

    /// A database failure as the book's error: 503 when the server cannot be reached.
    private static func error(_ failure: PostgresFailure) -> AlertBookError {
        failure.isUnavailable ? .unavailable(failure.description) : .storage(failure.description)
    }

    private func decode<T>(_ body: () throws -> T) throws(AlertBookError) -> T {
        do {
            return try body()
        } catch let error as AlertBookError {
            throw error
        } catch {
            throw .storage("a pipeline row is unreadable: \(error)")
        }
    }
}
