import Foundation
import SADEHealth

/// One patient at a glance, as the patients list shows them: where they are, their
/// latest vital signs, their NEWS2 and how long since the last reading.
public struct PatientOverview: Sendable, Encodable {
    /// The latest value of one vital sign.
    public struct Reading: Hashable, Sendable, Codable {
        /// The value in ``unit``.
        public var value: Double
        /// The unit's symbol, the type's canonical one.
        public var unit: String
        /// When it was measured (the sample's end).
        public var time: Date
    }

    /// The patient's record.
    public var patient: Patient
    /// Whether the patient is on a respirator.
    public var onRespirator: Bool
    /// The latest reading of each vital sign, by type identifier (`heartRate`, …).
    public var vitals: [String: Reading]
    /// NEWS2 from the readings of the scoring window, when any parameter was measured.
    public var news2: NEWS2Score?
    /// When the latest reading of any type was measured.
    public var lastReadingAt: Date?
    /// Seconds since ``lastReadingAt``.
    public var secondsSinceLastReading: Double?
    /// How many of the patient's alerts are open.
    public var openAlerts: Int

    /// The vital signs a patients list shows.
    public static let vitalTypes: [HealthType] = [
        .quantity(.heartRate), .quantity(.oxygenSaturation), .quantity(.respiratoryRate), .quantity(.bodyTemperature),
        .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic), .category(.consciousnessLevel),
        .category(.supplementalOxygen),
    ]

    /// Reads the latest samples of `patient` from `store` and scores them at `now`.
    ///
    /// - Parameter window: how old a reading may be and still count in NEWS2, in seconds.
    public static func make(
        for patient: Patient, from store: any HealthStore, at now: Date, window: TimeInterval = 3600, openAlerts: Int = 0
    ) async throws(MonitoringError) -> PatientOverview {
        var latest: [HealthSample] = []
        do {
            for type in vitalTypes {
                latest += try await store.samples(SampleQuery(type, patient: patient.id, until: now, limit: 1, order: .newestFirst), as: .system)
            }
        } catch { throw MonitoringError(error) }
        var vitals: [String: Reading] = [:]
        for sample in latest {
            switch sample.value {
            case .quantity(let quantity):
                guard case .quantity(let type) = sample.type, let value = try? quantity.value(in: type.canonicalUnit) else { continue }
                vitals[type.rawValue] = Reading(value: value, unit: type.canonicalUnit.symbol, time: sample.end)
            case .category(let raw):
                vitals[sample.type.identifier] = Reading(value: Double(raw), unit: "level", time: sample.end)
            default: continue
            }
        }
        let score = try? NEWS2Score(latestOf: latest, at: now, window: window, scale2: patient.usesSpO2Scale2)
        let lastReading = latest.map(\.end).max()
        return PatientOverview(
            patient: patient, onRespirator: COVID19Patient(patient).onRespirator, vitals: vitals,
            news2: score.flatMap { $0.missing.count == NEWS2Parameter.allCases.count ? nil : $0 },
            lastReadingAt: lastReading, secondsSinceLastReading: lastReading.map { now.timeIntervalSince($0) }, openAlerts: openAlerts)
    }
}
