import Foundation
import SADEHealth
import SADEMonitoring

/// The body of `POST /users` and `PUT /users/{id}`; on an update, absent fields keep
/// their value. `licence`, `phone` and `sectors` describe the health-care worker made
/// for a new doctor or nurse; `relativeOf` names a relative's patients.
struct UserInput: Decodable {
    var username: String?
    var name: String?
    var role: UserRole?
    var password: String?
    var email: String?
    var staffID: String?
    var patientID: String?
    var licence: String?
    var phone: String?
    var sectors: [String]?
    var relativeOf: [String]?

    /// What the body says about the records the account links to.
    var links: UserAdministration.Links {
        UserAdministration.Links(
            staffIDGiven: staffID != nil, patientIDGiven: patientID != nil, relativeOfGiven: relativeOf != nil, licence: licence, phone: phone,
            sectors: sectors ?? [])
    }

    /// Copies the given fields onto `account`; an empty `email` clears it.
    func apply(to account: inout UserAccount) throws {
        if let username { account.username = try AdminInput.requiredText(username, field: "username", limit: 64) }
        if let name { account.name = try AdminInput.requiredText(name, field: "name") }
        if let role { account.role = role }
        if let email { account.email = AdminInput.optionalText(email) }
        if let staffID { account.staffID = staffID }
        if let patientID { account.patientID = PatientID(rawValue: patientID) }
        if let relativeOf { account.relativeOf = relativeOf.map(PatientID.init(rawValue:)) }
    }
}
