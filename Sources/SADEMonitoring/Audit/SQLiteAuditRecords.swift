import Foundation
import GRDB
import SADEHealth

/// The audit trail in its own SQLite file (`audit.sqlite`), apart from the monitoring
/// database so that its writes never wait behind the pipeline's.
public struct SQLiteAuditRecords: AuditRecords {
    /// The file name inside the data directory.
    public static let fileName = "audit.sqlite"

    private let writer: any DatabaseWriter

    /// Opens (creating if needed) `<directory>/audit.sqlite`, or an in-memory trail when
    /// `directory` is `nil`.
    public init(directory: String?) throws(MonitoringError) {
        do {
            if let directory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                writer = try DatabasePool(path: (directory as NSString).appendingPathComponent(Self.fileName))
            } else {
                writer = try DatabaseQueue()
            }
            var migrator = DatabaseMigrator()
            migrator.registerMigration("audit-v1") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE auditEntry (
                            sequence INTEGER PRIMARY KEY,
                            at INTEGER NOT NULL,
                            actor TEXT,
                            role TEXT,
                            action TEXT NOT NULL,
                            patientID TEXT,
                            target TEXT NOT NULL,
                            status INTEGER NOT NULL,
                            address TEXT,
                            detail TEXT,
                            previousHash TEXT NOT NULL,
                            hash TEXT NOT NULL
                        );
                        CREATE INDEX auditEntryByActor ON auditEntry (actor, sequence);
                        CREATE INDEX auditEntryByPatient ON auditEntry (patientID, sequence);
                        CREATE TABLE auditHead (id INTEGER PRIMARY KEY CHECK (id = 1), sequence INTEGER NOT NULL, hash TEXT NOT NULL);
                        INSERT INTO auditHead VALUES (1, 0, '\(AuditChain.genesis)');
                        """)
            }
            try migrator.migrate(writer)
        } catch {
            throw .storage("cannot open the audit trail: \(error)")
        }
    }

    /// Opens an existing trail at `path` to read it (``AuditChain/verify(_:pageSize:)``),
    /// failing when there is none.
    public init(existingFileAt path: String) throws(MonitoringError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .notFound("no audit trail at \(path)") }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            writer = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw .storage("cannot open the audit trail at \(path): \(error)")
        }
    }

    public func append(_ events: [AuditEvent]) async throws(MonitoringError) -> [AuditEntry] {
        guard !events.isEmpty else { return [] }
        do {
            return try await writer.write { db in
                let head = try Row.fetchOne(db, sql: "SELECT sequence, hash FROM auditHead WHERE id = 1")
                    .map { AuditHead(sequence: $0["sequence"], hash: $0["hash"]) } ?? .empty
                let entries = AuditChain.seal(events, after: head)
                let insert = try db.cachedStatement(
                    sql: """
                        INSERT INTO auditEntry (sequence, at, actor, role, action, patientID, target, status, address, detail, previousHash, hash)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                for entry in entries {
                    let event = entry.event
                    try insert.execute(arguments: [
                        entry.sequence, AuditChain.milliseconds(event.at), event.actor, event.role?.rawValue, event.action.rawValue,
                        event.patient?.rawValue, event.target, event.status, event.address, event.detail, entry.previousHash, entry.hash,
                    ])
                }
                if let last = entries.last {
                    try db.execute(sql: "UPDATE auditHead SET sequence = ?, hash = ? WHERE id = 1", arguments: [last.sequence, last.hash])
                }
                return entries
            }
        } catch {
            throw MonitoringError(error)
        }
    }

    public func entries(_ query: AuditQuery) async throws(MonitoringError) -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let actor = query.actor { conditions.append("actor = ? COLLATE NOCASE"); arguments += [actor] }
        if let patient = query.patient { conditions.append("patientID = ?"); arguments += [patient.rawValue] }
        if let action = query.action { conditions.append("action = ?"); arguments += [action.rawValue] }
        if let since = query.since { conditions.append("at >= ?"); arguments += [AuditChain.milliseconds(since)] }
        if let until = query.until { conditions.append("at < ?"); arguments += [AuditChain.milliseconds(until)] }
        if let before = query.before { conditions.append("sequence < ?"); arguments += [before] }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments += [query.limit]
        return try await fetch("SELECT * FROM auditEntry \(filter) ORDER BY sequence DESC LIMIT ?", arguments)
    }

    public func chain(after sequence: Int64, limit: Int) async throws(MonitoringError) -> [AuditEntry] {
        try await fetch("SELECT * FROM auditEntry WHERE sequence > ? ORDER BY sequence LIMIT ?", [sequence, limit])
    }

    public func head() async throws(MonitoringError) -> AuditHead {
        do {
            return try await writer.read { db in
                try Row.fetchOne(db, sql: "SELECT sequence, hash FROM auditHead WHERE id = 1")
                    .map { AuditHead(sequence: $0["sequence"], hash: $0["hash"]) } ?? .empty
            }
        } catch {
            throw MonitoringError(error)
        }
    }

    private func fetch(_ sql: String, _ arguments: StatementArguments) async throws(MonitoringError) -> [AuditEntry] {
        do {
            return try await writer.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    AuditEntry.stored(
                        sequence: row["sequence"], at: row["at"], actor: row["actor"], role: row["role"], action: row["action"],
                        patient: row["patientID"], target: row["target"], status: row["status"], address: row["address"],
                        detail: row["detail"], previousHash: row["previousHash"], hash: row["hash"])
                }
            }
        } catch {
            throw MonitoringError(error)
        }
    }
}
