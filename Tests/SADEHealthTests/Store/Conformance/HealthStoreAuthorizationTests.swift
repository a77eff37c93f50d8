import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): authorization", .timeLimit(.minutes(5)), .timed)
struct HealthStoreAuthorizationTests {
    let agent = Principal.agent("Collector")

    @Test("without a grant, reading a patient's samples is not authorized", arguments: StoreKind.allCases)
    func deniesRead(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save(pulse(70, at: 0), as: .system)
            let error = await healthError { _ = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: agent) }
            #expect(error == .notAuthorized(principal: agent, access: .read, type: "heartRate", patient: "p-1"))
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: agent).isEmpty)
            let stats = await healthError { _ = try await store.statistics(.heartRate, patient: "p-1", from: at(0), to: at(1), as: agent) }
            #expect(stats == .notAuthorized(principal: agent, access: .read, type: "heartRate", patient: "p-1"))
            let changes = await healthError { _ = try await store.changes(.quantity(.heartRate), patient: "p-1", since: .start, limit: nil, as: agent) }
            #expect(changes == .notAuthorized(principal: agent, access: .read, type: "heartRate", patient: "p-1"))
        }
    }

    @Test("a read grant for some patients and types covers exactly those; without a patient, results are filtered", arguments: StoreKind.backends)
    func readGrantCoversItsPatientsAndTypes(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.save([pulse(70, "p-1", at: 0), pulse(80, "p-2", at: 0), .quantity(.respiratoryRate, 14, patient: "p-1", at: t0)], as: .system)
        try await store.grant(AccessGrant(agent, .read, types: [.quantity(.heartRate)], patients: ["p-1"]))

        #expect(try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: agent).map(\.patient) == ["p-1"])
        #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: agent).map(\.patient) == ["p-1"])
        let otherPatient = await healthError { _ = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-2"), as: agent) }
        #expect(otherPatient == .notAuthorized(principal: agent, access: .read, type: "heartRate", patient: "p-2"))
        let otherType = await healthError { _ = try await store.samples(SampleQuery(.quantity(.respiratoryRate), patient: "p-1"), as: agent) }
        #expect(otherType == .notAuthorized(principal: agent, access: .read, type: "respiratoryRate", patient: "p-1"))
        let changes = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: agent)
        #expect(changes.added.map(\.patient) == ["p-1"])
        // Several types at once: each as alone, whether the grants cover both types alike or not.
        let types: [HealthType] = [.quantity(.heartRate), .quantity(.respiratoryRate)]
        let both = try await store.changes(types, patient: nil, since: [:], limit: nil, as: agent)
        #expect(both["heartRate"]?.added.map(\.patient) == ["p-1"])
        #expect(both["respiratoryRate"]?.added.isEmpty == true)
        try await store.grant(AccessGrant(agent, .read, types: [.quantity(.respiratoryRate)], patients: ["p-1"]))
        let alike = try await store.changes(types, patient: nil, since: [:], limit: nil, as: agent)
        #expect(alike["heartRate"]?.added.map(\.value) == [pulse(70, "p-1", at: 0).value])
        #expect(alike["respiratoryRate"]?.added.map(\.patient) == ["p-1"])
        let forbidden = await healthError { _ = try await store.changes(types, patient: "p-2", since: [:], limit: nil, as: agent) }
        #expect(forbidden == .notAuthorized(principal: agent, access: .read, type: "heartRate", patient: "p-2"))

        try await store.grant(AccessGrant(agent, .read, types: [.quantity(.heartRate)]))
        #expect(Set(try await store.samples(SampleQuery(.quantity(.heartRate)), as: agent).map(\.patient)) == ["p-1", "p-2"])
        #expect(try await store.isAuthorized(agent, to: .read, .quantity(.heartRate), of: "p-9"))
        #expect(try await !store.isAuthorized(agent, to: .share, .quantity(.heartRate), of: "p-1"))
    }

    @Test("saving needs a share grant for every sample's type and patient; a denied batch saves nothing", arguments: StoreKind.backends)
    func deniesShare(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.grant(AccessGrant(agent, .share, types: [.quantity(.heartRate)], patients: ["p-1"]))
        try await store.save(pulse(70, "p-1", at: 0), as: agent)
        let error = await healthError { try await store.save([pulse(71, "p-1", at: 1), pulse(72, "p-2", at: 1)], as: agent) }
        #expect(error == .notAuthorized(principal: agent, access: .share, type: "heartRate", patient: "p-2"))
        #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system).count == 1)
        let delete = await healthError { _ = try await store.delete([UUID()], as: agent) }
        #expect(delete == nil)  // nothing to delete, nothing to refuse
    }

    @Test("a correlation needs its members' types granted too", arguments: StoreKind.backends)
    func correlationNeedsMemberTypes(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let pressure = HealthSample.bloodPressure(systolic: 120, diastolic: 80, patient: "p-1", at: t0)
        try await store.grant(AccessGrant(agent, .share, types: [.correlation(.bloodPressure)]))
        let error = await healthError { try await store.save(pressure, as: agent) }
        guard case .notAuthorized(_, .share, _, "p-1") = error else { Issue.record("saved without member types: \(String(describing: error))"); return }
        try await store.grant(
            AccessGrant(agent, .share, types: [.quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic)], patients: ["p-1"]))
        try await store.save(pressure, as: agent)
    }

    @Test("revoking withdraws every grant of that access; the system principal needs none", arguments: StoreKind.backends)
    func revokes(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        try await store.grant(AccessGrant(agent, .read))
        try await store.grant(AccessGrant(agent, .read))  // equal grants are kept once
        try await store.grant(AccessGrant(agent, .share, types: [.quantity(.heartRate)]))
        #expect(try await store.grants(of: agent).count == 2)
        try await store.revokeAll(.read, from: agent)
        #expect(try await !store.isAuthorized(agent, to: .read, .quantity(.heartRate), of: "p-1"))
        #expect(try await store.isAuthorized(agent, to: .share, .quantity(.heartRate), of: "p-1"))
        #expect(try await store.isAuthorized(.system, to: .share, .electrocardiogram, of: "anyone"))
    }

    @Test("deleting needs a share grant for the sample", arguments: StoreKind.backends)
    func deniesDelete(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let sample = pulse(70, at: 0)
        try await store.save(sample, as: .system)
        try await store.grant(AccessGrant(agent, .read))
        let error = await healthError { _ = try await store.delete([sample.id], as: agent) }
        #expect(error == .notAuthorized(principal: agent, access: .share, type: "heartRate", patient: "p-1"))
        #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: agent) == [sample])
    }
}
