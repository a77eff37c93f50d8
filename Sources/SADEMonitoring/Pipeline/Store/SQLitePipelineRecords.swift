import Foundation
import GRDB
import SADEHealth

/// The pipeline's state in the monitoring database (`pipeline_shard_anchor`, `pipeline_alert`,
/// made by ``PipelineMigrations``), for one node.
package struct SQLitePipelineRecords: PipelineRecords {
    let database: any DatabaseWriter

    /// The records in `database`.
    package init(_ database: MonitoringDatabase) {
        self.database = database.writer
    }

    // MARK: Anchors

    package func anchors(of shards: PatientShards) async throws(AlertBookError) -> [Int: [String: HealthAnchor]] {
        try await read { db in
            var before: [String: HealthAnchor] = [:], anchors: [Int: [String: HealthAnchor]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT type, anchor FROM pipeline_anchor") {
                before[row["type"]] = HealthAnchor(rawValue: row["anchor"])
            }
            for row in try Row.fetchAll(db, sql: "SELECT shard, type, anchor FROM pipeline_shard_anchor") {
                anchors[row["shard"], default: [:]][row["type"]] = HealthAnchor(rawValue: row["anchor"])
            }
            return Dictionary(uniqueKeysWithValues: shards.members.map { ($0, before.merging(anchors[$0] ?? [:]) { _, shard in shard }) })
        }
    }

    package func advanceAnchors(of shards: PatientShards, to anchors: [String: HealthAnchor]) async throws(AlertBookError) {
        guard !anchors.isEmpty else { return }
        try await write { db in
            for shard in shards.members {
                for (type, anchor) in anchors {
                    try db.execute(
                        sql: """
                            INSERT INTO pipeline_shard_anchor (shard, type, anchor) VALUES (?, ?, ?)
                            ON CONFLICT(shard, type) DO UPDATE SET anchor = max(anchor, excluded.anchor)
                            """,
                        arguments: [shard, type, anchor.rawValue])
                }
            }
        }
    }

    // MARK: Alerts

    package func insert(_ alert: AlertRecord) async throws(AlertBookError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO pipeline_alert
                    (id, patient, sector, category, severity, title, message, raisedAt, assignee, escalationSteps)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    alert.id.uuidString, alert.patient.rawValue, alert.sector, alert.category.rawValue, alert.severity.rawValue,
                    alert.title, alert.message, alert.raisedAt.timeIntervalSince1970, alert.assignee, alert.escalations.count,
                ])
            return db.changesCount > 0
        }
    }

    package func alert(_ id: UUID) async throws(AlertBookError) -> AlertRow? {
        try await rows("SELECT * FROM pipeline_alert WHERE id = ?", [id.uuidString.databaseValue]).first
    }

    package func alerts(status: AlertStatus, patients: Set<PatientID>?, limit: Int) async throws(AlertBookError) -> [AlertRow] {
        let state =
            switch status {
            case .open: "acknowledgedAt IS NULL"
            case .acknowledged: "acknowledgedAt IS NOT NULL"
            case .all: "1"
            }
        // `json_each` of NULL is empty: with no patient filter, every patient matches.
        let list = Self.json(patients)
        return try await rows(
            """
            SELECT * FROM pipeline_alert WHERE \(state) AND (? IS NULL OR patient IN (SELECT value FROM json_each(?)))
            ORDER BY raisedAt DESC, rowid DESC LIMIT ?
            """, [list.databaseValue, list.databaseValue, max(0, limit).databaseValue])
    }

    package func openAlertCounts(patients: Set<PatientID>?) async throws(AlertBookError) -> [PatientID: Int] {
        let list = Self.json(patients)
        let rows = try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT patient, COUNT(*) AS open FROM pipeline_alert
                WHERE acknowledgedAt IS NULL AND (? IS NULL OR patient IN (SELECT value FROM json_each(?))) GROUP BY patient
                """, arguments: [list, list]).map { (PatientID(rawValue: $0["patient"]), $0["open"] as Int) }
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    package func openAlertLoads() async throws(AlertBookError) -> [StaffID: Int] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT assignee, COUNT(*) AS open FROM pipeline_alert
                WHERE acknowledgedAt IS NULL AND assignee IS NOT NULL GROUP BY assignee
                """).map { ($0["assignee"] as StaffID, $0["open"] as Int) }
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    package func markAcknowledged(_ id: UUID, by staff: StaffID, at date: Date) async throws(AlertBookError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE pipeline_alert SET acknowledgedBy = ?, acknowledgedAt = ? WHERE id = ? AND acknowledgedAt IS NULL",
                arguments: [staff, date.timeIntervalSince1970, id.uuidString])
            return db.changesCount > 0
        }
    }

    package func openEpisodeAlert(of patient: PatientID, category: AlertCategory) async throws(AlertBookError) -> UUID? {
        try await read { db in
            try String.fetchOne(db, sql: """
                SELECT id FROM pipeline_alert WHERE patient = ? AND category = ? AND episodeOpen AND acknowledgedAt IS NULL
                ORDER BY raisedAt DESC LIMIT 1
                """, arguments: [patient.rawValue, category.rawValue])
        }.flatMap(UUID.init(uuidString:))
    }

    package func deleteAlerts(of patient: PatientID) async throws(AlertBookError) -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM pipeline_alert WHERE patient = ?", arguments: [patient.rawValue])
            return db.changesCount
        }
    }

    package func closeEpisode(of id: UUID) async throws(AlertBookError) {
        try await write { db in try db.execute(sql: "UPDATE pipeline_alert SET episodeOpen = 0 WHERE id = ?", arguments: [id.uuidString]) }
    }

    package func unacknowledged() async throws(AlertBookError) -> [AlertRow] {
        try await rows("SELECT * FROM pipeline_alert WHERE acknowledgedAt IS NULL ORDER BY raisedAt", [])
    }

    package func claimEscalationSteps(of id: UUID, from known: Int, to count: Int) async throws(AlertBookError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE pipeline_alert SET escalationSteps = ? WHERE id = ? AND escalationSteps = ?",
                arguments: [count, id.uuidString, known])
            return db.changesCount > 0
        }
    }

    // MARK: Database access with typed errors

    private static func json(_ patients: Set<PatientID>?) -> String? {
        patients.map { String(decoding: (try? JSONEncoder().encode($0.map(\.rawValue).sorted())) ?? Data("[]".utf8), as: UTF8.self) }
    }

    private func rows(_ sql: String, _ arguments: [DatabaseValue]) async throws(AlertBookError) -> [AlertRow] {
        try await read { db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(Self.alertRow) }
    }

    private static func alertRow(_ row: Row) throws -> AlertRow {
        try AlertRow(
            id: row["id"], patient: row["patient"], sector: row["sector"], category: row["category"], severity: row["severity"],
            title: row["title"], message: row["message"], raisedAt: row["raisedAt"], assignee: row["assignee"],
            acknowledgedBy: row["acknowledgedBy"], acknowledgedAt: row["acknowledgedAt"], escalationSteps: row["escalationSteps"])
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(AlertBookError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw .storage("\(error)")
        }
    }

    @discardableResult
    private func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws(AlertBookError) -> T {
        do {
            return try await database.write(body)
        } catch {
            throw .storage("\(error)")
        }
    }
}
