import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("Anomaly detector: NEWS2 per patient and missing data", .timeLimit(.minutes(5)), .timed)
struct AnomalyDetectorNEWS2Tests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private let ana: PatientID = "ana"
    private let copd: PatientID = "copd"

    private func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    private var patients: [PatientID: Patient] {
        [ana: Patient(id: ana, name: "Ana"), copd: Patient(id: copd, name: "Carl", usesSpO2Scale2: true)]
    }

    private func news2(_ anomalies: [Anomaly]) -> [Anomaly] { anomalies.filter { $0.kind == .news2 } }

    @Test("a red flag is a NEWS2 anomaly with its score; a low score is not")
    func redFlag() async throws {
        let detector = AnomalyDetector()
        let low = await detector.evaluate([.quantity(.heartRate, 95, patient: ana, at: at(0))], patients: patients, at: at(0))
        #expect(news2(low).isEmpty, "NEWS2 1 is below the reporting band")
        let flagged = await detector.evaluate([.quantity(.respiratoryRate, 25, patient: ana, at: at(1))], patients: patients, at: at(1))
        let anomaly = try #require(news2(flagged).first)
        #expect(anomaly.phase == .onset)
        #expect(anomaly.severity == .warning)
        #expect(anomaly.score?.total == 4)  // RR 25 → 3, pulse 95 from the earlier batch → 1
        #expect(anomaly.score?.band == .lowMedium)
        #expect(anomaly.time == at(1))
        #expect(Set(anomaly.readings.map(\.type)) == [.respiratoryRate, .heartRate])
    }

    @Test("escalation when the band rises within an episode: low-medium → medium → high; falling back is silent")
    func escalationWithBand() async {
        let detector = AnomalyDetector()
        var all: [Anomaly] = []
        let steps: [(Double, HealthSample)] = [
            (0, .quantity(.respiratoryRate, 25, patient: ana, at: at(0))),  // 3: low-medium
            (1, .quantity(.heartRate, 115, patient: ana, at: at(1))),  // 5: medium
            (2, .quantity(.bodyTemperature, 39.5, patient: ana, at: at(2))),  // 7: high
            (3, .quantity(.bodyTemperature, 37, patient: ana, at: at(3))),  // 5: medium again
        ]
        for (minute, sample) in steps { all += news2(await detector.evaluate([sample], patients: patients, at: at(minute))) }
        #expect(all.map(\.phase) == [.onset, .escalation, .escalation])
        #expect(all.map { $0.score?.band } == [.lowMedium, .medium, .high])
        #expect(all.map(\.severity) == [.warning, .warning, .alarm])
        #expect(Set(all.map(\.episode)).count == 1)
    }

    @Test("the NEWS2 episode ends after the score stayed below the band for rearmAfter")
    func news2Resolution() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 600))
        _ = await detector.evaluate([.quantity(.respiratoryRate, 25, patient: ana, at: at(0))], patients: patients, at: at(0))
        _ = await detector.evaluate([.quantity(.respiratoryRate, 16, patient: ana, at: at(1))], patients: patients, at: at(1))
        #expect(news2(await detector.evaluate([], patients: patients, at: at(10.5))).isEmpty)
        let resolved = news2(await detector.evaluate([], patients: patients, at: at(11)))
        #expect(resolved.map(\.phase) == [.resolved])
        #expect(resolved.first?.time == at(11))
    }

    @Test("a NEWS2 episode does not end just because its readings grew older than the window")
    func staleReadingsDoNotResolve() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 600, news2Window: 3600))
        let onset = await detector.evaluate([.quantity(.respiratoryRate, 26, patient: ana, at: at(0))], patients: patients, at: at(0))
        #expect(news2(onset).map(\.phase) == [.onset])
        #expect(news2(await detector.evaluate([], patients: patients, at: at(66))).isEmpty, "no new reading: nothing resolved")
        #expect(news2(await detector.evaluate([], patients: patients, at: at(120))).isEmpty)
        #expect(await detector.openEpisodes.contains { $0.kind == .news2 && $0.patient == ana })
        _ = await detector.evaluate([.quantity(.respiratoryRate, 16, patient: ana, at: at(121))], patients: patients, at: at(121))
        let resolved = news2(await detector.evaluate([], patients: patients, at: at(131)))
        #expect(resolved.map(\.phase) == [.resolved], "a reading back in range ends it")
    }

    @Test("a normal reading of another parameter is no evidence of recovery")
    func unrelatedReadingDoesNotResolve() async {
        let detector = AnomalyDetector(configuration: .init(rearmAfter: 600, news2Window: 3600))
        _ = await detector.evaluate([
            .quantity(.respiratoryRate, 28, patient: ana, at: at(0)), .quantity(.heartRate, 125, patient: ana, at: at(0)),
        ], patients: patients, at: at(0))
        _ = await detector.evaluate([.quantity(.bodyTemperature, 37, patient: ana, at: at(61))], patients: patients, at: at(61))
        #expect(news2(await detector.evaluate([], patients: patients, at: at(75))).isEmpty, "temperature alone says nothing of RR and pulse")
        _ = await detector.evaluate([
            .quantity(.respiratoryRate, 16, patient: ana, at: at(80)), .quantity(.heartRate, 70, patient: ana, at: at(80)),
        ], patients: patients, at: at(80))
        #expect(news2(await detector.evaluate([], patients: patients, at: at(90))).map(\.phase) == [.resolved])
    }

    @Test("NEWS2 follows the patient's SpO2 scale: 88 % on air is on target on scale 2, a red flag on scale 1")
    func patientScale() async {
        let detector = AnomalyDetector()
        let samples: [HealthSample] = [
            .quantity(.oxygenSaturation, 88, patient: ana, at: at(0)), .category(.supplementalOxygen, 0, patient: ana, at: at(0)),
            .quantity(.oxygenSaturation, 88, patient: copd, at: at(0)), .category(.supplementalOxygen, 0, patient: copd, at: at(0)),
        ]
        let anomalies = news2(await detector.evaluate(samples, patients: patients, at: at(0)))
        #expect(anomalies.map(\.patient) == [ana])
    }

    @Test("only readings within the NEWS2 window count")
    func window() async {
        let detector = AnomalyDetector(configuration: .init(news2Window: 30 * 60))
        _ = await detector.evaluate([.quantity(.heartRate, 115, patient: ana, at: at(0))], patients: patients, at: at(0))
        let late = await detector.evaluate([.quantity(.respiratoryRate, 22, patient: ana, at: at(31))], patients: patients, at: at(31))
        #expect(news2(late).isEmpty, "pulse 115 (2) is too old to add to RR 22 (2)")
        let early = AnomalyDetector(configuration: .init(news2Window: 30 * 60))
        _ = await early.evaluate([.quantity(.heartRate, 115, patient: ana, at: at(0))], patients: patients, at: at(0))
        let recent = await early.evaluate(
            [.quantity(.respiratoryRate, 22, patient: ana, at: at(29)), .quantity(.bodyTemperature, 38.5, patient: ana, at: at(29))],
            patients: patients, at: at(29))
        #expect(news2(recent).first?.score?.total == 5, "pulse 2 + RR 2 + temperature 1")
    }

    @Test("with the reporting band set to low, any score above 0 is information")
    func reportingBandLow() async {
        let detector = AnomalyDetector(configuration: .init(news2ReportingBand: .low))
        let anomalies = news2(await detector.evaluate([.quantity(.heartRate, 95, patient: ana, at: at(0))], patients: patients, at: at(0)))
        #expect(anomalies.map(\.severity) == [.information])
        let none = AnomalyDetector(configuration: .init(news2ReportingBand: .low))
        #expect(news2(await none.evaluate([.quantity(.heartRate, 70, patient: ana, at: at(0))], patients: patients, at: at(0))).isEmpty)
    }

    @Test("no data for N minutes is an anomaly, not before; reported once; ends when data arrives")
    func noData() async {
        let detector = AnomalyDetector(configuration: .init(noDataAfter: 15 * 60))
        _ = await detector.evaluate([.quantity(.heartRate, 70, patient: ana, at: at(0))], patients: [ana: Patient(id: ana, name: "Ana")], at: at(0))
        #expect(await detector.checkForMissingData(at: at(14.9)).isEmpty)
        let silent = await detector.checkForMissingData(at: at(15))
        #expect(silent.map(\.kind) == [.noData])
        #expect(silent.first?.patient == ana)
        #expect(silent.first?.severity == .warning)
        #expect(silent.first?.lastData == at(0))
        #expect(await detector.checkForMissingData(at: at(30)).isEmpty, "one silence, one alert")
        let back = await detector.evaluate([.quantity(.heartRate, 70, patient: ana, at: at(31))], patients: [:], at: at(31))
        #expect(back.map(\.phase) == [.resolved])
        #expect(back.first?.episode == silent.first?.episode)
        #expect(await detector.checkForMissingData(at: at(45.9)).isEmpty)
        #expect(await detector.checkForMissingData(at: at(46)).map(\.phase) == [.onset], "a new silence is a new alert")
    }

    @Test("a patient who never sent data is silent from the moment they are watched")
    func neverSentData() async {
        let detector = AnomalyDetector(configuration: .init(noDataAfter: 600))
        _ = await detector.evaluate([], patients: [ana: Patient(id: ana, name: "Ana")], at: at(5))
        #expect(await detector.checkForMissingData(at: at(14)).isEmpty)
        let silent = await detector.checkForMissingData(at: at(15))
        #expect(silent.map(\.patient) == [ana])
        #expect(silent.first?.lastData == nil)
    }

    @Test("a patient no longer monitored is not reported")
    func stopMonitoring() async {
        let detector = AnomalyDetector(configuration: .init(noDataAfter: 600))
        _ = await detector.evaluate([.quantity(.heartRate, 100, patient: ana, at: at(0))], patients: patients, at: at(0))
        await detector.stopMonitoring(ana)
        #expect(await detector.openEpisodes.allSatisfy { $0.patient != ana })
        #expect(await detector.checkForMissingData(at: at(60)).map(\.patient) == [copd])
    }

    /// Respiration rate, pulse, systolic pressure and consciousness of `ana` at `minute`.
    private func chart(_ minute: Double, rr: Double, pulse: Double, sbp: Double, consciousness: ConsciousnessLevel = .alert) -> [HealthSample] {
        [
            .quantity(.respiratoryRate, rr, patient: ana, at: at(minute)), .quantity(.heartRate, pulse, patient: ana, at: at(minute)),
            .quantity(.bloodPressureSystolic, sbp, patient: ana, at: at(minute)),
            .category(.consciousnessLevel, consciousness.rawValue, patient: ana, at: at(minute)),
        ]
    }

    @Test("escalation when the total rises within the band (8 → 12, both high); an equal or lower total is silent")
    func escalationWithinBand() async {
        let detector = AnomalyDetector()
        var all: [Anomaly] = []
        all += news2(await detector.evaluate(chart(0, rr: 25, pulse: 131, sbp: 95), patients: patients, at: at(0)))  // 3 + 3 + 2 = 8
        all += news2(await detector.evaluate(chart(5, rr: 25, pulse: 131, sbp: 95), patients: patients, at: at(5)))  // 8 again
        all += news2(await detector.evaluate(chart(10, rr: 30, pulse: 140, sbp: 85, consciousness: .voice), patients: patients, at: at(10)))  // 12
        all += news2(await detector.evaluate(chart(15, rr: 25, pulse: 131, sbp: 95), patients: patients, at: at(15)))  // 8: still high, lower
        all += news2(await detector.evaluate(chart(20, rr: 30, pulse: 140, sbp: 85), patients: patients, at: at(20)))  // 9: above 8, below 12
        #expect(all.map(\.phase) == [.onset, .escalation])
        #expect(all.map { $0.score?.total } == [8, 12])
        #expect(all.map { $0.score?.band } == [.high, .high])
        #expect(await detector.openEpisodes.first { $0.kind == .news2 }?.total == 12)
    }

    @Test("a sample dated in the future counts as data arriving now: it does not hold off the no-data check")
    func futureSampleAndNoData() async {
        let detector = AnomalyDetector(configuration: .init(noDataAfter: 15 * 60))
        _ = await detector.evaluate([.quantity(.heartRate, 70, patient: ana, at: at(24 * 60))], patients: [:], at: at(0))
        #expect(await detector.checkForMissingData(at: at(14.9)).isEmpty)
        let silent = await detector.checkForMissingData(at: at(15))
        #expect(silent.map(\.kind) == [.noData])
        #expect(silent.first?.lastData == at(0))
    }

    @Test("a sample dated in the future does not hide the present samples of its NEWS2 parameter")
    func futureSampleAndNEWS2() async {
        let detector = AnomalyDetector()
        _ = await detector.evaluate([.quantity(.respiratoryRate, 16, patient: ana, at: at(24 * 60))], patients: patients, at: at(0))
        let flagged = news2(await detector.evaluate([.quantity(.respiratoryRate, 25, patient: ana, at: at(1))], patients: patients, at: at(1)))
        #expect(flagged.map { $0.score?.subscore(.respirationRate) } == [3])
    }

    @Test("a reading stamped a little ahead of the detector's clock (device clock skew) scores now; one beyond the tolerance waits")
    func clockSkew() async throws {
        let detector = AnomalyDetector(configuration: .init(clockSkewTolerance: 60))
        let skewed = news2(await detector.evaluate([.quantity(.respiratoryRate, 26, patient: ana, at: at(0.5))], patients: patients, at: at(0)))
        #expect(skewed.map(\.phase) == [.onset], "30 s ahead is within the tolerance")
        #expect(skewed.first?.score?.subscore(.respirationRate) == 3)
        let later = news2(await detector.evaluate([.quantity(.respiratoryRate, 26, patient: copd, at: at(2))], patients: patients, at: at(0)))
        #expect(later.isEmpty, "2 min ahead is not current yet")
    }
}
