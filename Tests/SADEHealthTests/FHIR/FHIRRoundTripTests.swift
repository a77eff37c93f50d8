import Foundation
import SADEHealth
import SADETestSupport
import SADETestTiming
import Testing

@Suite("FHIR round trip: import(export(patient, samples)) gives them back", .timeLimit(.minutes(5)), .timed)
struct FHIRRoundTripTests {
    typealias F = FHIRFixtures

    static func roundTrip(_ patient: Patient, _ samples: [HealthSample]) throws -> PatientRecord {
        try FHIRImporter().record(from: FHIRExporter().json(patient: patient, samples: samples))
    }

    @Test("every type, the patient's facts, devices, sources, metadata and UUIDs come back equal")
    func everything() throws {
        let record = try Self.roundTrip(F.patient, F.samples)
        #expect(record.patient == F.patient)
        #expect(record.samples.count == F.samples.count)
        for (imported, original) in zip(record.samples, F.samples) {
            #expect(imported == original, "\(original.type)")
        }
        #expect(record == PatientRecord(patient: F.patient, samples: F.samples))
    }

    @Test("ECG voltages come back bit for bit, at awkward sampling frequencies too")
    func electrocardiogramExact() throws {
        var random = SplitMix64(seed: 11)
        for frequency in [512.0, 300, 250.5, 128, 1000, 333.3] {
            let voltages = (0..<2000).map { _ in Double(Int64.random(in: -2_000_000...2_000_000, using: &random)) / Double(UInt64.random(in: 1...1000, using: &random)) }
            let ecg = Electrocardiogram(samplingFrequency: frequency, lead: "I", voltages: voltages, unit: .millivolt)
            let sample = HealthSample(id: F.id(1), patient: "p-1", type: .electrocardiogram, value: .electrocardiogram(ecg), start: F.t0, end: F.t0 + 30)
            let record = try Self.roundTrip(F.patient, [sample])
            guard case .electrocardiogram(let back) = record.samples.first?.value else { Issue.record("no ECG"); continue }
            #expect(back.samplingFrequency == frequency)
            #expect(back.voltages.map(\.bitPattern) == voltages.map(\.bitPattern))
            #expect(back == ecg)
        }
    }

    @Test("dates come back at millisecond precision")
    func millisecondPrecision() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000.123_1)
        let sample = HealthSample.quantity(.heartRate, 80, patient: "p-1", at: start, end: start + 0.000_3, id: F.id(1))
        let back = try #require(try Self.roundTrip(F.patient, [sample]).samples.first)
        #expect(back.start == FHIRDateTime.millisecondPrecision(start))
        #expect(back.start == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(back.end == back.start)  // the 0.3 ms interval is a point at ms precision
    }

    @Test("a value in a unit outside the profile comes back in the canonical unit, the same quantity")
    func convertedUnit() throws {
        let sample = HealthSample.quantity(.heartRate, 1.5, .hertz, patient: "p-1", at: F.t0, id: F.id(1))
        let back = try #require(try Self.roundTrip(F.patient, [sample]).samples.first)
        #expect(back.quantity?.unit == .countPerMinute)
        #expect(abs((back.quantity?.value ?? 0) - 90) < 1e-9)
        #expect(back.id == sample.id)
    }

    @Test("sector and bed are not exported; everything else about the patient is")
    func patientStay() throws {
        var admitted = F.patient
        admitted.sector = "icu"
        admitted.bed = "7"
        let record = try Self.roundTrip(admitted, [])
        #expect(record.patient == F.patient)
    }

    @Test("a patient whose identifier is not a FHIR id comes back by its identifier")
    func oddPatientID() throws {
        let odd = Patient(id: "ward 3/bed 2", name: "Zé", sex: .other)
        let sample = HealthSample.quantity(.heartRate, 60, patient: odd.id, at: F.t0, id: F.id(1))
        let record = try Self.roundTrip(odd, [sample])
        #expect(record == PatientRecord(patient: odd, samples: [sample]))
    }

    @Test("a Bundle from elsewhere: Patient/id subject, id as UUID, no component ids — member UUIDs are the same on every import")
    func foreignBundle() throws {
        let json = """
            {"resourceType": "Bundle", "type": "searchset", "entry": [
              {"fullUrl": "https://example.org/fhir/Patient/42", "resource": {"resourceType": "Patient", "id": "42",
                "name": [{"given": ["Maria"], "family": "Silva"}], "gender": "unknown", "birthDate": "1961"}},
              {"resource": {"resourceType": "Observation", "id": "9f2c1a52-2f0e-4d8e-9a43-1d8a1b9b7c10", "status": "amended",
                "code": {"coding": [{"system": "http://loinc.org", "code": "85354-9"}]}, "subject": {"reference": "Patient/42"},
                "effectiveDateTime": "2024-03-01T08:30:00-03:00",
                "component": [
                  {"code": {"coding": [{"system": "http://loinc.org", "code": "8462-4"}]},
                   "valueQuantity": {"value": 80, "system": "http://unitsofmeasure.org", "code": "mm[Hg]"}},
                  {"code": {"coding": [{"system": "http://loinc.org", "code": "8480-6"}]},
                   "valueQuantity": {"value": 120, "unit": "mmHg"}}]}}]}
            """
        let first = try FHIRImporter().record(from: Data(json.utf8))
        let second = try FHIRImporter().record(from: Data(json.utf8))
        #expect(first == second)
        #expect(first.patient.id == "42")
        #expect(first.patient.name == "Maria Silva")
        #expect(first.patient.dateOfBirth == FHIRDateTime.day(from: "1961-01-01"))
        let sample = try #require(first.samples.first)
        #expect(sample.id == UUID(uuidString: "9f2c1a52-2f0e-4d8e-9a43-1d8a1b9b7c10"))
        #expect(sample.start == Date(timeIntervalSince1970: 1_709_292_600))  // 11:30Z
        guard case .correlation(let members) = sample.value else { Issue.record("not a correlation"); return }
        #expect(members.map(\.type) == [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)])
        #expect(members.map(\.quantity) == [HealthQuantity(120, .millimeterOfMercury), HealthQuantity(80, .millimeterOfMercury)])
        #expect(Set(members.map(\.id)).count == 2)
    }
}
