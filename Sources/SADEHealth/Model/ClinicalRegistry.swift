/// Where the clinical model lives: hospitals, sectors, patients and staff, kept in
/// the same database as the samples by every backend.
public protocol ClinicalRegistry: Sendable {
    /// Adds or replaces a hospital.
    func save(_ hospital: Hospital) async throws(HealthError)
    /// Adds or replaces a sector; its hospital must exist.
    func save(_ sector: HospitalSector) async throws(HealthError)
    /// Adds or replaces a patient; a sector, if set, must exist.
    func save(_ patient: Patient) async throws(HealthError)
    /// Adds or replaces a health-care worker; every sector must exist.
    func save(_ worker: HealthCareWorker) async throws(HealthError)

    /// Every hospital, by name.
    func hospitals() async throws(HealthError) -> [Hospital]
    /// The sectors of a hospital (every sector when `nil`), by name.
    func sectors(of hospital: HospitalID?) async throws(HealthError) -> [HospitalSector]
    /// The patient, if known.
    func patient(_ id: PatientID) async throws(HealthError) -> Patient?
    /// The patients interned in `sector` (every patient when `nil`), by name.
    func patients(in sector: SectorID?) async throws(HealthError) -> [Patient]
    /// The known patients among `ids`, by id (those not known are absent).
    func patients(_ ids: Set<PatientID>) async throws(HealthError) -> [PatientID: Patient]
    /// The worker, if known.
    func worker(_ id: StaffID) async throws(HealthError) -> HealthCareWorker?
    /// The workers assigned to `sector` (every worker when `nil`), by name.
    func workers(in sector: SectorID?) async throws(HealthError) -> [HealthCareWorker]

    /// Interns a patient in a sector, in a bed.
    func admit(_ patient: PatientID, to sector: SectorID, bed: String?) async throws(HealthError)
    /// Ends a patient's stay: no sector, no bed.
    func discharge(_ patient: PatientID) async throws(HealthError)
    /// Removes a patient and every sample about them.
    func remove(_ patient: PatientID) async throws(HealthError)
}

extension ClinicalRegistry {
    /// The known patients among `ids`, read one by one (a store that can read them in
    /// one query does so).
    public func patients(_ ids: Set<PatientID>) async throws(HealthError) -> [PatientID: Patient] {
        var found: [PatientID: Patient] = [:]
        for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) { found[id] = try await patient(id) }
        return found
    }
}
