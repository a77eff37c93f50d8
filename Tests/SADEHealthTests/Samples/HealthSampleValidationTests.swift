import Foundation
import SADEHealth
import SADETestTiming
import Testing

/// The field `validate()` complains about, `nil` when valid, or the other error.
private func complaint(_ sample: HealthSample) -> String? {
    do {
        try sample.validate()
        return nil
    } catch {
        if case .invalidValue(let field, _) = error { return field }
        return "\(error)"
    }
}

private let now = Date(timeIntervalSince1970: 1_700_000_000)

@Suite("Sample validation", .timeLimit(.minutes(5)), .timed)
struct HealthSampleValidationTests {
    @Test("plausible samples of every kind are valid")
    func acceptsPlausibleSamples() {
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now)) == nil)
        #expect(complaint(.quantity(.oxygenSaturation, 100, patient: "p", at: now)) == nil)
        #expect(complaint(.quantity(.oxygenSaturation, 0.97, .fraction, patient: "p", at: now)) == nil)
        #expect(complaint(.quantity(.bodyTemperature, 98.6, .degreeFahrenheit, patient: "p", at: now)) == nil)
        #expect(complaint(.quantity(.bodyTemperature, 25, patient: "p", at: now)) == nil)
        #expect(complaint(.quantity(.bodyTemperature, 45, patient: "p", at: now)) == nil)
        #expect(complaint(.category(.consciousnessLevel, ConsciousnessLevel.unresponsive.rawValue, patient: "p", at: now)) == nil)
        #expect(complaint(.bloodPressure(systolic: 120, diastolic: 80, patient: "p", at: now)) == nil)
        let ecg = Electrocardiogram(samplingFrequency: 512, voltages: [1, -2, 3])
        #expect(complaint(HealthSample(patient: "p", type: .electrocardiogram, value: .electrocardiogram(ecg), start: now, end: now + 30)) == nil)
    }

    @Test("a negative rate is an invalid value", arguments: [QuantityType.heartRate, .respiratoryRate, .stepCount])
    func rejectsNegativeRate(type: QuantityType) {
        #expect(complaint(.quantity(type, -1, patient: "p", at: now)) == "value")
    }

    @Test("SpO2 above 100 % is an invalid value, also as a fraction")
    func rejectsOversaturation() {
        #expect(complaint(.quantity(.oxygenSaturation, 100.1, patient: "p", at: now)) == "value")
        #expect(complaint(.quantity(.oxygenSaturation, 1.01, .fraction, patient: "p", at: now)) == "value")
    }

    @Test("a temperature outside 25–45 °C is an invalid value, also in °F", arguments: [
        (24.9, HealthUnit.degreeCelsius), (45.1, .degreeCelsius), (113.5, .degreeFahrenheit), (76.9, .degreeFahrenheit),
    ])
    func rejectsImpossibleTemperature(value: Double, unit: HealthUnit) {
        #expect(complaint(.quantity(.bodyTemperature, value, unit, patient: "p", at: now)) == "value")
    }

    @Test("a value that is not a finite number is invalid")
    func rejectsNonFinite() {
        #expect(complaint(.quantity(.heartRate, .nan, patient: "p", at: now)) == "value")
        #expect(complaint(.quantity(.bodyMass, .infinity, patient: "p", at: now)) == "value")
    }

    @Test("a sample that ends before it starts names the field end")
    func rejectsEndBeforeStart() {
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, end: now - 1)) == "end")
    }

    @Test("a sample without a patient names the field patient")
    func rejectsEmptyPatient() {
        #expect(complaint(.quantity(.heartRate, 72, patient: "", at: now)) == "patient")
    }

    @Test("a unit of the wrong dimension names the field unit (incompatibleUnits is for direct conversions)")
    func rejectsWrongDimension() {
        #expect(complaint(.quantity(.heartRate, 72, .kilogram, patient: "p", at: now)) == "unit")
        #expect(complaint(.bloodPressure(systolic: 120, diastolic: 80, patient: "p", at: now).withMemberUnit(.percent)) == "unit")
    }

    /// Seconds since 1970, not dates: describing an infinite `Date` traps.
    @Test("start and end must be dates in the years 0001–9999: not infinite, not a number, not year 10000", arguments: [
        Double.infinity, -.infinity, .nan, 1e17, 253_402_300_800, -62_135_596_801,
    ])
    func rejectsImpossibleDates(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: date)) == "start")
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, end: date)) == "end")
    }

    @Test("the first and the last millisecond of the years 0001–9999 are possible dates")
    func acceptsExtremeDates() {
        let first = Date(timeIntervalSince1970: -62_135_596_800), last = Date(timeIntervalSince1970: 253_402_300_799.999)
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: first, end: last)) == nil)
    }

    @Test("NUL in the device, the source or metadata names that field; line breaks are fine")
    func rejectsNUL() {
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, device: "oxi\u{0}meter")) == "device")
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, source: "agent\u{0}")) == "source")
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, metadata: ["k\u{0}": "v"])) == "metadata")
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, metadata: ["k": "v\u{0}w"])) == "metadata")
        #expect(complaint(.quantity(.heartRate, 72, patient: "p", at: now, source: "a\nb", metadata: ["note": "line\tone\nline two"])) == nil)
    }

    @Test("a patient identifier with a control character, or too long, names the field patient (also in a member)")
    func rejectsUnusablePatient() {
        for id in ["p-1\u{0}x", "p-1\n", "\u{7F}", "\u{1F}p", String(repeating: "p", count: PatientID.maximumLength + 1)] {
            #expect(complaint(.quantity(.heartRate, 72, patient: PatientID(id), at: now)) == "patient", "\(id.debugDescription)")
        }
        #expect(complaint(.quantity(.heartRate, 72, patient: PatientID(String(repeating: "é", count: PatientID.maximumLength / 2)), at: now)) == nil)
        #expect(complaint(.bloodPressure(systolic: 120, diastolic: 80, patient: "p\u{0}", at: now)) == "patient")
    }

    @Test("an unknown type identifier is rejected when a sample is decoded")
    func rejectsUnknownType() throws {
        var json = String(decoding: try JSONEncoder().encode(HealthSample.quantity(.heartRate, 72, patient: "p", at: now)), as: UTF8.self)
        json = json.replacingOccurrences(of: #""heartRate""#, with: #""bloodGlucose""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthSample.self, from: Data(json.utf8)) }
    }

    @Test("a category value outside the category's values is invalid")
    func rejectsUnknownCategoryValue() {
        #expect(complaint(.category(.consciousnessLevel, 5, patient: "p", at: now)) == "value")
        #expect(complaint(.category(.supplementalOxygen, -1, patient: "p", at: now)) == "value")
    }

    @Test("a value of the wrong kind for the type is invalid")
    func rejectsMismatchedValue() {
        #expect(complaint(HealthSample(patient: "p", type: .quantity(.heartRate), value: .category(1), start: now)) == "value")
        #expect(complaint(HealthSample(patient: "p", type: .category(.supplementalOxygen), value: .quantity(.init(1, .count)), start: now)) == "value")
    }

    @Test("a correlation needs members of its own types, of its patient, each valid")
    func rejectsBadCorrelations() {
        let empty = HealthSample(patient: "p", type: .correlation(.bloodPressure), value: .correlation([]), start: now)
        #expect(complaint(empty) == "members")
        let foreignType = HealthSample(
            patient: "p", type: .correlation(.bloodPressure), value: .correlation([.quantity(.heartRate, 72, patient: "p", at: now)]), start: now)
        #expect(complaint(foreignType) == "members")
        let otherPatient = HealthSample(
            patient: "p", type: .correlation(.bloodPressure),
            value: .correlation([.quantity(.bloodPressureSystolic, 120, patient: "q", at: now)]), start: now)
        #expect(complaint(otherPatient) == "members")
        #expect(complaint(.bloodPressure(systolic: -5, diastolic: 80, patient: "p", at: now)) == "value")
    }

    @Test("a correlation holds one member of each member type, at its own time")
    func rejectsOddCorrelations() {
        let systolic = HealthSample.quantity(.bloodPressureSystolic, 120, patient: "p", at: now)
        let diastolic = HealthSample.quantity(.bloodPressureDiastolic, 80, patient: "p", at: now)
        func bloodPressure(_ members: [HealthSample], end: Date? = nil) -> HealthSample {
            HealthSample(patient: "p", type: .correlation(.bloodPressure), value: .correlation(members), start: now, end: end)
        }
        #expect(complaint(bloodPressure([systolic, diastolic])) == nil)
        #expect(complaint(bloodPressure([systolic, .quantity(.bloodPressureSystolic, 90, patient: "p", at: now)])) == "members")
        #expect(complaint(bloodPressure([systolic, .quantity(.bloodPressureDiastolic, 80, patient: "p", at: now + 600)])) == "members")
        #expect(complaint(bloodPressure([systolic, diastolic], end: now + 60)) == "members", "members end before the reading does")
        #expect(complaint(bloodPressure([systolic])) == "members", "half a blood pressure")
    }

    @Test("an ECG needs a positive sampling frequency, at least one voltage, voltages in a voltage unit, finite voltages")
    func rejectsBadElectrocardiograms() {
        func ecg(_ ecg: Electrocardiogram) -> HealthSample {
            HealthSample(patient: "p", type: .electrocardiogram, value: .electrocardiogram(ecg), start: now)
        }
        #expect(complaint(ecg(Electrocardiogram(samplingFrequency: 0, voltages: [1]))) == "samplingFrequency")
        #expect(complaint(ecg(Electrocardiogram(samplingFrequency: 512, voltages: [.nan]))) == "voltages")
        #expect(complaint(ecg(Electrocardiogram(samplingFrequency: 512, voltages: []))) == "voltages")
        #expect(complaint(ecg(Electrocardiogram(samplingFrequency: 512, voltages: [1], unit: .millimeterOfMercury))) == "unit")
    }
}

private extension HealthSample {
    /// This correlation with its first member's quantity in `unit` (same number).
    func withMemberUnit(_ unit: HealthUnit) -> HealthSample {
        guard case .correlation(var members) = value, case .quantity(let quantity) = members[0].value else { return self }
        members[0].value = .quantity(HealthQuantity(quantity.value, unit))
        var copy = self
        copy.value = .correlation(members)
        return copy
    }
}
