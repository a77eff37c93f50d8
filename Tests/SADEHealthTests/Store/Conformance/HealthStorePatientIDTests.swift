import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

/// SQLite reads bound text up to the first NUL, so `p-1\0x` would be `p-1` in SQL
/// while it is another patient to every grant: each door to the store refuses it.
@Suite("Health store (SQLite and PostgreSQL): patient identifiers with control characters", .timeLimit(.minutes(5)), .timed)
struct HealthStorePatientIDTests {
    let agent = Principal.agent("Snoop")
    let alias = PatientID("p-1\u{0}x")

    /// `invalidValue` naming `field`, whatever the reason.
    private func names(_ field: String, _ error: HealthError?) -> Bool {
        if case .invalidValue(field, _)? = error { return true }
        return false
    }

    @Test("a grant for an identifier with a control character is refused, and so is a principal name with one", arguments: StoreKind.backends)
    func grant(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        for patient in [alias, "p-1\n", "p-\u{7F}"] as [PatientID] {
            #expect(names("patient", await healthError { try await store.grant(AccessGrant(agent, .read, patients: [patient])) }))
        }
        #expect(names("principal", await healthError { try await store.grant(AccessGrant(.agent("Snoop\u{0}x"), .read)) }))
        #expect(try await store.grants().isEmpty)
    }

    @Test("reads, statistics, changes and live observation about such an identifier are refused, for the system too", arguments: StoreKind.allCases)
    func queries(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save([pulse(150, "p-1", at: 0), pulse(151, "p-1", at: 1)], as: .system)
            for principal in [agent, .system] {
                #expect(names("patient", await healthError { _ = try await store.samples(SampleQuery(.quantity(.heartRate), patient: alias), as: principal) }))
                #expect(names("patient", await healthError { _ = try await store.statistics(.heartRate, patient: alias, from: at(-1), to: at(10), as: principal) }))
                #expect(names("patient", await healthError {
                    _ = try await store.statisticsCollection(.heartRate, patient: alias, from: at(-1), to: at(10), interval: 60, as: principal)
                }))
                #expect(names("patient", await healthError { _ = try await store.changes(.quantity(.heartRate), patient: alias, since: .start, limit: nil, as: principal) }))
                #expect(names("patient", await healthError { _ = try await store.observe(.quantity(.heartRate), patient: alias, as: principal) }))
                #expect(names("patient", await healthError { _ = try await store.isAuthorized(principal, to: .read, .quantity(.heartRate), of: alias) }))
            }
        }
    }

    @Test("a sample about such an identifier is not saved, so p-1's data stays p-1's", arguments: StoreKind.backends)
    func write(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save(pulse(150, "p-1", at: 0), as: .system)
        #expect(names("patient", await healthError { try await store.save(pulse(40, alias, at: 2), as: .system) }))
        #expect(names("patient", await healthError { try await store.save(.bloodPressure(systolic: 120, diastolic: 80, patient: alias, at: t0), as: .system) }))
        #expect(try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: .system).map(\.quantity?.value) == [150])
    }

    @Test("the registry refuses such an identifier: saving, looking up, admitting, discharging, removing", arguments: StoreKind.backends)
    func registry(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save(Hospital(id: "h", name: "H"))
        try await store.save(HospitalSector(id: "icu", hospital: "h", name: "ICU"))
        try await store.save(Patient(id: "p-1", name: "Ann", sex: .female, bloodType: .abNegative))
        #expect(names("id", await healthError { try await store.save(Patient(id: alias, name: "Mallory", sex: .male)) }))
        #expect(names("patient", await healthError { _ = try await store.patient(alias) }))
        #expect(names("patient", await healthError { try await store.admit(alias, to: "icu", bed: "1") }))
        #expect(names("patient", await healthError { try await store.discharge(alias) }))
        #expect(names("patient", await healthError { try await store.remove(alias) }))
        #expect(names("name", await healthError { try await store.save(Patient(id: "p-2", name: "Bo\u{0}b")) }))
        #expect(names("id", await healthError { try await store.save(HospitalSector(id: "icu\u{0}2", hospital: "h", name: "ICU 2")) }))
        #expect(names("sector", await healthError { _ = try await store.patients(in: "icu\u{0}2") }))
        let ann = try await store.patient("p-1")
        #expect(ann?.name == "Ann" && ann?.sex == .female && ann?.sector == nil)
    }

    @Test("a date of birth outside the years 0001–9999 is refused", arguments: StoreKind.backends)
    func dateOfBirth(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        for date in [Date(timeIntervalSince1970: 1e17), Date(timeIntervalSinceReferenceDate: .infinity), Date(timeIntervalSinceReferenceDate: .nan)] {
            #expect(names("dateOfBirth", await healthError { try await store.save(Patient(id: "p-1", name: "Ann", dateOfBirth: date)) }))
        }
        #expect(try await store.patient("p-1") == nil)
    }
}
