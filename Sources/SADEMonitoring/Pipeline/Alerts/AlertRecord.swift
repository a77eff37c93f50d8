import Foundation
import SADEHealth
import SADENotification

/// What an alert is about: the patient's condition or the patient's devices.
///
/// One episode of each category per patient gives one alert.
public enum AlertCategory: String, Hashable, Sendable, Codable, CaseIterable {
    /// NEWS2 or vital signs out of range.
    case clinical
    /// No data from the patient's devices.
    case device
}

/// An alert as the API shows it: the patient and sector, what happened, who it was
/// assigned to by Contract Net, and its acknowledgement and escalation.
public struct AlertRecord: Hashable, Sendable, Codable, Identifiable {
    /// The alert's id (the id of its ``Notice`` in the outbox).
    public var id: UUID
    /// Whose.
    public var patient: PatientID
    /// The patient's sector when it was raised, if admitted.
    public var sector: SectorID?
    /// Condition or devices.
    public var category: AlertCategory
    /// Warning or alarm.
    public var severity: NotificationSeverity
    /// A short title, e.g. `NEWS2 7 (high): patient-03` (the identifier, never the name).
    public var title: String
    /// The text sent to the team.
    public var message: String
    /// When it was raised.
    public var raisedAt: Date
    /// The health-care worker who accepted it in the Contract Net; `nil` when nobody did.
    public var assignee: StaffID?
    /// Who acknowledged it, if someone did.
    public var acknowledgedBy: StaffID?
    /// When it was acknowledged.
    public var acknowledgedAt: Date?
    /// The escalation steps taken, in order (step 0 is the alert itself).
    public var escalations: [AlertEscalation]

    /// Whether it still waits for an acknowledgement.
    public var isOpen: Bool { acknowledgedAt == nil }

    /// Creates a record.
    public init(
        id: UUID, patient: PatientID, sector: SectorID?, category: AlertCategory, severity: NotificationSeverity, title: String,
        message: String, raisedAt: Date, assignee: StaffID?, acknowledgedBy: StaffID? = nil, acknowledgedAt: Date? = nil,
        escalations: [AlertEscalation] = []
    ) {
        self.id = id
        self.patient = patient
        self.sector = sector
        self.category = category
        self.severity = severity
        self.title = title
        self.message = message
        self.raisedAt = raisedAt
        self.assignee = assignee
        self.acknowledgedBy = acknowledgedBy
        self.acknowledgedAt = acknowledgedAt
        self.escalations = escalations
    }
}

/// A step of an alert's escalation that was taken.
public struct AlertEscalation: Hashable, Sendable, Codable {
    /// The step's index in the policy (0 is the alert itself).
    public var step: Int
    /// When it was taken.
    public var at: Date
    /// Who was notified: `user:nurse1`, `email:ward@example.org`.
    public var recipients: [String]
    /// The notice sent for the step (what the recipients got; step 0's is the alert's id).
    public var notice: UUID

    /// Creates a step.
    public init(step: Int, at: Date, recipients: [String], notice: UUID) {
        self.step = step
        self.at = at
        self.recipients = recipients
        self.notice = notice
    }

    /// The step as the outbox recorded it.
    init(_ record: EscalationRecord) {
        self.init(step: record.step, at: record.at, recipients: record.recipients.map(\.description), notice: record.notificationID)
    }
}
