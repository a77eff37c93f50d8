import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Reader/writer and set-up assistant", .timeLimit(.minutes(5)), .timed)
struct HealthReaderWriterTests {
    let collector = Principal.agent("Collector")

    @Test("age, sex and blood type come from the registry; an unknown patient is not found")
    func characteristics() async throws {
        let store = try SQLiteHealthStore.inMemory()
        let born = Date(timeIntervalSince1970: 0)  // 1970-01-01
        try await store.save(Patient(id: "p-1", name: "Ana", dateOfBirth: born, sex: .female, bloodType: .abNegative))
        try await store.grant(AccessGrant(collector, .read, types: [.quantity(.heartRate)]))
        let health = HealthReaderWriter(store: store, as: collector)
        #expect(try await health.age(of: "p-1", at: Date(timeIntervalSince1970: 1_700_000_000)) == 53)
        #expect(try await health.biologicalSex(of: "p-1") == .female)
        #expect(try await health.bloodType(of: "p-1") == .abNegative)
        #expect(await healthError { _ = try await health.age(of: "p-9") } == .notFound("patient p-9"))
    }

    @Test("characteristics need a read grant for the patient, of any one type; the system always may")
    func characteristicsNeedAGrant() async throws {
        let store = try SQLiteHealthStore.inMemory()
        try await store.save(Patient(id: "p-1", name: "Ana", dateOfBirth: Date(timeIntervalSince1970: 0), sex: .female, bloodType: .abNegative))
        let health = HealthReaderWriter(store: store, as: collector)
        func refusals() async -> [HealthError?] {
            [
                await healthError { _ = try await health.age(of: "p-1", at: t0) },
                await healthError { _ = try await health.biologicalSex(of: "p-1") },
                await healthError { _ = try await health.bloodType(of: "p-1") },
            ]
        }
        let denied = ["age", "biologicalSex", "bloodType"].map { HealthError.notAuthorized(principal: collector, access: .read, type: $0, patient: "p-1") }
        #expect(await refusals() == denied, "no grant at all")
        // Sharing is not reading; reading another patient is not reading this one.
        try await store.grant(AccessGrant(collector, .share, types: [.quantity(.heartRate)], patients: ["p-1"]))
        try await store.grant(AccessGrant(collector, .read, types: [.quantity(.heartRate)], patients: ["p-2"]))
        #expect(await refusals() == denied, "no read grant for p-1")
        // An unknown patient is refused as a known one, so a stranger cannot probe the registry.
        #expect(await healthError { _ = try await health.bloodType(of: "p-9") } == .notAuthorized(principal: collector, access: .read, type: "bloodType", patient: "p-9"))

        try await store.grant(AccessGrant(collector, .read, types: [.category(.supplementalOxygen)], patients: ["p-1"]))
        #expect(await refusals() == [nil, nil, nil])
        #expect(try await health.bloodType(of: "p-1") == .abNegative)
        #expect(try await HealthReaderWriter(store: store, as: .system).biologicalSex(of: "p-1") == .female)
    }

    @Test("an agent authorized by the set-up assistant saves and reads quantity, category and correlation samples")
    func savesAndReads() async throws {
        let store = try SQLiteHealthStore.inMemory()
        let types: Set<HealthType> = [.quantity(.heartRate), .category(.consciousnessLevel), .correlation(.bloodPressure)]
        let assistant = HealthSetUpAssistant(store: store)
        #expect(try await !assistant.isAuthorized(collector, read: types, share: types, patients: ["p-1"]))
        try await assistant.requestAuthorization(for: collector, read: types, share: types, patients: ["p-1"])
        #expect(try await assistant.isAuthorized(collector, read: types, share: types, patients: ["p-1"]))

        let health = HealthReaderWriter(store: store, as: collector)
        let pulse = try await health.saveQuantity(.heartRate, value: 1.5, unit: .hertz, for: "p-1", at: at(0))
        try await health.saveQuantity(.heartRate, value: 80, for: "p-1", at: at(5))
        try await health.saveCategory(.consciousnessLevel, value: ConsciousnessLevel.confusion.rawValue, for: "p-1", at: at(1))
        let pressure = try await health.saveCorrelation(systolic: 118, diastolic: 76, for: "p-1", at: at(2))

        #expect(pulse.source == "Collector")
        #expect(pulse.canonicalValue == 90)
        #expect(try await health.readSamples(.quantity(.heartRate), of: "p-1").compactMap(\.canonicalValue) == [80, 90])
        #expect(try await health.readSamples(.quantity(.heartRate), of: "p-1", from: at(1)).count == 1)
        #expect(try await health.readSamples(.category(.consciousnessLevel), of: "p-1").first?.value == .category(1))
        #expect(try await health.readSamples(.correlation(.bloodPressure), of: "p-1") == [pressure])
        #expect(try await health.readSamples(.quantity(.bloodPressureDiastolic), of: "p-1").first?.quantity?.value == 76)
        #expect(try await health.latestSample(.quantity(.heartRate), of: "p-1")?.quantity?.value == 80)
    }

    @Test("a reader/writer without grants is refused, and an invalid value is rejected before anything is saved")
    func refuses() async throws {
        let store = try SQLiteHealthStore.inMemory()
        let health = HealthReaderWriter(store: store, as: collector)
        let save = await healthError { _ = try await health.saveQuantity(.heartRate, value: 70, for: "p-1") }
        #expect(save == .notAuthorized(principal: collector, access: .share, type: "heartRate", patient: "p-1"))
        let read = await healthError { _ = try await health.readSamples(.quantity(.heartRate), of: "p-1") }
        #expect(read == .notAuthorized(principal: collector, access: .read, type: "heartRate", patient: "p-1"))
        try await HealthSetUpAssistant(store: store).requestAuthorization(for: collector, read: [], share: [.quantity(.oxygenSaturation)])
        let invalid = await healthError { _ = try await health.saveQuantity(.oxygenSaturation, value: 101, for: "p-1") }
        guard case .invalidValue(field: "value", _) = invalid else { Issue.record("101 % SpO2 was not rejected"); return }
        let noPatients = await healthError {
            try await HealthSetUpAssistant(store: store).requestAuthorization(for: collector, read: [.electrocardiogram], share: [], patients: [])
        }
        #expect(noPatients == .invalidValue(field: "patients", reason: "name at least one patient, or nil for all"))
    }
}
