import Foundation
import SADEHealth
@testable import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): clinical registry", .timeLimit(.minutes(5)), .timed)
struct HealthStoreClinicalRegistryTests {
    static let hospital = Hospital(id: "h-1", name: "Hospital São Lucas", address: "Rua Marquês de São Vicente 225")
    static let ward = HospitalSector(id: "covid", hospital: "h-1", name: "COVID ward", mailingList: ["ward@example.org"])
    static let icu = HospitalSector(id: "icu", hospital: "h-1", name: "ICU")

    /// A store with one hospital and its two sectors.
    static func registry(_ kind: StoreKind, _ body: (any TestedHealthStore) async throws -> Void) async throws {
        try await withStore(kind) { store in
            try await store.save(hospital)
            try await store.save(ward)
            try await store.save(icu)
            try await body(store)
        }
    }

    @Test("hospitals, sectors, patients and workers read back as saved", arguments: StoreKind.allCases)
    func roundTrips(kind: StoreKind) async throws {
        try await Self.registry(kind) { store in
            var patient = COVID19Patient(
                Patient(
                    id: "p-1", name: "Ana Souza", dateOfBirth: Date(timeIntervalSince1970: -300_000_000), sex: .female, bloodType: .oNegative,
                    sector: "covid", bed: "12", rangeOverrides: [.oxygenSaturation: 88...92, .heartRate: 45...110], usesSpO2Scale2: true))
            patient.onRespirator = true
            try await store.save(patient.patient)
            let doctor = HealthCareWorker(
                id: "dr-ana", name: "Dra. Ana", role: .doctor, licence: "CRM 123", email: "ana@example.org", phone: "+55 21",
                sectors: ["covid", "icu"], onDuty: true)
            let nurse = HealthCareWorker.nurse(id: "n-1", name: "Bruno", sectors: ["icu"])
            try await store.save(doctor)
            try await store.save(nurse)

            #expect(try await store.hospitals() == [Self.hospital])
            #expect(try await store.sectors(of: "h-1") == [Self.ward, Self.icu])
            #expect(try await store.sectors(of: "h-9").isEmpty)
            #expect(try await store.patient("p-1") == patient.patient)
            #expect(try await store.patient("p-1").map { COVID19Patient($0).onRespirator } == true)
            #expect(try await store.patient("nobody") == nil)
            #expect(try await store.patients(["p-1", "nobody"]) == ["p-1": patient.patient])
            #expect(try await store.patients([]).isEmpty)
            #expect(try await store.worker("dr-ana") == doctor)
            #expect(try await store.workers(in: "icu") == [doctor, nurse].sorted { $0.name < $1.name })
            #expect(try await store.workers(in: "covid") == [doctor])
            #expect(try await store.workers(in: nil).count == 2)
        }
    }

    @Test("a record pointing at something unregistered is an invalid value naming the field")
    func foreignKeys() async throws {
        try await Self.registry(.memory) { store throws in
            let sector = await healthError { try await store.save(HospitalSector(id: "x", hospital: "h-9", name: "X")) }
            #expect(sector == .invalidValue(field: "hospital", reason: "no hospital 'h-9' is registered"))
            let patient = await healthError { try await store.save(Patient(id: "p-1", name: "Ana", sector: "nowhere")) }
            #expect(patient == .invalidValue(field: "sector", reason: "no sector 'nowhere' is registered"))
            let worker = await healthError { try await store.save(HealthCareWorker.nurse(id: "n", name: "N", sectors: ["icu", "nowhere"])) }
            #expect(worker == .invalidValue(field: "sectors", reason: "no sector 'nowhere' is registered"))
            #expect(try await store.patients(in: nil).isEmpty)
            #expect(try await store.workers(in: nil).isEmpty)
        }
    }

    @Test("admitting and discharging move a patient between sectors; unknown ones are not found")
    func admitsAndDischarges() async throws {
        try await Self.registry(.memory) { store in
            try await store.save(Patient(id: "p-1", name: "Ana"))
            try await store.save(Patient(id: "p-2", name: "Caio", sector: "icu", bed: "1"))
            try await store.admit("p-1", to: "covid", bed: "7")
            #expect(try await store.patients(in: "covid").map(\.id) == ["p-1"])
            #expect(try await store.patient("p-1")?.bed == "7")
            try await store.discharge("p-1")
            #expect(try await store.patients(in: "covid").isEmpty)
            #expect(try await store.patients(in: nil).map(\.id) == ["p-1", "p-2"])
            #expect(await healthError { try await store.admit("p-9", to: "covid", bed: nil) } == .notFound("patient p-9"))
            #expect(await healthError { try await store.admit("p-1", to: "nowhere", bed: nil) } == .notFound("sector nowhere"))
            #expect(await healthError { try await store.discharge("p-9") } == .notFound("patient p-9"))
        }
    }

    @Test("saving again replaces a record in place: a hospital keeps its sectors, a worker's sectors are replaced")
    func replaces() async throws {
        try await Self.registry(.memory) { store in
            try await store.save(Hospital(id: "h-1", name: "Renamed"))
            #expect(try await store.sectors(of: "h-1").count == 2)
            try await store.save(HealthCareWorker.nurse(id: "n-1", name: "Bruno", sectors: ["icu", "covid"]))
            try await store.save(HealthCareWorker.nurse(id: "n-1", name: "Bruno", sectors: ["covid"]))
            #expect(try await store.worker("n-1")?.sectors == ["covid"])
            #expect(try await store.workers(in: "icu").isEmpty)
        }
    }

    @Test("removing a patient removes their samples too, which anchored queries report", arguments: StoreKind.allCases)
    func removesPatientWithSamples(kind: StoreKind) async throws {
        try await Self.registry(kind) { store in
            try await store.save(Patient(id: "p-1", name: "Ana", sector: "icu"))
            let samples = [pulse(70, "p-1", at: 0), HealthSample.bloodPressure(systolic: 120, diastolic: 80, patient: "p-1", at: t0)]
            let other = pulse(80, "p-2", at: 0)
            try await store.save(samples + [other], as: .system)
            let anchor = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system).anchor

            try await store.remove("p-1")
            #expect(try await store.patient("p-1") == nil)
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system) == [other])
            #expect(try await store.samples(SampleQuery(.quantity(.bloodPressureSystolic)), as: .system).isEmpty)
            #expect(try await store.rowCount("sample") == 1)
            let changes = try await store.changes(.quantity(.heartRate), patient: nil, since: anchor, limit: nil, as: .system)
            #expect(changes.deleted == [samples[0].id])
            #expect(await healthError { try await store.remove("p-1") } == .notFound("patient p-1"))
        }
    }
}
