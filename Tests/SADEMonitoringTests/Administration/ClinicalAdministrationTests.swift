import Foundation
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Clinical administration: stays, care workers' changes, imported records", .timeLimit(.minutes(3)), .timed)
struct ClinicalAdministrationTests {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// A system of its own in memory: an admin, sectors `icu` and `ward`, nurse `nina`
    /// (an account and a worker in the ICU, on duty), patients `p-1` (ICU, bed 3) and `p-2` (ward).
    static func system() async throws -> (MonitoringSystem, admin: UserAccount, nurse: UserAccount) {
        let system = try await MonitoringSystem(
            configuration: .init(dataDirectory: nil, passwordHasher: .fastForTests, clock: ManualClock(), epoch: epoch))
        let admin = try await system.accounts.create(UserAccount(username: "admin", name: "Ada", role: .admin), password: "correct-horse")
        try await system.health.save(Hospital(id: "h1", name: "St. Mary"))
        try await system.health.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        try await system.health.save(HospitalSector(id: "ward", hospital: "h1", name: "Ward"))
        let nurse = try await UserAdministration(system: system).create(
            UserAccount(username: "nina", name: "Nina", role: .nurse), password: "pw-123456", links: .init(sectors: ["icu"]))
        try await system.health.save(Patient(id: "p-1", name: "Ana", sector: "icu", bed: "3"))
        try await system.health.save(Patient(id: "p-2", name: "Bo", sector: "ward", bed: "1"))
        return (system, admin, nurse)
    }

    static func pulse(_ patient: PatientID, _ value: Double) -> HealthSample {
        .quantity(.heartRate, value, patient: patient, at: epoch)
    }

    @Test("a patient is admitted only to a registered sector")
    func admitsToRegisteredSectors() async throws {
        let (system, _, _) = try await Self.system()
        let administration = ClinicalAdministration(system: system)
        await #expect(throws: MonitoringError.invalid(field: "sector", reason: "no sector 'cardio' is registered")) {
            try await administration.admit("p-2", to: "cardio", bed: nil)
        }
        #expect(try await system.health.patient("p-2")?.sector == "ward", "a refused admission changes nothing")
        let admitted = try await administration.admit("p-2", to: "icu", bed: "4")
        #expect(admitted?.sector == "icu" && admitted?.bed == "4")
    }

    @Test("a care worker's change reaches their care-worker agent: on duty it is found for the Contract Net, off duty no longer")
    func workerChangesReachTheirAgents() async throws {
        let (system, _, _) = try await Self.system()
        let administration = ClinicalAdministration(system: system)
        let onDuty = ServiceTemplate(type: CareWorkerAgent.serviceType, properties: ["staff": "nina", "onDuty": "true"])
        try await system.staffChanged()
        #expect(system.pipeline.environment.directory.search(onDuty).isEmpty, "a worker made with her account starts off duty")
        var nina = try #require(try await system.health.worker("nina"))
        nina.onDuty = true
        try await administration.update(nina)
        #expect(system.pipeline.environment.directory.search(onDuty).count == 1)
        nina.onDuty = false
        try await administration.update(nina)
        #expect(system.pipeline.environment.directory.search(onDuty).isEmpty)
        #expect(try await system.health.worker("nina")?.onDuty == false)
    }

    @Test("an admin's import registers a new patient, or updates a registered one's details and keeps their stay")
    func adminImports() async throws {
        let (system, admin, _) = try await Self.system()
        let administration = ClinicalAdministration(system: system)
        let new = try await administration.importRecord(
            PatientRecord(patient: Patient(id: "p-9", name: "Cy"), samples: [Self.pulse("p-9", 70)]), by: admin)
        #expect(new.created && new.samples == 1 && new.patient.name == "Cy")
        #expect(try await system.health.patient("p-9")?.name == "Cy")

        let updated = try await administration.importRecord(
            PatientRecord(patient: Patient(id: "p-1", name: "Ana Lima", sector: "ward", bed: "9"), samples: [Self.pulse("p-1", 72)]),
            by: admin)
        #expect(!updated.created)
        let registered = try #require(try await system.health.patient("p-1"))
        #expect(registered.name == "Ana Lima" && registered.sector == "icu" && registered.bed == "3", "the stay is not the file's to change")
        await #expect(throws: MonitoringError.invalid(field: "Patient.id", reason: "may hold only ASCII letters, digits and . _ -")) {
            try await administration.importRecord(PatientRecord(patient: Patient(id: "p 10", name: "D"), samples: []), by: admin)
        }
    }

    @Test("a nurse's import adds samples to a registered patient of her sectors only, and changes no details")
    func nurseImports() async throws {
        let (system, _, nurse) = try await Self.system()
        let administration = ClinicalAdministration(system: system)
        let forbidden = MonitoringError.forbidden("you may import data only of registered patients of your sectors")
        await #expect(throws: forbidden) {
            try await administration.importRecord(PatientRecord(patient: Patient(id: "p-9", name: "Cy"), samples: [Self.pulse("p-9", 70)]), by: nurse)
        }
        await #expect(throws: forbidden, "p-2 lies in the ward") {
            try await administration.importRecord(PatientRecord(patient: Patient(id: "p-2", name: "Bo"), samples: [Self.pulse("p-2", 70)]), by: nurse)
        }
        #expect(try await system.health.patient("p-9") == nil)
        let imported = try await administration.importRecord(
            PatientRecord(patient: Patient(id: "p-1", name: "Somebody else"), samples: [Self.pulse("p-1", 75), Self.pulse("p-1", 76)]), by: nurse)
        #expect(imported.samples == 2 && !imported.created)
        #expect(try await system.health.patient("p-1")?.name == "Ana")
        let stored = try await system.health.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: .system)
        #expect(stored.count == 2)
    }
}
