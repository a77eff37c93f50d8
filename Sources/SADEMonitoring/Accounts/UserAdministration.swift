import Foundation
import SADEHealth

/// The rules of the user administration, whatever asks (the API's admin routes): a
/// doctor's or nurse's account comes with its health-care worker — linked when one with
/// its staff identifier exists, else created — a patient's with their registered record;
/// each change is all or nothing, and deleting a care worker's account takes the worker
/// off duty, so that their care-worker agent bids for no more alerts (the worker record
/// stays: the clinical history refers to it).
public struct UserAdministration: Sendable {
    /// What the request says about the records an account links to.
    public struct Links: Sendable {
        /// Whether a staff identifier was given (only a doctor's or nurse's account may).
        public var staffIDGiven: Bool
        /// Whether a patient identifier was given (only a patient's account may).
        public var patientIDGiven: Bool
        /// Whether a relative's patients were given (only a relative's account may).
        public var relativeOfGiven: Bool
        /// The professional licence of a worker made for the account.
        public var licence: String?
        /// The phone of a worker made for the account.
        public var phone: String?
        /// The sectors of a worker made for the account.
        public var sectors: [SectorID]

        /// Describes the links of a request.
        public init(
            staffIDGiven: Bool = false, patientIDGiven: Bool = false, relativeOfGiven: Bool = false, licence: String? = nil, phone: String? = nil,
            sectors: [SectorID] = []
        ) {
            self.staffIDGiven = staffIDGiven
            self.relativeOfGiven = relativeOfGiven
            self.patientIDGiven = patientIDGiven
            self.licence = licence
            self.phone = phone
            self.sectors = sectors
        }
    }

    let system: MonitoringSystem

    /// The administration of `system`'s accounts.
    public init(system: MonitoringSystem) { self.system = system }

    /// Creates `account`, with its worker for a doctor or nurse who has none yet.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for a link the role cannot
    ///   have or a patient who is not registered, ``MonitoringError/conflict(_:)`` when the
    ///   worker is of another role or has an account, and what the stores throw.
    public func create(_ account: UserAccount, password: String, links: Links) async throws -> UserAccount {
        var account = account
        let worker = try await linkRecords(of: &account, links: links)
        try await system.accounts.create(account, password: password)
        if let worker {
            do {
                try await system.health.save(worker)
            } catch {
                _ = try? await system.accounts.delete(account.id)  // all or nothing: no account without its worker
                throw error
            }
            try await system.staffChanged()
        }
        return account
    }

    /// Replaces `before` with `account` on behalf of `caller`, linking records as for ``create(_:password:links:)``.
    ///
    /// - Throws: as ``create(_:password:links:)``, and ``MonitoringError/conflict(_:)`` when
    ///   an admin would take their own admin role away.
    public func update(_ account: UserAccount, was before: UserAccount, by caller: UserAccount, links: Links) async throws -> UserAccount {
        var account = account
        if account.id == caller.id, account.role != .admin {
            throw MonitoringError.conflict("you cannot take away your own admin role: another admin must do it")
        }
        let worker = try await linkRecords(of: &account, links: links)
        try await system.accounts.update(account)
        if let worker {
            do {
                try await system.health.save(worker)
            } catch {
                _ = try? await system.accounts.update(before)
                throw error
            }
            try await system.staffChanged()
        }
        // A new role ends the sessions begun under the old one (the same for a new password).
        if account.role != before.role { try await system.accounts.endSessions(of: account.id, at: system.now()) }
        // Pushes go to a username's browsers: under a new name or role the person subscribes again.
        if account.role != before.role || account.username != before.username {
            try await system.push?.subscriptions.removeAll(of: before.username)
        }
        return try await system.accounts.account(id: account.id) ?? account
    }

    /// Deletes `account` on behalf of `caller` (never their own), with its wearable data;
    /// a care worker goes off duty first.
    public func delete(_ account: UserAccount, by caller: UserAccount) async throws {
        guard account.id != caller.id else { throw MonitoringError.conflict("you cannot delete your own account") }
        // Off duty first: should the deletion fail, the worker can go back on duty;
        // the other way round, a failure would leave an on-duty worker nobody can log in as.
        if account.role.isCareWorker, let staffID = account.staffID, var worker = try await system.health.worker(staffID), worker.onDuty {
            worker.onDuty = false
            try await system.health.save(worker)
            try await system.staffChanged()
        }
        _ = try await system.wearable.deleteAccount(account.id)
        try await system.push?.subscriptions.removeAll(of: account.username)  // a later account of that name gets none of them
    }

    /// Checks the links of `account` to clinical records and drops the links its role
    /// has no use for (a doctor's or nurse's account links to a health-care worker, a
    /// patient's to a patient record, others to nothing).
    ///
    /// - Returns: the health-care worker to create for a doctor or nurse who has none
    ///   yet (its identifier, the `staffID`, defaults to the username).
    func linkRecords(of account: inout UserAccount, links: Links) async throws -> HealthCareWorker? {
        func refuse(_ field: String, _ reason: String) -> MonitoringError { .invalid(field: field, reason: reason) }
        if links.staffIDGiven, !account.role.isCareWorker {
            throw refuse("staffID", "only a doctor's or nurse's account links to a health-care worker")
        }
        if links.patientIDGiven, account.role != .patient {
            throw refuse("patientID", "only a patient's account links to a patient record")
        }
        if links.relativeOfGiven, account.role != .relative {
            throw refuse("relativeOf", "only a relative's account links to the patients they are a relative of")
        }
        if account.role != .relative { account.relativeOf = [] }
        switch account.role {
        case .relative:
            account.staffID = nil
            account.patientID = nil
            try await checkRelativeLinks(account.relativeOf)
            account.relativeOf = Array(Set(account.relativeOf)).sorted { $0.rawValue < $1.rawValue }
            return nil
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
            let staffID = try RecordIdentifier.validated(account.staffID ?? account.username, field: field)
            account.staffID = staffID
            if let holder = try await system.accounts.accounts().first(where: { $0.staffID == staffID && $0.id != account.id }) {
                throw MonitoringError.conflict("health-care worker \(staffID) already has the account \(holder.username)")
            }
            let role: HealthCareWorker.Role = account.role == .doctor ? .doctor : .nurse
            if let worker = try await system.health.worker(staffID) {
                guard worker.role == role else {
                    throw MonitoringError.conflict("health-care worker \(staffID) is a \(worker.role.rawValue), not a \(role.rawValue)")
                }
                return nil
            }
            return HealthCareWorker(
                id: staffID, name: account.name, role: role, licence: links.licence, email: account.email, phone: links.phone,
                sectors: Set(links.sectors))
        }
    }
}

extension UserAdministration {
    /// The most patients one relative is linked to.
    public static let mostRelativeLinks = 20

    /// Checks a relative's patients: at most ``mostRelativeLinks``, each registered.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` naming `relativeOf`.
    func checkRelativeLinks(_ patients: [PatientID]) async throws {
        guard patients.count <= Self.mostRelativeLinks else {
            throw MonitoringError.invalid(field: "relativeOf", reason: "at most \(Self.mostRelativeLinks) patients")
        }
        for patient in patients {
            try patient.validate(field: "relativeOf")
            guard try await system.health.patient(patient) != nil else {
                throw MonitoringError.invalid(field: "relativeOf", reason: "no patient \(patient) is registered")
            }
        }
    }

    /// Links (or unlinks) the relative with username `relative` to `patient`, on behalf of
    /// that patient or an admin.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` when `relative` is not a
    ///   relative's account or would have too many patients, ``MonitoringError/notFound(_:)``.
    @discardableResult
    public func link(relative: String, to patient: PatientID, _ linked: Bool) async throws -> UserAccount {
        guard var account = try await system.accounts.account(username: relative) else {
            throw MonitoringError.invalid(field: "username", reason: "no account \(relative)")
        }
        guard account.role == .relative else {
            throw MonitoringError.invalid(field: "username", reason: "\(relative) is not a relative's account (role relative)")
        }
        var patients = account.relativeOf.filter { $0 != patient }
        if linked { patients.append(patient) }
        try await checkRelativeLinks(patients)
        account.relativeOf = patients.sorted { $0.rawValue < $1.rawValue }
        try await system.accounts.update(account)
        return account
    }

    /// The relatives' accounts linked to `patient`.
    public func relatives(of patient: PatientID) async throws -> [UserAccount] {
        try await system.accounts.accounts(role: .relative).filter { $0.relativeOf.contains(patient) }
    }
}

/// Identifiers of records (staff, sectors, hospitals …): ASCII letters, digits, `.`, `_`
/// and `-`, so that an identifier reads the same in a URL path as in the record
/// (`CharacterSet.alphanumerics` would let in every Unicode letter and digit).
public enum RecordIdentifier {
    static let characters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

    /// `text` trimmed if it is a usable identifier of at most `limit` characters.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` naming `field`.
    public static func validated(_ text: String?, field: String, limit: Int = 64) throws(MonitoringError) -> String {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else { throw .invalid(field: field, reason: "is missing or blank") }
        guard trimmed.count <= limit else { throw .invalid(field: field, reason: "is longer than \(limit) characters") }
        guard trimmed.unicodeScalars.allSatisfy({ characters.contains($0) }) else {
            throw .invalid(field: field, reason: "may hold only ASCII letters, digits and . _ -")
        }
        return trimmed
    }
}
