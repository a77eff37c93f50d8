import Foundation
import GRDB
import SADEHealth

/// An account as stored: the value plus its password hash.
struct AccountRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "account"

    enum Columns {
        static let id = Column("id")
        static let username = Column("username")
        static let role = Column("role")
    }

    var id: String
    var username: String
    var name: String
    var role: String
    var email: String?
    var staffID: String?
    var patientID: String?
    var projectID: Int
    var location: String?
    var createdAt: Double
    var passwordHash: String
    var credentialsChangedAt: Double?
    /// A relative's patients: a JSON array of ids, `nil` when none.
    var relativeOf: String?

    init(_ account: UserAccount, passwordHash: String) {
        id = account.id
        username = account.username
        name = account.name
        role = account.role.rawValue
        projectID = account.projectID
        createdAt = account.createdAt.timeIntervalSince1970
        self.passwordHash = passwordHash
        set(account)
    }

    /// Copies everything but the identifier, creation date and password.
    mutating func set(_ account: UserAccount) {
        username = account.username
        name = account.name
        role = account.role.rawValue
        email = account.email
        staffID = account.staffID
        patientID = account.patientID?.rawValue
        projectID = account.projectID
        location = account.location
        credentialsChangedAt = account.credentialsChangedAt?.timeIntervalSince1970
        relativeOf = Self.encoded(account.relativeOf)
    }

    /// A relative's patients as stored (both backends): a JSON array, `nil` when none.
    static func encoded(_ patients: [PatientID]) -> String? {
        guard !patients.isEmpty, let data = try? JSONEncoder().encode(patients.map(\.rawValue)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The patients of a stored `relativeOf`; none when absent or unreadable.
    static func decoded(_ text: String?) -> [PatientID] {
        guard let text, let ids = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return ids.map(PatientID.init(rawValue:))
    }

    var account: UserAccount {
        UserAccount(
            id: id, username: username, name: name, role: UserRole(rawValue: role) ?? .patient, email: email,
            staffID: staffID, patientID: patientID.map(PatientID.init(rawValue:)), projectID: projectID, location: location,
            createdAt: Date(timeIntervalSince1970: createdAt),
            credentialsChangedAt: credentialsChangedAt.map(Date.init(timeIntervalSince1970:)), relativeOf: Self.decoded(relativeOf)
        )
    }
}
