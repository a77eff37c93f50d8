import Foundation
import SADEHealth

/// The rules of changing the clinical registry, whatever asks (the API's admin and FHIR
/// routes): a stay is in a registered sector; a care worker's change reaches their
/// care-worker agent (duty and sectors decide what it bids for); an imported record
/// adds to what the registry has — an admin's import may register the patient, another
/// care worker's only adds data to a registered patient of theirs, and the stay is
/// never the file's to change.
public struct ClinicalAdministration: Sendable {
    /// What an import stored.
    public struct Imported: Sendable {
        /// The patient as registered after the import.
        public var patient: Patient
        /// How many samples were stored.
        public var samples: Int
        /// Whether the patient was new.
        public var created: Bool
    }

    let system: MonitoringSystem

    /// The administration of `system`'s registry.
    public init(system: MonitoringSystem) { self.system = system }

    /// Admits a registered patient to a registered sector; returns the patient as now registered.
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` naming `sector` when no such
    ///   sector is registered, or naming `bed`.
    public func admit(_ patient: PatientID, to sector: SectorID, bed: String?) async throws -> Patient? {
        guard try await system.health.sectors(of: nil).contains(where: { $0.id == sector }) else {
            throw MonitoringError.invalid(field: "sector", reason: "no sector '\(sector)' is registered")
        }
        try await system.health.admit(patient, to: sector, bed: bed)
        return try await system.health.patient(patient)
    }

    /// Saves a care worker's changes; their care-worker agent (on every node) follows.
    public func update(_ worker: HealthCareWorker) async throws {
        try await system.health.save(worker)  // 400 naming `sectors` for an unknown one
        try await system.staffChanged()
    }

    /// Stores an imported record's samples — all or none — and then its patient, as
    /// `caller` may: an admin registers a new patient or updates the details of a
    /// registered one (keeping their stay); a doctor or nurse only adds samples to a
    /// registered patient of their sectors.
    ///
    /// - Throws: ``MonitoringError/forbidden(_:)`` for a care worker importing a patient
    ///   who is not registered or not theirs; ``MonitoringError/invalid(field:reason:)``
    ///   naming `Patient.id` for an identifier a new patient may not have.
    public func importRecord(_ record: PatientRecord, by caller: UserAccount) async throws -> Imported {
        let registered = try await system.health.patient(record.patient.id)
        if registered == nil {
            _ = try RecordIdentifier.validated(record.patient.id.rawValue, field: "Patient.id", limit: PatientID.maximumLength)
        }
        var patient = record.patient
        if caller.role != .admin {
            guard let registered, try await system.access.mayWrite(registered.id, as: caller) else {
                throw MonitoringError.forbidden("you may import data only of registered patients of your sectors")
            }
            patient = registered
        } else if let registered {
            patient.sector = registered.sector
            patient.bed = registered.bed
        }
        // Samples first: they are saved all or none, so a refused batch leaves the registry as it was.
        try await system.health.save(record.samples, as: .system)
        if patient != registered { try await system.health.save(patient) }
        system.samplesAccepted(record.samples.count)
        return Imported(patient: patient, samples: record.samples.count, created: registered == nil)
    }
}
