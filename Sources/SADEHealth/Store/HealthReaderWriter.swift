import Foundation

/// Reads and writes one patient's health data as one ``Principal`` (SADE4Health's
/// `HealthKitReaderWriter`): the characteristics — age, sex, blood type — from the
/// clinical registry, samples from the health store, and quick ways to save a
/// quantity, a category value or a blood-pressure correlation. Any store will do;
/// every call is checked against the principal's grants.
///
/// **Characteristics** (age, sex, blood type) have no health type of their own: a
/// principal may read them for a patient when it may read at least one health type
/// of that patient (whoever may see any of the patient's data may know whose data it
/// is); ``Principal/system`` always may.
///
/// ```swift
/// let health = HealthReaderWriter(store: store, as: .agent("Collector"))
/// try await health.saveQuantity(.heartRate, value: 72, for: "p-1")
/// let pulse = try await health.readSamples(.quantity(.heartRate), of: "p-1", limit: 10)
/// ```
public struct HealthReaderWriter<Store: HealthStore & ClinicalRegistry>: Sendable {
    /// Where the data lives.
    public let store: Store
    /// Who reads and writes.
    public let principal: Principal

    /// A reader/writer acting as `principal`.
    public init(store: Store, as principal: Principal) {
        self.store = store
        self.principal = principal
    }

    // MARK: Characteristics

    /// The patient's age in whole years at `date`; `nil` without a date of birth.
    ///
    /// - Throws: ``HealthError/notAuthorized(principal:access:type:patient:)`` unless
    ///   the principal may read some health type of the patient, then
    ///   ``HealthError/notFound(_:)`` for a patient not in the registry.
    public func age(of patient: PatientID, at date: Date = Date()) async throws(HealthError) -> Int? {
        try await registered(patient, reading: "age").age(at: date)
    }

    /// The patient's recorded sex; throws as ``age(of:at:)``.
    public func biologicalSex(of patient: PatientID) async throws(HealthError) -> BiologicalSex {
        try await registered(patient, reading: "biologicalSex").sex
    }

    /// The patient's blood type; throws as ``age(of:at:)``.
    public func bloodType(of patient: PatientID) async throws(HealthError) -> BloodType {
        try await registered(patient, reading: "bloodType").bloodType
    }

    /// The record, once the principal is known to read some type of the patient
    /// (checked first, so that a stranger cannot learn who is registered).
    private func registered(_ patient: PatientID, reading characteristic: String) async throws(HealthError) -> Patient {
        try patient.validate()
        var allowed = principal.kind == .system
        for type in HealthType.all where !allowed {
            allowed = try await store.isAuthorized(principal, to: .read, type, of: patient)
        }
        guard allowed else { throw .notAuthorized(principal: principal, access: .read, type: characteristic, patient: patient) }
        guard let record = try await store.patient(patient) else { throw .notFound("patient \(patient)") }
        return record
    }

    // MARK: Samples

    /// The patient's samples of `type` starting in `[from, until)`, newest first by default.
    public func readSamples(
        _ type: HealthType, of patient: PatientID, from: Date? = nil, until: Date? = nil, limit: Int? = nil,
        order: SampleQuery.Order = .newestFirst
    ) async throws(HealthError) -> [HealthSample] {
        try await store.samples(SampleQuery(type, patient: patient, from: from, until: until, limit: limit, order: order), as: principal)
    }

    /// The patient's latest sample of `type`, if any.
    public func latestSample(_ type: HealthType, of patient: PatientID) async throws(HealthError) -> HealthSample? {
        try await readSamples(type, of: patient, limit: 1).first
    }

    /// Saves a quantity (in the type's canonical unit unless `unit` is given) measured
    /// at `date`; the source is the principal unless given.
    @discardableResult
    public func saveQuantity(
        _ type: QuantityType, value: Double, unit: HealthUnit? = nil, for patient: PatientID, at date: Date = Date(),
        device: String? = nil, source: String? = nil, metadata: [String: String] = [:]
    ) async throws(HealthError) -> HealthSample {
        let sample = HealthSample.quantity(
            type, value, unit, patient: patient, at: date, device: device, source: source ?? principal.name, metadata: metadata)
        try await store.save(sample, as: principal)
        return sample
    }

    /// Saves a category value (e.g. a ``ConsciousnessLevel`` raw value) observed at `date`.
    @discardableResult
    public func saveCategory(
        _ type: CategoryType, value: Int, for patient: PatientID, at date: Date = Date(), device: String? = nil, source: String? = nil
    ) async throws(HealthError) -> HealthSample {
        let sample = HealthSample.category(type, value, patient: patient, at: date, device: device, source: source ?? principal.name)
        try await store.save(sample, as: principal)
        return sample
    }

    /// Saves a blood-pressure correlation of a systolic and a diastolic value in mmHg.
    @discardableResult
    public func saveCorrelation(
        systolic: Double, diastolic: Double, for patient: PatientID, at date: Date = Date(), device: String? = nil, source: String? = nil
    ) async throws(HealthError) -> HealthSample {
        let sample = HealthSample.bloodPressure(
            systolic: systolic, diastolic: diastolic, patient: patient, at: date, device: device, source: source ?? principal.name)
        try await store.save(sample, as: principal)
        return sample
    }
}
