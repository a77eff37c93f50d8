import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// The audit trail in PostgreSQL, one chain for every node: an append locks the head
/// row, so appends from several nodes take turns and each links to the one before.
public struct PostgresAuditRecords: AuditRecords {
    private let pool: PostgresPool

    /// The trail in `pool`'s database; its tables are made on first use by any node.
    public init(_ pool: PostgresPool) async throws(MonitoringError) {
        self.pool = pool
        do {
            try await pool.migrate(
                "audit",
                [
                    .init(
                        "v1-audit",
                        """
                        CREATE TABLE audit_entry (
                            sequence BIGINT PRIMARY KEY,
                            at BIGINT NOT NULL,
                            actor TEXT,
                            role TEXT,
                            action TEXT NOT NULL,
                            patient_id TEXT,
                            target TEXT NOT NULL,
                            status INTEGER NOT NULL,
                            address TEXT,
                            detail TEXT,
                            previous_hash TEXT NOT NULL,
                            hash TEXT NOT NULL
                        );
                        CREATE INDEX audit_entry_by_actor ON audit_entry (actor, sequence);
                        CREATE INDEX audit_entry_by_patient ON audit_entry (patient_id, sequence);
                        CREATE TABLE audit_head (id INTEGER PRIMARY KEY CHECK (id = 1), sequence BIGINT NOT NULL, hash TEXT NOT NULL);
                        INSERT INTO audit_head VALUES (1, 0, '\(AuditChain.genesis)');
                        """)
                ])
        } catch {
            throw Self.error(error)
        }
    }

    private static let columns = "sequence, at, actor, role, action, patient_id, target, status, address, detail, previous_hash, hash"

    /// A row of `jsonb_to_recordset`: the entries travel as one JSON parameter.
    private struct Row: Encodable {
        let sequence: Int64, at: Int64, actor: String?, role: String?, action: String, patient_id: String?, target: String
        let status: Int, address: String?, detail: String?, previous_hash: String, hash: String
    }

    public func append(_ events: [AuditEvent]) async throws(MonitoringError) -> [AuditEntry] {
        guard !events.isEmpty else { return [] }
        let pool = self.pool
        do {
            return try await pool.transaction { connection in
                let head = try await connection.rows("SELECT sequence, hash FROM audit_head WHERE id = 1 FOR UPDATE", pool)
                    .first.map { row in
                        let (sequence, hash) = try row.decode((Int64, String).self)
                        return AuditHead(sequence: sequence, hash: hash)
                    } ?? .empty
                let entries = AuditChain.seal(events, after: head)
                let rows = entries.map { entry in
                    let event = entry.event
                    return Row(
                        sequence: entry.sequence, at: AuditChain.milliseconds(event.at), actor: event.actor, role: event.role?.rawValue,
                        action: event.action.rawValue, patient_id: event.patient?.rawValue, target: event.target, status: event.status,
                        address: event.address, detail: event.detail, previous_hash: entry.previousHash, hash: entry.hash)
                }
                let json = String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
                try await connection.rows(
                    """
                    INSERT INTO audit_entry (\(unescaped: Self.columns))
                    SELECT \(unescaped: Self.columns) FROM jsonb_to_recordset(\(json)::JSONB) AS x(
                        sequence BIGINT, at BIGINT, actor TEXT, role TEXT, action TEXT, patient_id TEXT, target TEXT, status INTEGER,
                        address TEXT, detail TEXT, previous_hash TEXT, hash TEXT)
                    """, pool)
                let last = entries[entries.count - 1]
                try await connection.rows("UPDATE audit_head SET sequence = \(last.sequence), hash = \(last.hash) WHERE id = 1", pool)
                return entries
            }
        } catch {
            throw Self.error(error)
        }
    }

    public func entries(_ query: AuditQuery) async throws(MonitoringError) -> [AuditEntry] {
        try await select(
            """
            SELECT \(unescaped: Self.columns) FROM audit_entry
            WHERE (\(query.actor)::TEXT IS NULL OR lower(actor COLLATE "C") = lower(\(query.actor) COLLATE "C"))
              AND (\(query.patient?.rawValue)::TEXT IS NULL OR patient_id = \(query.patient?.rawValue))
              AND (\(query.action?.rawValue)::TEXT IS NULL OR action = \(query.action?.rawValue))
              AND (\(query.since.map(AuditChain.milliseconds))::BIGINT IS NULL OR at >= \(query.since.map(AuditChain.milliseconds)))
              AND (\(query.until.map(AuditChain.milliseconds))::BIGINT IS NULL OR at < \(query.until.map(AuditChain.milliseconds)))
              AND (\(query.before)::BIGINT IS NULL OR sequence < \(query.before))
            ORDER BY sequence DESC LIMIT \(query.limit)
            """)
    }

    public func chain(after sequence: Int64, limit: Int) async throws(MonitoringError) -> [AuditEntry] {
        try await select("SELECT \(unescaped: Self.columns) FROM audit_entry WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(limit)")
    }

    public func head() async throws(MonitoringError) -> AuditHead {
        do {
            let rows = try await pool.query("SELECT sequence, hash FROM audit_head WHERE id = 1")
            guard let row = rows.first else { return .empty }
            let (sequence, hash) = try row.decode((Int64, String).self)
            return AuditHead(sequence: sequence, hash: hash)
        } catch {
            throw Self.error(error)
        }
    }

    private func select(_ query: PostgresQuery) async throws(MonitoringError) -> [AuditEntry] {
        let rows: [PostgresRow]
        do {
            rows = try await pool.query(query)
        } catch {
            throw Self.error(error)
        }
        do {
            return try rows.map { row in
                let (sequence, at, actor, role, action, patient, target, status, address, detail, previousHash, hash) = try row.decode(
                    (Int64, Int64, String?, String?, String, String?, String, Int, String?, String?, String, String).self)
                return AuditEntry.stored(
                    sequence: sequence, at: at, actor: actor, role: role, action: action, patient: patient, target: target, status: status,
                    address: address, detail: detail, previousHash: previousHash, hash: hash)
            }
        } catch {
            throw .storage("an audit entry is unreadable: \(error)")
        }
    }

    /// A database failure as the application's error: 503 when the server cannot be reached.
    private static func error(_ error: any Error) -> MonitoringError {
        if let error = error as? MonitoringError { return error }
        let failure = PostgresFailure(error)
        return failure.isUnavailable ? .unavailable(failure.description) : .storage(failure.description)
    }
}
