import Foundation
import SADEHealth

/// A patient with one sample of every type, and helpers to look into what the
/// exporter wrote (always through JSON, so the encoding is exercised too).
enum FHIRFixtures {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000.250)  // 2023-11-14T22:13:20.250Z
    static let t0Text = "2023-11-14T22:13:20.250Z"

    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static let patient = Patient(
        id: "p-1", name: "Ana Souza", dateOfBirth: FHIRDateTime.day(from: "1950-04-02"), sex: .female, bloodType: .aPositive,
        rangeOverrides: [.oxygenSaturation: 88...92], usesSpO2Scale2: true, attributes: ["onRespirator": "true", "ward note": "a b"])

    static let ecg = Electrocardiogram(samplingFrequency: 512, lead: "II", voltages: [12.5, -3, 0.001, 0.00001, 1234.5678], averageHeartRate: 64)

    /// One sample of every type, in this order: heart rate, respiratory rate, SpO2,
    /// temperature, blood pressure, steps, weight, HRV, consciousness, oxygen, ECG,
    /// systolic alone, diastolic alone.
    static var samples: [HealthSample] {
        [
            .quantity(.heartRate, 72, patient: "p-1", at: t0, device: "watch-1", source: "CollectorAgent", metadata: ["posture": "sitting"], id: id(1)),
            .quantity(.respiratoryRate, 18, patient: "p-1", at: t0 + 1, id: id(2)),
            .quantity(.oxygenSaturation, 93, patient: "p-1", at: t0 + 2, device: "oximeter-17", id: id(3)),
            .quantity(.bodyTemperature, 101.3, .degreeFahrenheit, patient: "p-1", at: t0 + 3, id: id(4)),
            bloodPressure(systolic: 150, diastolic: 95, at: t0 + 4, id: 5),
            .quantity(.stepCount, 1234, patient: "p-1", at: t0, end: t0 + 3600, source: "phone", id: id(6)),
            .quantity(.bodyMass, 70.5, patient: "p-1", at: t0 + 5, id: id(7)),
            .quantity(.heartRateVariabilitySDNN, 45, patient: "p-1", at: t0 + 6, id: id(8)),
            .category(.consciousnessLevel, ConsciousnessLevel.voice.rawValue, patient: "p-1", at: t0 + 7, source: "nurse1", id: id(9)),
            .category(.supplementalOxygen, 1, patient: "p-1", at: t0 + 8, id: id(10)),
            HealthSample(
                id: id(11), patient: "p-1", type: .electrocardiogram, value: .electrocardiogram(ecg), start: t0 + 9, end: t0 + 9.5,
                device: "watch-1"),
            .quantity(.bloodPressureSystolic, 100, patient: "p-1", at: t0 + 10, id: id(12)),
            .quantity(.bloodPressureDiastolic, 60, patient: "p-1", at: t0 + 10, id: id(13)),
        ]
    }

    /// A blood-pressure correlation with fixed identifiers for it (`id`) and its members (`id`+100, +200).
    static func bloodPressure(systolic: Double, diastolic: Double, at date: Date, id n: Int, device: String? = "cuff-3") -> HealthSample {
        var sample = HealthSample.bloodPressure(systolic: systolic, diastolic: diastolic, patient: "p-1", at: date, device: device, id: id(n))
        if case .correlation(var members) = sample.value {
            members[0].id = id(n + 100)
            members[1].id = id(n + 200)
            sample.value = .correlation(members)
        }
        return sample
    }

    /// The exported Bundle, read back from its JSON.
    static func exported(_ patient: Patient = patient, _ samples: [HealthSample] = samples) throws -> FHIRBundle {
        let json = try FHIRExporter().json(patient: patient, samples: samples)
        return try JSONDecoder().decode(FHIRBundle.self, from: json)
    }

    /// The Observation of sample `id` in `bundle`.
    static func observation(_ id: UUID, in bundle: FHIRBundle) -> FHIRObservation? {
        for entry in bundle.entry ?? [] {
            if case .observation(let observation) = entry.resource, observation.id == id.uuidString.lowercased() { return observation }
        }
        return nil
    }

    /// The single Observation exported for `sample` (patient ``patient``).
    static func observation(for sample: HealthSample, patient: Patient = patient) throws -> FHIRObservation? {
        observation(sample.id, in: try exported(patient, [sample]))
    }

    /// The codes of a concept as `system|code`.
    static func codes(_ concept: FHIRCodeableConcept?) -> [String] {
        (concept?.coding ?? []).map { "\($0.system ?? "")|\($0.code ?? "")" }
    }

    /// The interpretation codes of an observation or component.
    static func interpretation(_ concepts: [FHIRCodeableConcept]?) -> [String] {
        (concepts ?? []).flatMap(codes)
    }

    /// The categories of an observation as `system|code`.
    static func categories(_ observation: FHIRObservation) -> [String] {
        (observation.category ?? []).flatMap(codes)
    }

    static let loinc = "http://loinc.org"
    static let ucum = "http://unitsofmeasure.org"
    static let category = "http://terminology.hl7.org/CodeSystem/observation-category"
    static let v3 = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
}
