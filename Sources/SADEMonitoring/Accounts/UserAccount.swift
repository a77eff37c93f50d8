import Foundation
import SADEHealth

/// Someone (or something) who signs in to the monitoring server.
///
/// A doctor's or nurse's account points at their ``HealthCareWorker`` record through
/// ``staffID``; a patient's at their ``Patient`` record through ``patientID``. The
/// password's hash is kept by ``AccountStore`` and never leaves it.
public struct UserAccount: Hashable, Sendable, Codable, Identifiable {
    /// Unique and stable (a UUID string).
    public var id: String
    /// The login name, unique regardless of case.
    public var username: String
    /// Full name.
    public var name: String
    /// What the account may do.
    public var role: UserRole
    /// Contact e-mail.
    public var email: String?
    /// The health-care worker record of a doctor or nurse.
    public var staffID: StaffID?
    /// The patient record of a patient (or the patient a wearable's owner is).
    public var patientID: PatientID?
    /// A relative's patients, linked by an admin or by the patient (empty for other roles).
    public var relativeOf: [PatientID]
    /// The wearable project the account belongs to (0: "No Project").
    public var projectID: Int
    /// Where the account's owner is, as the wearable API reports it.
    public var location: String?
    /// When the account was created.
    public var createdAt: Date
    /// When its password or role last changed: login tokens issued before are no longer
    /// accepted (`nil`: never changed).
    public var credentialsChangedAt: Date?

    /// Creates an account value.
    public init(
        id: String = UUID().uuidString, username: String, name: String, role: UserRole, email: String? = nil,
        staffID: StaffID? = nil, patientID: PatientID? = nil, projectID: Int = 0, location: String? = nil,
        createdAt: Date = Date(), credentialsChangedAt: Date? = nil, relativeOf: [PatientID] = []
    ) {
        self.relativeOf = relativeOf
        self.id = id
        self.username = username
        self.name = name
        self.role = role
        self.email = email
        self.staffID = staffID
        self.patientID = patientID
        self.projectID = projectID
        self.location = location
        self.createdAt = createdAt
        self.credentialsChangedAt = credentialsChangedAt
    }
}
