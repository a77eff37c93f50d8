import Foundation
import SADEHealth
import SADETestTiming
import Testing

/// The anomaly engine with injected times: minutes after a fixed start, no clock.
@Suite("Anomaly detector: ranges, episodes, hysteresis, escalation", .timeLimit(.minutes(5)), .timed)
struct AnomalyDetectorTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private let ana: PatientID = "ana"
    private let bea: PatientID = "bea"

    private func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    private func heartRate(_ value: Double, _ patient: PatientID, minute: Double) -> HealthSample {
        .quantity(.heartRate, value, patient: patient, at: at(minute))
    }

    private var patients: [PatientID: Patient] {
        [ana: Patient(id: ana, name: "Ana"), bea: Patient(id: bea, name: "Bea", rangeOverrides: [.heartRate: 40...120])]
    }

    private func onsets(_ anomalies: [Anomaly]) -> [Anomaly] { anomalies.filter { $0.phase == .onset } }

    @Test("a value outside the standard range is an anomaly with the reading and the range")
    func outOfRange() async {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate([heartRate(100, ana, minute: 0)], patients: patients, at: at(0))
        #expect(anomalies.count == 1)
        let anomaly = anomalies.first
        #expect(anomaly?.patient == ana)
        #expect(anomaly?.kind == .outOfRange(.heartRate))
        #expect(anomaly?.phase == .onset)
        #expect(anomaly?.severity == .warning)  // 10 above 51–90: a quarter of the range's width
        #expect(anomaly?.typicalRange == 51...90)
        #expect(anomaly?.readings.map(\.value) == [100])
        #expect(anomaly?.time == at(0))
    }

    @Test("a per-patient override replaces the standard range")
    func override() async {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate(
            [heartRate(100, bea, minute: 0), heartRate(130, bea, minute: 1)], patients: patients, at: at(1))
        #expect(anomalies.count == 1, "100 is typical for Bea, 130 is not")
        #expect(anomalies.first?.readings.first?.value == 130)
        #expect(anomalies.first?.typicalRange == 40...120)
    }

    @Test("severity grows with the distance from the range", arguments: [
        (92.0, AnomalySeverity.information), (100, .warning), (115, .alarm), (48, .information), (40, .warning), (25, .alarm),
    ])
    func severity(value: Double, expected: AnomalySeverity) async {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate([heartRate(value, ana, minute: 0)], patients: patients, at: at(0))
        #expect(anomalies.filter { $0.kind == .outOfRange(.heartRate) }.map(\.severity) == [expected])
    }

    @Test("one episode is one alert: repeated abnormal values are not reported again")
    func deduplication() async {
        let detector = AnomalyDetector()
        var all: [Anomaly] = []
        for minute in 0..<10 {
            all += await detector.evaluate([heartRate(100, ana, minute: Double(minute))], patients: patients, at: at(Double(minute)))
        }
        #expect(all.count == 1)
        #expect(await detector.openEpisodes.count == 1)
    }

    @Test("a batch with several abnormal values gives one alert")
    func deduplicationWithinBatch() async {
        let detector = AnomalyDetector()
        let batch = (0..<5).map { heartRate(100, ana, minute: Double($0)) }.shuffled()
        let anomalies = await detector.evaluate(batch, patients: patients, at: at(5))
        #expect(anomalies.count == 1)
        #expect(anomalies.first?.time == at(0), "the episode starts at the first abnormal value")
    }

    @Test("hysteresis: back in range for less than rearmAfter, a new abnormal value belongs to the same episode")
    func noRearmTooSoon() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 300))
        var all = await detector.evaluate([heartRate(100, ana, minute: 0)], patients: patients, at: at(0))
        all += await detector.evaluate([heartRate(80, ana, minute: 1)], patients: patients, at: at(1))
        all += await detector.evaluate([heartRate(80, ana, minute: 5)], patients: patients, at: at(5.9))  // 4.9 min in range
        all += await detector.evaluate([heartRate(100, ana, minute: 5.95)], patients: patients, at: at(5.95))  // 4.95 min
        #expect(all.count == 1, "\(all.map(\.summary))")
        #expect(await detector.openEpisodes.first?.inRangeSince == nil, "abnormal again: not in range")
    }

    @Test("hysteresis: back in range for rearmAfter ends the episode; the next abnormal value is a new alert")
    func rearmAfterConfiguredTime() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 300))
        let first = await detector.evaluate([heartRate(100, ana, minute: 0)], patients: patients, at: at(0))
        let back = await detector.evaluate([heartRate(80, ana, minute: 1)], patients: patients, at: at(1))
        #expect(back.isEmpty)
        let settled = await detector.evaluate([heartRate(80, ana, minute: 6)], patients: patients, at: at(6))
        #expect(settled.map(\.phase) == [.resolved])
        #expect(settled.first?.time == at(6), "ended rearmAfter after the value came back")
        #expect(settled.first?.episode == first.first?.episode)
        #expect(await detector.openEpisodes.isEmpty)
        let again = await detector.evaluate([heartRate(100, ana, minute: 7)], patients: patients, at: at(7))
        #expect(again.map(\.phase) == [.onset])
        #expect(again.first?.episode != first.first?.episode)
    }

    @Test("an episode ends by the passing of time alone, reported at the next evaluation or check")
    func resolvedWithoutNewSamples() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 300, noDataAfter: 3600))
        _ = await detector.evaluate([heartRate(100, ana, minute: 0), heartRate(80, ana, minute: 1)], patients: patients, at: at(1))
        #expect(await detector.checkForMissingData(at: at(5.9)).isEmpty)
        let resolved = await detector.checkForMissingData(at: at(6))
        #expect(resolved.map(\.phase) == [.resolved])
        #expect(resolved.first?.kind == .outOfRange(.heartRate))
    }

    @Test("escalation: a higher severity within the episode is reported once more; a lower one is not")
    func escalation() async {
        let detector = AnomalyDetector()
        var all = await detector.evaluate([heartRate(100, ana, minute: 0)], patients: patients, at: at(0))
        all += await detector.evaluate([heartRate(95, ana, minute: 1)], patients: patients, at: at(1))  // still warning
        all += await detector.evaluate([heartRate(120, ana, minute: 2)], patients: patients, at: at(2))  // alarm
        all += await detector.evaluate([heartRate(100, ana, minute: 3)], patients: patients, at: at(3))  // back to warning
        all += await detector.evaluate([heartRate(125, ana, minute: 4)], patients: patients, at: at(4))  // alarm again
        #expect(all.map(\.phase) == [.onset, .escalation])
        #expect(all.map(\.severity) == [.warning, .alarm])
        #expect(Set(all.map(\.episode)).count == 1)
    }

    @Test("patients and vital signs have episodes of their own")
    func separateEpisodes() async {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate(
            [heartRate(100, ana, minute: 0), heartRate(30, bea, minute: 0), .quantity(.bodyTemperature, 38.6, patient: ana, at: at(0))],
            patients: patients, at: at(0))
        #expect(Set(onsets(anomalies).map { "\($0.patient) \($0.kind)" }) == [
            "ana outOfRange:heartRate", "bea outOfRange:heartRate", "ana outOfRange:bodyTemperature",
            "bea news2",  // a pulse of 30 scores 3: a red flag
        ])
    }

    @Test("a blood-pressure correlation is checked member by member; invalid samples are ignored")
    func correlationAndInvalid() async {
        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate(
            [
                .bloodPressure(systolic: 95, diastolic: 70, patient: ana, at: at(0)),
                .quantity(.oxygenSaturation, 120, patient: ana, at: at(0)),  // impossible
            ], patients: patients, at: at(0))
        #expect(anomalies.map(\.kind) == [.outOfRange(.bloodPressureSystolic)])
    }
}
