import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("NEWS2 from the latest samples within a window", .timeLimit(.minutes(5)), .timed)
struct NEWS2ScoreSamplesTests {
    private let patient: PatientID = "p-1"
    private let now = Date(timeIntervalSince1970: 1_000_000)

    private func ago(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(-seconds) }

    @Test("each parameter takes its latest value within the window; older and future samples do not count")
    func latestWithinWindow() throws {
        let samples: [HealthSample] = [
            .quantity(.respiratoryRate, 30, patient: patient, at: ago(3601)),  // outside the hour
            .quantity(.respiratoryRate, 22, patient: patient, at: ago(600)),
            .quantity(.respiratoryRate, 16, patient: patient, at: ago(1200)),  // older than the 22
            .quantity(.heartRate, 115, patient: patient, at: ago(3600)),  // exactly on the window's edge
            .quantity(.heartRate, 140, patient: patient, at: now.addingTimeInterval(60)),  // in the future
            .quantity(.oxygenSaturation, 95, patient: patient, at: ago(10)),
            .category(.supplementalOxygen, 1, patient: patient, at: ago(10)),
            .bloodPressure(systolic: 105, diastolic: 70, patient: patient, at: ago(30)),
            .category(.consciousnessLevel, ConsciousnessLevel.alert.rawValue, patient: patient, at: ago(5)),
            .quantity(.bodyTemperature, 101.3, .degreeFahrenheit, patient: patient, at: ago(20)),  // 38.5 °C
        ]
        let score = try NEWS2Score(latestOf: samples.shuffled(), at: now, window: 3600, scale2: false)
        #expect(score.observations.respirationRate == 22)
        #expect(score.observations.pulse == 115)
        #expect(score.observations.systolicBloodPressure == 105)
        #expect(score.observations.onSupplementalOxygen == true)
        #expect(abs((score.observations.temperature ?? 0) - 38.5) < 1e-9)
        #expect(score.total == 9)
        #expect(score.band == .high)
        #expect(score.isComplete)
    }

    @Test("parameters without a recent sample are missing")
    func missingWhenStale() throws {
        let samples: [HealthSample] = [
            .quantity(.heartRate, 95, patient: patient, at: ago(7200)),
            .quantity(.respiratoryRate, 25, patient: patient, at: ago(60)),
            .quantity(.stepCount, 1000, patient: patient, at: ago(60)),  // not a NEWS2 parameter
        ]
        let score = try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: false)
        #expect(score.total == 3)
        #expect(score.band == .lowMedium)
        #expect(score.missing.contains(.pulse))
        #expect(score.missing.count == 6)
    }

    @Test("scale2 scores SpO2 on scale 2")
    func scale2() throws {
        let samples: [HealthSample] = [
            .quantity(.oxygenSaturation, 89, patient: patient, at: ago(60)),
            .category(.supplementalOxygen, 0, patient: patient, at: ago(60)),
        ]
        #expect(try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: true).subscore(.oxygenSaturation) == 0)
        #expect(try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: false).subscore(.oxygenSaturation) == 3)
    }

    @Test("a confused patient scores 3 for consciousness")
    func confusionFromCategory() throws {
        let samples: [HealthSample] = [
            .category(.consciousnessLevel, ConsciousnessLevel.alert.rawValue, patient: patient, at: ago(120)),
            .category(.consciousnessLevel, ConsciousnessLevel.confusion.rawValue, patient: patient, at: ago(60)),
        ]
        let score = try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: false)
        #expect(score.observations.consciousness == .confusion)
        #expect(score.subscore(.consciousness) == 3)
    }

    @Test("samples of two patients are refused")
    func twoPatients() {
        let samples: [HealthSample] = [
            .quantity(.heartRate, 80, patient: "p-1", at: ago(1)), .quantity(.heartRate, 80, patient: "p-2", at: ago(1)),
        ]
        #expect(throws: HealthError.self) { try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: false) }
    }

    @Test("an impossible category value is refused")
    func impossibleCategory() {
        let samples: [HealthSample] = [.category(.consciousnessLevel, 9, patient: patient, at: ago(1))]
        #expect(throws: HealthError.self) { try NEWS2Score(latestOf: samples, at: now, window: 3600, scale2: false) }
    }

    @Test("supplemental oxygen is a state: the latest record counts however old, a future one does not")
    func oxygenIsAState() throws {
        let spo2 = HealthSample.quantity(.oxygenSaturation, 97, patient: patient, at: ago(10))
        let onOxygen = HealthSample.category(.supplementalOxygen, 1, patient: patient, at: ago(5 * 3600))
        let score = try NEWS2Score(latestOf: [onOxygen, spo2], at: now, window: 3600, scale2: true)
        #expect(score.observations.onSupplementalOxygen == true)
        #expect(score.subscore(.airOrOxygen) == 2)
        #expect(score.subscore(.oxygenSaturation) == 3, "97 % on oxygen, scale 2")
        let offAgain = HealthSample.category(.supplementalOxygen, 0, patient: patient, at: ago(2 * 3600))
        #expect(try NEWS2Score(latestOf: [onOxygen, offAgain, spo2], at: now, window: 3600, scale2: true).subscore(.oxygenSaturation) == 0)
        let future = HealthSample.category(.supplementalOxygen, 0, patient: patient, at: now.addingTimeInterval(60))
        #expect(try NEWS2Score(latestOf: [onOxygen, future, spo2], at: now, window: 3600, scale2: true).subscore(.airOrOxygen) == 2)
    }
}
