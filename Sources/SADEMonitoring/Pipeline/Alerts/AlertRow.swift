import Foundation
import GRDB
import SADEHealth
import SADENotification

/// A row of `pipeline_alert`, read inside a database access (rows themselves may not
/// leave it).
struct AlertRow: FetchableRecord, Sendable {
    /// The alert without its escalation steps (those are in the outbox).
    let record: AlertRecord
    /// The escalation steps already published as events.
    let escalationSteps: Int

    init(row: Row) throws {
        let idText: String = row["id"]
        guard let id = UUID(uuidString: idText) else {
            throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "alert id '\(idText)' is not a UUID")
        }
        let acknowledgedAt: Double? = row["acknowledgedAt"]
        record = AlertRecord(
            id: id, patient: PatientID(rawValue: row["patient"]), sector: row["sector"],
            category: AlertCategory(rawValue: row["category"]) ?? .clinical,
            severity: NotificationSeverity(rawValue: row["severity"]) ?? .warning, title: row["title"], message: row["message"],
            raisedAt: Date(timeIntervalSince1970: row["raisedAt"]), assignee: row["assignee"], acknowledgedBy: row["acknowledgedBy"],
            acknowledgedAt: acknowledgedAt.map(Date.init(timeIntervalSince1970:)))
        escalationSteps = row["escalationSteps"]
    }
}
