import Foundation
import GRDB
import SADEHealth

extension AlertBook {
    /// How many unacknowledged alerts each of `patients` has (every patient with one
    /// when `nil`); patients without any are absent.
    public func openAlertCounts(patients: Set<PatientID>? = nil) async throws(AlertBookError) -> [PatientID: Int] {
        let list = patients.map { String(decoding: (try? JSONEncoder().encode($0.map(\.rawValue).sorted())) ?? Data("[]".utf8), as: UTF8.self) }
        let rows = try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT patient, COUNT(*) AS open FROM pipeline_alert
                WHERE acknowledgedAt IS NULL AND (? IS NULL OR patient IN (SELECT value FROM json_each(?))) GROUP BY patient
                """, arguments: [list, list]).map { (PatientID(rawValue: $0["patient"]), $0["open"] as Int) }
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }
}

/// The AlertAgent's side of the book: recording alerts, finding the open one of an
/// episode, noticing escalation steps.
extension AlertBook {
    /// Records a raised alert (nothing if it is recorded already) and publishes it.
    func record(_ alert: AlertRecord) async throws(AlertBookError) {
        let inserted = try await write { db in
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
        guard inserted else { return }
        if let assignee = alert.assignee { adjustLoad(of: assignee, by: 1) }
        events.publish(.alert(try await self.alert(alert.id) ?? alert))
    }

    /// The unacknowledged alert of `patient`'s open episode of `category`, if any: a
    /// new finding joins it instead of raising another (also after a restart).
    func openEpisodeAlert(of patient: PatientID, category: AlertCategory) async throws(AlertBookError) -> UUID? {
        try await read { db in
            try String.fetchOne(db, sql: """
                SELECT id FROM pipeline_alert WHERE patient = ? AND category = ? AND episodeOpen AND acknowledgedAt IS NULL
                ORDER BY raisedAt DESC LIMIT 1
                """, arguments: [patient.rawValue, category.rawValue])
        }.flatMap(UUID.init(uuidString:))
    }

    /// Marks the episode of an alert as over: the next finding raises a new alert.
    func closeEpisode(of id: UUID) async throws(AlertBookError) {
        _ = try await write { db in
            try db.execute(sql: "UPDATE pipeline_alert SET episodeOpen = 0 WHERE id = ?", arguments: [id.uuidString])
        }
    }

    /// Publishes an ``MonitoringEvent/escalated(_:)`` event for every escalation step
    /// the outbox took since the last look, for unacknowledged alerts.
    func noticeEscalations() async throws(AlertBookError) {
        let rows = try await read { db in
            try AlertRow.fetchAll(db, sql: "SELECT * FROM pipeline_alert WHERE acknowledgedAt IS NULL ORDER BY raisedAt")
        }
        for row in rows {
            let known = row.escalationSteps
            let record = try await record(from: row)
            guard record.escalations.count > known else { continue }
            let claimed = try await write { db in
                try db.execute(
                    sql: "UPDATE pipeline_alert SET escalationSteps = ? WHERE id = ? AND escalationSteps = ?",
                    arguments: [record.escalations.count, record.id.uuidString, known])
                return db.changesCount > 0
            }
            if claimed { events.publish(.escalated(record)) }
        }
    }
}
