import SADEHealth

/// Who may see and write which patient's data:
/// - an admin: every patient;
/// - a doctor or nurse: the patients interned in their sectors;
/// - a patient: their own record;
/// - a device: writes its own patient's samples and reads nothing;
/// - a relative: reads the patients linked to them, writes nothing.
public struct AccessRules: Sendable {
    /// Where patients' sectors and workers' assignments are recorded.
    public let registry: any ClinicalRegistry

    /// Rules over `registry`.
    public init(registry: any ClinicalRegistry) { self.registry = registry }

    /// The patients `account` may read; `nil` means every patient.
    public func readablePatients(for account: UserAccount) async throws(MonitoringError) -> Set<PatientID>? {
        switch account.role {
        case .admin:
            return nil
        case .doctor, .nurse:
            var patients = Set<PatientID>()
            for sector in try await sectors(of: account) ?? [] {
                patients.formUnion(try await call { () async throws(HealthError) in try await registry.patients(in: sector) }.map(\.id))
            }
            return patients
        case .patient:
            return account.patientID.map { [$0] } ?? []
        case .relative:
            return Set(account.relativeOf)
        case .device:
            return []
        }
    }

    /// The sectors `account` works in; `nil` means every sector (an admin).
    public func sectors(of account: UserAccount) async throws(MonitoringError) -> Set<SectorID>? {
        switch account.role {
        case .admin: return nil
        case .doctor, .nurse:
            guard let staffID = account.staffID else { return [] }
            return try await call { () async throws(HealthError) in try await registry.worker(staffID) }?.sectors ?? []
        case .patient, .device, .relative: return []
        }
    }

    /// Whether `account` may read `patient`'s record and samples.
    public func mayRead(_ patient: PatientID, as account: UserAccount) async throws(MonitoringError) -> Bool {
        switch account.role {
        case .admin: return true
        case .patient: return account.patientID == patient
        case .relative: return account.relativeOf.contains(patient)
        case .device: return false
        case .doctor, .nurse: return try await worksWith(patient, account)
        }
    }

    /// Whether `account` may add samples to `patient`'s record.
    public func mayWrite(_ patient: PatientID, as account: UserAccount) async throws(MonitoringError) -> Bool {
        switch account.role {
        case .admin: return true
        case .patient, .device: return account.patientID == patient
        case .relative: return false
        case .doctor, .nurse: return try await worksWith(patient, account)
        }
    }

    /// Whether `account` administers the hospital (hospitals, staff, patients, devices).
    public func mayAdminister(_ account: UserAccount) -> Bool { account.role == .admin }

    private func worksWith(_ patient: PatientID, _ account: UserAccount) async throws(MonitoringError) -> Bool {
        guard let record = try await call({ () async throws(HealthError) in try await registry.patient(patient) }),
            let sector = record.sector
        else { return false }
        return try await sectors(of: account)?.contains(sector) ?? true
    }

    private func call<T>(_ body: () async throws(HealthError) -> T) async throws(MonitoringError) -> T {
        do { return try await body() } catch { throw MonitoringError(error) }
    }
}

extension MonitoringError {
    /// A health store error as a monitoring error.
    public init(_ error: HealthError) {
        switch error {
        case .invalidValue(let field, let reason): self = .invalid(field: field, reason: reason)
        case .unknownUnit, .incompatibleUnits: self = .invalid(field: "unit", reason: error.description)
        case .unknownType: self = .invalid(field: "type", reason: error.description)
        case .notAuthorized: self = .forbidden(error.description)
        case .notFound(let what): self = .notFound(what)
        case .duplicate(let what): self = .conflict("already exists: \(what)")
        case .storage(let reason): self = .storage(reason)
        case .unavailable(let reason): self = .unavailable(reason)
        }
    }
}
