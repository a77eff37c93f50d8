import Foundation

/// A health store and clinical registry whose identifying data is sealed before the
/// store underneath sees it (``DataKeyRing``): a patient's name and date of birth, a
/// worker's name, licence, e-mail address and phone number travel sealed in the record's
/// name (the other fields left empty) and are opened when read. Vital signs, sectors,
/// beds, ranges and attributes stay as they are, so queries, statistics and NEWS2 work
/// on them unchanged; lists "by name" are sorted again once the names are opened.
public final class SealingHealthStore: HealthStore, ClinicalRegistry {
    /// The store that keeps the sealed records.
    public let inner: any HealthStore & ClinicalRegistry
    /// The keys.
    public let keys: DataKeyRing

    /// Seals what goes into `inner` with `keys`.
    public init(_ inner: any HealthStore & ClinicalRegistry, keys: DataKeyRing) {
        self.inner = inner
        self.keys = keys
    }

    // MARK: Sealing

    private struct PatientSecrets: Codable {
        var name: String
        var dateOfBirth: Date?
    }

    private struct WorkerSecrets: Codable {
        var name: String
        var licence: String?
        var email: String?
        var phone: String?
    }

    /// `patient` as stored: its identifying fields sealed into its name.
    public func sealed(_ patient: Patient) throws(HealthError) -> Patient {
        try patient.validate()
        var stored = patient
        stored.name = try seal(PatientSecrets(name: patient.name, dateOfBirth: patient.dateOfBirth), context: "patient:\(patient.id)")
        stored.dateOfBirth = nil
        return stored
    }

    /// `worker` as stored: its identifying fields sealed into its name.
    public func sealed(_ worker: HealthCareWorker) throws(HealthError) -> HealthCareWorker {
        try worker.validate()
        var stored = worker
        stored.name = try seal(
            WorkerSecrets(name: worker.name, licence: worker.licence, email: worker.email, phone: worker.phone), context: "worker:\(worker.id)")
        (stored.licence, stored.email, stored.phone) = (nil, nil, nil)
        return stored
    }

    /// `stored` with its sealed fields opened (a record written before a key was set is as it was).
    public func opened(_ stored: Patient) throws(HealthError) -> Patient {
        guard DataKeyRing.isSealed(stored.name) else { return stored }
        let secrets = try open(PatientSecrets.self, stored.name, context: "patient:\(stored.id)")
        var patient = stored
        (patient.name, patient.dateOfBirth) = (secrets.name, secrets.dateOfBirth)
        return patient
    }

    /// `stored` with its sealed fields opened.
    public func opened(_ stored: HealthCareWorker) throws(HealthError) -> HealthCareWorker {
        guard DataKeyRing.isSealed(stored.name) else { return stored }
        let secrets = try open(WorkerSecrets.self, stored.name, context: "worker:\(stored.id)")
        var worker = stored
        (worker.name, worker.licence, worker.email, worker.phone) = (secrets.name, secrets.licence, secrets.email, secrets.phone)
        return worker
    }

    private func seal(_ secrets: some Encodable, context: String) throws(HealthError) -> String {
        do { return try keys.sealJSON(secrets, context: context) } catch { throw .storage(error.description) }
    }

    private func open<T: Decodable>(_ type: T.Type, _ value: String, context: String) throws(HealthError) -> T {
        do { return try keys.openJSON(T.self, value, context: context) } catch { throw .storage(error.description) }
    }

    // MARK: Clinical registry

    public func save(_ hospital: Hospital) async throws(HealthError) { try await inner.save(hospital) }
    public func save(_ sector: HospitalSector) async throws(HealthError) { try await inner.save(sector) }
    public func save(_ patient: Patient) async throws(HealthError) { try await inner.save(try sealed(patient)) }
    public func save(_ worker: HealthCareWorker) async throws(HealthError) { try await inner.save(try sealed(worker)) }
    public func hospitals() async throws(HealthError) -> [Hospital] { try await inner.hospitals() }
    public func sectors(of hospital: HospitalID?) async throws(HealthError) -> [HospitalSector] { try await inner.sectors(of: hospital) }

    public func patient(_ id: PatientID) async throws(HealthError) -> Patient? {
        try await inner.patient(id).map { stored throws(HealthError) in try opened(stored) }
    }

    public func patients(in sector: SectorID?) async throws(HealthError) -> [Patient] {
        var patients: [Patient] = []
        for stored in try await inner.patients(in: sector) { patients.append(try opened(stored)) }
        return patients.sorted { ($0.name, $0.id.rawValue) < ($1.name, $1.id.rawValue) }
    }

    public func patients(_ ids: Set<PatientID>) async throws(HealthError) -> [PatientID: Patient] {
        var patients: [PatientID: Patient] = [:]
        for (id, stored) in try await inner.patients(ids) { patients[id] = try opened(stored) }
        return patients
    }

    public func worker(_ id: StaffID) async throws(HealthError) -> HealthCareWorker? {
        try await inner.worker(id).map { stored throws(HealthError) in try opened(stored) }
    }

    public func workers(in sector: SectorID?) async throws(HealthError) -> [HealthCareWorker] {
        var workers: [HealthCareWorker] = []
        for stored in try await inner.workers(in: sector) { workers.append(try opened(stored)) }
        return workers.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }

    public func admit(_ patient: PatientID, to sector: SectorID, bed: String?) async throws(HealthError) {
        try await inner.admit(patient, to: sector, bed: bed)
    }

    public func discharge(_ patient: PatientID) async throws(HealthError) { try await inner.discharge(patient) }
    public func remove(_ patient: PatientID) async throws(HealthError) { try await inner.remove(patient) }

    // MARK: Samples (unchanged)

    public func grant(_ grant: AccessGrant) async throws(HealthError) { try await inner.grant(grant) }

    public func revokeAll(_ access: AccessMode, from principal: Principal) async throws(HealthError) {
        try await inner.revokeAll(access, from: principal)
    }

    public func isAuthorized(_ principal: Principal, to access: AccessMode, _ type: HealthType, of patient: PatientID) async throws(HealthError) -> Bool {
        try await inner.isAuthorized(principal, to: access, type, of: patient)
    }

    public func save(_ samples: [HealthSample], as principal: Principal) async throws(HealthError) { try await inner.save(samples, as: principal) }

    public func delete(_ ids: [UUID], as principal: Principal) async throws(HealthError) -> Int { try await inner.delete(ids, as: principal) }

    public func purge(_ type: HealthType, startedBefore date: Date, limit: Int) async throws(HealthError) -> Int {
        try await inner.purge(type, startedBefore: date, limit: limit)
    }

    public func samples(_ query: SampleQuery, as principal: Principal) async throws(HealthError) -> [HealthSample] {
        try await inner.samples(query, as: principal)
    }

    public func changes(
        _ type: HealthType, patient: PatientID?, since anchor: HealthAnchor, limit: Int?, as principal: Principal
    ) async throws(HealthError) -> AnchoredChanges {
        try await inner.changes(type, patient: patient, since: anchor, limit: limit, as: principal)
    }

    public func changes(
        _ types: [HealthType], patient: PatientID?, since anchors: [String: HealthAnchor], limit: Int?, as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        try await inner.changes(types, patient: patient, since: anchors, limit: limit, as: principal)
    }

    public func changes(
        _ types: [HealthType], in shards: PatientShards?, since anchors: [String: HealthAnchor], through: HealthAnchor?, limit: Int?,
        as principal: Principal
    ) async throws(HealthError) -> [String: AnchoredChanges] {
        try await inner.changes(types, in: shards, since: anchors, through: through, limit: limit, as: principal)
    }

    public func observe(_ type: HealthType, patient: PatientID?, as principal: Principal) async throws(HealthError) -> AsyncStream<HealthSample> {
        try await inner.observe(type, patient: patient, as: principal)
    }

    public func statistics(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, as principal: Principal
    ) async throws(HealthError) -> HealthStatistics {
        try await inner.statistics(type, patient: patient, from: start, to: end, as: principal)
    }

    public func statisticsCollection(
        _ type: QuantityType, patient: PatientID, from start: Date, to end: Date, interval: TimeInterval, as principal: Principal
    ) async throws(HealthError) -> [HealthStatistics] {
        try await inner.statisticsCollection(type, patient: patient, from: start, to: end, interval: interval, as: principal)
    }
}
