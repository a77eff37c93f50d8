import Foundation
import SADEHealth
import SADEMonitoring

/// The body of `POST /users` and `PUT /users/{id}`; on an update, absent fields keep
/// their value. `licence`, `phone` and `sectors` describe the health-care worker made
/// for a new doctor or nurse.
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

    /// Copies the given fields onto `account`; an empty `email` clears it.
    func apply(to account: inout UserAccount) throws {
        if let username { account.username = try AdminInput.requiredText(username, field: "username", limit: 64) }
        if let name { account.name = try AdminInput.requiredText(name, field: "name") }
        if let role { account.role = role }
        if let email { account.email = AdminInput.optionalText(email) }
        if let staffID { account.staffID = staffID }
        if let patientID { account.patientID = PatientID(rawValue: patientID) }
    }
}

extension MonitoringServer {
    /// Checks the links of `account` to clinical records and drops the links its role
    /// has no use for (a doctor's or nurse's account links to a health-care worker, a
    /// patient's to a patient record, others to nothing).
    ///
    /// - Returns: the health-care worker to create for a doctor or nurse who has none
    ///   yet (its identifier, the `staffID`, defaults to the username).
    /// - Throws: 400 naming the field for a link the role cannot have or a patient that
    ///   is not registered, 409 when the worker is of the other kind or has an account.
    func linkRecords(of account: inout UserAccount, input: UserInput) async throws -> HealthCareWorker? {
        func refuse(_ field: String, _ reason: String) -> APIError { APIError.invalid("\(field): \(reason)", code: "invalid-field") }
        if input.staffID != nil, !account.role.isCareWorker {
            throw refuse("staffID", "only a doctor's or nurse's account links to a health-care worker")
        }
        if input.patientID != nil, account.role != .patient {
            throw refuse("patientID", "only a patient's account links to a patient record")
        }
        switch account.role {
        case .device:
            throw refuse("role", "device credentials are issued as device tokens: POST /api/v1/patients/{id}/devices")
        case .admin:
            account.staffID = nil
            account.patientID = nil
            return nil
        case .patient:
            account.staffID = nil
            guard let patient = account.patientID else {
                throw refuse("patientID", "a patient's account needs the identifier of their record")
            }
            try patient.validate(field: "patientID")
            guard try await system.health.patient(patient) != nil else { throw refuse("patientID", "no patient \(patient) is registered") }
            return nil
        case .doctor, .nurse:
            account.patientID = nil
            let field = account.staffID == nil ? "staffID (the username unless given)" : "staffID"
            let staffID = try AdminInput.identifier(account.staffID ?? account.username, field: field)
            account.staffID = staffID
            if let holder = try await system.accounts.accounts().first(where: { $0.staffID == staffID && $0.id != account.id }) {
                throw APIError.conflict("health-care worker \(staffID) already has the account \(holder.username)")
            }
            let role: HealthCareWorker.Role = account.role == .doctor ? .doctor : .nurse
            if let worker = try await system.health.worker(staffID) {
                guard worker.role == role else {
                    throw APIError.conflict("health-care worker \(staffID) is a \(worker.role.rawValue), not a \(role.rawValue)")
                }
                return nil
            }
            return HealthCareWorker(
                id: staffID, name: account.name, role: role, licence: input.licence, email: account.email, phone: input.phone,
                sectors: Set(input.sectors ?? []))
        }
    }
}
