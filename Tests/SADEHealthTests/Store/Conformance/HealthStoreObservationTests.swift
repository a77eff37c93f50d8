import Foundation
import SADEHealth
@testable import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): live observation", .timeLimit(.minutes(5)), .timed)
struct HealthStoreObservationTests {
    @Test("an observer gets the next matching sample after a save, and nothing of other types or patients", arguments: StoreKind.allCases)
    func yieldsMatchingSamples(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let stream = try await store.observe(.quantity(.heartRate), patient: "p-1", as: .system)
            var samples = stream.makeAsyncIterator()
            // Saved first, so they would come out first if they were yielded at all.
            try await store.save([pulse(80, "p-2", at: 0), .quantity(.respiratoryRate, 15, patient: "p-1", at: at(0))], as: .system)
            let wanted = pulse(72, at: 1)
            try await store.save(wanted, as: .system)
            #expect(await samples.next() == wanted)
            let batch = [pulse(73, at: 2), pulse(74, at: 3)]
            try await store.save(batch, as: .system)
            #expect(await samples.next() == batch[0])
            #expect(await samples.next() == batch[1])
        }
    }

    @Test("a failed save yields nothing", arguments: StoreKind.backends)
    func failedSaveIsSilent(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        var samples = try await store.observe(.quantity(.heartRate), patient: nil, as: .system).makeAsyncIterator()
        _ = await healthError { try await store.save([pulse(72, at: 0), pulse(-1, at: 1)], as: .system) }
        let good = pulse(70, at: 2)
        try await store.save(good, as: .system)
        #expect(await samples.next() == good)
    }

    @Test("observing a member type yields the members of saved correlations", arguments: StoreKind.backends)
    func yieldsCorrelationMembers(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        var systolic = try await store.observe(.quantity(.bloodPressureSystolic), patient: nil, as: .system).makeAsyncIterator()
        var pressure = try await store.observe(.correlation(.bloodPressure), patient: nil, as: .system).makeAsyncIterator()
        let sample = HealthSample.bloodPressure(systolic: 141, diastolic: 92, patient: "p-1", at: t0)
        try await store.save(sample, as: .system)
        #expect(await systolic.next()?.quantity?.value == 141)
        #expect(await pressure.next() == sample)
    }

    @Test("an observer sees only the patients its principal may read, and may not observe others", arguments: StoreKind.backends)
    func filtersByAuthorization(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        let nurse = Principal.user("nurse1")
        try await store.grant(AccessGrant(nurse, .read, types: [.quantity(.heartRate)], patients: ["p-1"]))
        let denied = await healthError { _ = try await store.observe(.quantity(.heartRate), patient: "p-2", as: nurse) }
        #expect(denied == .notAuthorized(principal: nurse, access: .read, type: "heartRate", patient: "p-2"))

        var samples = try await store.observe(.quantity(.heartRate), patient: nil, as: nurse).makeAsyncIterator()
        try await store.save(pulse(90, "p-2", at: 0), as: .system)
        let allowed = pulse(70, "p-1", at: 1)
        try await store.save(allowed, as: .system)
        #expect(await samples.next() == allowed)
    }

    @Test("streams end when their store goes away")
    func endsWithStore() async throws {
        var store: SQLiteHealthStore? = try SQLiteHealthStore.inMemory()
        var samples = try await store?.observe(.quantity(.heartRate), patient: nil, as: .system).makeAsyncIterator()
        let sample = pulse(70, at: 0)
        try await store?.save(sample, as: .system)
        store = nil
        #expect(await samples?.next() == sample)
        #expect(await samples?.next() == nil)
    }

    @Test("a dropped stream is forgotten by the store", arguments: StoreKind.backends)
    func removesEndedStreams(kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        do {
            let stream = try await store.observe(.quantity(.heartRate), patient: nil, as: .system)
            #expect(store.observerCount == 1)
            _ = stream
        }
        #expect(store.observerCount == 0)

        let stream = try await store.observe(.quantity(.heartRate), patient: nil, as: .system)
        let reader = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        try await store.save(pulse(70, at: 0), as: .system)
        reader.cancel()
        _ = await reader.value
        #expect(store.observerCount == 0)
    }
}
