import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestTiming
import Testing

@Suite("README: health data", .timeLimit(.minutes(5)), .timed)
struct ReadmeHealthExampleTests {
    @Test("the README's health example runs as written")
    func readmeExample() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-readme-\(UUID().uuidString)").path

        // --- README: Health data ---
        let store = try SQLiteHealthStore(directory: directory)  // health.sqlite, WAL mode
        try await store.save(Hospital(id: "h1", name: "St. Mary"))
        try await store.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        try await store.save(Patient(id: "p-7", name: "Ana Lima", sex: .female, sector: "icu", bed: "7"))

        let collector = Principal.agent("CollectorAgent@hospital")
        try await HealthSetUpAssistant(store: store).requestAuthorization(
            for: collector, read: [.quantity(.heartRate), .quantity(.respiratoryRate)],
            share: [.quantity(.heartRate), .quantity(.respiratoryRate)])

        let now = Date()
        try await store.save([
            .quantity(.heartRate, 118, patient: "p-7", at: now, device: "monitor-7"),
            .quantity(.respiratoryRate, 26, patient: "p-7", at: now, device: "monitor-7"),
        ], as: collector)
        let lastHour = try await store.samples(
            SampleQuery(.quantity(.heartRate), patient: "p-7", from: now.addingTimeInterval(-3600)), as: collector)

        let score = try NEWS2Score(NEWS2Observations(respirationRate: 26, oxygenSaturation: 95, onSupplementalOxygen: false,
                                                     systolicBloodPressure: 105, pulse: 118, consciousness: .alert, temperature: 38.4))
        // score.total == 8 (RR 26 alone scores 3: a red flag), score.band == .high

        let detector = AnomalyDetector()
        let anomalies = await detector.evaluate(lastHour, patients: ["p-7": try await store.patient("p-7")!], at: now)

        let bundle = try FHIRExporter().json(patient: try await store.patient("p-7")!, samples: lastHour)
        // --- end ---

        #expect(lastHour.count == 1)
        #expect(score.total == 8)
        #expect(score.redFlag)
        #expect(score.band == .high)
        #expect(anomalies.contains { $0.kind == .outOfRange(.heartRate) })
        #expect(String(decoding: bundle, as: UTF8.self).contains("8867-4"))
    }
}
