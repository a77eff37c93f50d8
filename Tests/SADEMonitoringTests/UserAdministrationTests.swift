import Foundation
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADETestTiming
import Testing

@Suite("User administration: accounts with their clinical records, all or nothing", .timeLimit(.minutes(3)), .timed)
struct UserAdministrationTests {
    /// A system of its own in memory, with an admin and a registered patient.
    static func system() async throws -> (MonitoringSystem, admin: UserAccount) {
        let system = try await MonitoringSystem(
            configuration: .init(dataDirectory: nil, passwordHasher: .fastForTests, clock: ManualClock(), epoch: Date(timeIntervalSince1970: 1_800_000_000)))
        let admin = try await system.accounts.create(UserAccount(username: "admin", name: "Ada", role: .admin), password: "correct-horse")
        try await system.health.save(Patient(id: "p-1", name: "Ana"))
        return (system, admin)
    }

    @Test("a nurse's account makes her worker (staff id = username, the request's sectors); a doctor's links an existing worker of his role")
    func careWorkersLinked() async throws {
        let (system, _) = try await Self.system()
        let users = UserAdministration(system: system)
        await #expect(throws: HealthError.self, "the store refuses a worker in an unknown sector") {
            try await users.create(UserAccount(username: "nina", name: "Nina", role: .nurse), password: "pw-123456", links: .init(sectors: ["icu"]))
        }
        #expect(try await system.accounts.accounts().map(\.username) == ["admin"], "all or nothing: no account without its worker")
        try await system.health.save(Hospital(id: "h1", name: "St. Mary"))
        try await system.health.save(HospitalSector(id: "icu", hospital: "h1", name: "ICU"))
        let nurse = try await users.create(
            UserAccount(username: "nina", name: "Nina", role: .nurse), password: "pw-123456", links: .init(sectors: ["icu"]))
        #expect(nurse.staffID == "nina")
        let worker = try #require(try await system.health.worker("nina"))
        #expect(worker.role == .nurse && worker.sectors == ["icu"] && worker.name == "Nina")

        try await system.health.save(HealthCareWorker(id: "dr-who", name: "Doctor", role: .doctor))
        let doctor = try await users.create(
            UserAccount(username: "who", name: "Doctor", role: .doctor, staffID: "dr-who"), password: "pw-123456",
            links: .init(staffIDGiven: true))
        #expect(doctor.staffID == "dr-who")
        await #expect(throws: MonitoringError.conflict("health-care worker dr-who already has the account who")) {
            try await users.create(UserAccount(username: "who2", name: "D", role: .doctor, staffID: "dr-who"), password: "pw-123456", links: .init(staffIDGiven: true))
        }
        try await system.health.save(HealthCareWorker(id: "nora", name: "Nora", role: .nurse))
        await #expect(throws: MonitoringError.conflict("health-care worker nora is a nurse, not a doctor")) {
            try await users.create(UserAccount(username: "x", name: "X", role: .doctor, staffID: "nora"), password: "pw-123456", links: .init(staffIDGiven: true))
        }
        #expect(try await system.accounts.accounts().count == 3, "refused requests leave no account behind")
    }

    @Test("links a role cannot have are refused, naming the field; a patient's account needs a registered record")
    func refusedLinks() async throws {
        let (system, _) = try await Self.system()
        let users = UserAdministration(system: system)
        await #expect(throws: MonitoringError.invalid(field: "staffID", reason: "only a doctor's or nurse's account links to a health-care worker")) {
            try await users.create(UserAccount(username: "pat", name: "P", role: .patient, patientID: "p-1"), password: "pw-123456", links: .init(staffIDGiven: true))
        }
        await #expect(throws: MonitoringError.invalid(field: "patientID", reason: "no patient p-9 is registered")) {
            try await users.create(UserAccount(username: "pat", name: "P", role: .patient, patientID: "p-9"), password: "pw-123456", links: .init(patientIDGiven: true))
        }
        await #expect(throws: MonitoringError.invalid(field: "staffID (the username unless given)", reason: "may hold only ASCII letters, digits and . _ -")) {
            try await users.create(UserAccount(username: "nína", name: "N", role: .nurse), password: "pw-123456", links: .init())
        }
        let patient = try await users.create(
            UserAccount(username: "pat", name: "P", role: .patient, patientID: "p-1"), password: "pw-123456", links: .init(patientIDGiven: true))
        #expect(patient.patientID == "p-1" && patient.staffID == nil)
    }

    @Test("an admin cannot demote or delete themself; deleting a nurse's account takes her off duty and keeps her record")
    func deleteAndDemote() async throws {
        let (system, admin) = try await Self.system()
        let users = UserAdministration(system: system)
        var demoted = admin
        demoted.role = .nurse
        await #expect(throws: MonitoringError.conflict("you cannot take away your own admin role: another admin must do it")) {
            try await users.update(demoted, was: admin, by: admin, links: .init())
        }
        await #expect(throws: MonitoringError.conflict("you cannot delete your own account")) { try await users.delete(admin, by: admin) }

        let nurse = try await users.create(UserAccount(username: "nina", name: "Nina", role: .nurse), password: "pw-123456", links: .init())
        var onDuty = try #require(try await system.health.worker("nina"))
        onDuty.onDuty = true
        try await system.health.save(onDuty)
        try await users.delete(nurse, by: admin)
        #expect(try await system.accounts.account(id: nurse.id) == nil)
        #expect(try await system.health.worker("nina")?.onDuty == false)
    }
}
