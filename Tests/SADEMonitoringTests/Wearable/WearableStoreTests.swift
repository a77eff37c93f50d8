import Foundation
import SADEHealth
@testable import SADEMonitoring
import SADEPostgres
import SADETestSupport
import Synchronization
import SADETestTiming
import Testing

/// The stores the wearable records' suite runs against.
enum WearableBackend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A new, empty store; with PostgreSQL, `nodes` stores on one database.
    func stores(nodes: Int = 1) async throws -> [WearableStore] {
        switch self {
        case .sqlite:
            return [WearableStore(database: try MonitoringDatabase(directory: nil))]
        case .postgres:
            let url = try await PostgresTestServer.makeDatabase()
            var stores: [WearableStore] = []
            for _ in 0..<nodes {
                let pool = try await PostgresPool.connect(PostgresLocation(url: url), maximumConnections: 4, timeout: .seconds(30), leaseTimeout: .seconds(120))
                stores.append(WearableStore(records: try await PostgresWearableRecords(pool)))
            }
            return stores
        }
    }
}

@Suite("Wearable projects and data items (one suite, SQLite and PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct WearableStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_772_409_600)

    static func reading(_ bpm: Double, device: String?) -> WearableReading {
        WearableReading(heartBpm: bpm, gpsCoordinates: "41.15,-8.61", steps: 100, distance: 80, temperature: 36.6, device: device)
    }

    @Test("No Project comes first; a new project is numbered after the last; a bad name is refused naming the field", arguments: WearableBackend.allCases)
    func projects(_ backend: WearableBackend) async throws {
        let store = try #require(try await backend.stores().first)
        #expect(try await store.projects().map(\.id) == [WearableProject.noProjectID])
        #expect(try await store.projects().first?.name == "No Project")
        let study = try await store.createProject(name: "  Heart study ", description: "a pilot", adminID: "admin-1", at: Self.t0)
        let second = try await store.createProject(name: "Steps", description: nil, adminID: nil, at: Self.t0)
        #expect(study.name == "Heart study" && second.id == study.id + 1 && study.id >= 1)
        #expect(try await store.project(study.id) == study)
        #expect(try await store.project(999) == nil)
        await #expect(throws: MonitoringError.invalid(field: "name", reason: "must be 1 to 200 characters")) {
            _ = try await store.createProject(name: "  ", description: nil, adminID: nil, at: Self.t0)
        }
    }

    @Test("an item is stored with the samples made of it and the owner's previous item of the same device; listed, deleted", arguments: WearableBackend.allCases)
    func items(_ backend: WearableBackend) async throws {
        let store = try #require(try await backend.stores().first)
        let previous = Collected()
        func add(_ bpm: Double, owner: String, device: String?, at seconds: Double) async throws -> WearableDataItem {
            let at = Self.t0.addingTimeInterval(seconds)
            return try await store.add(Self.reading(bpm, device: device), ownerID: owner, at: at) { item, before in
                previous.append(before?.id)
                return [HealthSample.quantity(.heartRate, item.reading.heartBpm, patient: PatientID(rawValue: "p-\(owner)"), at: at)]
            }.item
        }
        let first = try await add(70, owner: "ana", device: "watch", at: 0)
        let ring = try await add(71, owner: "ana", device: "ring", at: 1)
        let second = try await add(72, owner: "ana", device: "watch", at: 2)
        let noDevice = try await add(73, owner: "ana", device: nil, at: 3)
        let bens = try await add(80, owner: "ben", device: "watch", at: 4)
        #expect(previous.values == [nil, nil, first.id, nil, nil], "the previous item is the owner's, of the same device")
        #expect(second.sampleIDs.count == 1)
        #expect(try await store.item(second.id) == second, "read back as stored, samples' identifiers included")
        #expect(try await store.items(ownedBy: "ana").map(\.id) == [first.id, ring.id, second.id, noDevice.id])
        #expect(try await store.items(ownedByAnyOf: ["ben", "ana"]).map(\.id) == [first.id, ring.id, second.id, noDevice.id, bens.id])
        #expect(try await store.items(ownedByAnyOf: []).isEmpty)
        #expect(try await store.delete(ring.id))
        #expect(try await !store.delete(ring.id), "deleted once")
        #expect(try await store.deleteItems(ownedBy: "ana") == 3)
        #expect(try await store.items(ownedByAnyOf: ["ana", "ben"]).map(\.id) == [bens.id])
        #expect(try await store.item(first.id) == nil)
    }

    @Test("one owner's items posted to two nodes at once: each is linked to a different previous one, none lost")
    func itemsAcrossNodes() async throws {
        let stores = try await WearableBackend.postgres.stores(nodes: 2)
        let previous = Collected()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                let store = stores[index % 2]
                group.addTask {
                    _ = try await store.add(Self.reading(Double(60 + index), device: "watch"), ownerID: "ana", at: Self.t0) { _, before in
                        previous.append(before?.id)
                        return []
                    }
                }
            }
            try await group.waitForAll()
        }
        let items = try await stores[1].items(ownedBy: "ana")
        #expect(items.count == 20)
        let linked = previous.values
        #expect(linked.count == 20 && linked.filter { $0 == nil }.count == 1, "only the first had none")
        #expect(Set(linked.compactMap { $0 }) == Set(items.dropLast().map(\.id)), "every item but the last is the previous of exactly one")
    }
}

/// What a store's `samples` closure saw, in order.
private final class Collected: Sendable {
    private let list = Mutex<[Int64?]>([])
    func append(_ value: Int64?) { list.withLock { $0.append(value) } }
    var values: [Int64?] { list.withLock { $0 } }
}
