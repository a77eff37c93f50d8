import Foundation
import SADEHome
import SADENotification
import SADETestTiming
import Testing

/// Two nodes' stores on one PostgreSQL database: what one writes, the other reads, and
/// batches and messages sent to both at once add up as if one node had taken them.
@Suite("Home store shared by two nodes (PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct SharedHomeStoreTests {
    private static let t0 = Date(timeIntervalSince1970: 1_772_409_600)
    private static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    private static let triangle = [PlanPoint(x: 0, y: 0), PlanPoint(x: 1, y: 0), PlanPoint(x: 1, y: 1)]

    /// Two stores on one new database.
    private static func twoNodes() async throws -> (any HomeStore, any HomeStore) {
        let place = try await HomeBackend.postgres.place()
        return (try await HomeBackend.postgres.store(at: place), try await HomeBackend.postgres.store(at: place))
    }

    @Test("a flat made, changed and given a device on one node is read on the other, which records its events")
    func flatsAcrossNodes() async throws {
        let (a, b) = try await Self.twoNodes()
        let flat = try await a.createFlat(FlatPlan(name: "Flat 1", rooms: [
            RoomPlan(name: "Hall", type: .hall, polygon: Self.triangle, devices: [DevicePlan(name: "Motion", kind: .motion, position: .init(x: 0, y: 0))]),
        ]))
        #expect(try await b.flat(flat.id) == flat)
        _ = try await b.flat(flat.id)  // b now holds the flat's devices in memory
        let renamed = try await a.updateFlat(flat.id, FlatUpdate(name: "Flat one", carers: ["nurse1"]))
        #expect(try await b.flat(flat.id) == renamed, "the other node sees the change at once")
        let door = try await a.addDevice(DevicePlan(name: "Door", kind: .contact, position: .init(x: 0, y: 0)), room: flat.rooms[0].id, flat: flat.id)
        try await b.record([StateEvent(device: door.id, value: 1, time: Self.at(5))])  // a device b never saw made
        #expect(try await a.history(device: door.id, from: Self.at(0), to: Self.at(10), limit: nil).map(\.value) == [1])
        #expect(try await b.flats().map(\.name) == ["Flat one"])
    }

    @Test("batches of one device sent to both nodes at once: every event counted once, the newest by time is the state")
    func concurrentBatches() async throws {
        let (a, b) = try await Self.twoNodes()
        let flat = try await a.createFlat(FlatPlan(name: "F", rooms: [
            RoomPlan(name: "Kitchen", type: .kitchen, polygon: Self.triangle, devices: [
                DevicePlan(name: "Energy", kind: .energy, position: .init(x: 0, y: 0)), DevicePlan(name: "Motion", kind: .motion, position: .init(x: 0, y: 0)),
            ]),
            RoomPlan(name: "Hall", type: .hall, polygon: Self.triangle, devices: [DevicePlan(name: "Motion", kind: .motion, position: .init(x: 0, y: 0))]),
        ]))
        let meter = flat.devices[0].id, kitchen = flat.devices[1].id, hall = flat.devices[2].id
        // 40 batches of 10 readings each, alternating nodes, all in the first hour; readings 1…400 in time order.
        // Each batch has a motion in the kitchen but one, whose motion in the hall is the newest of all.
        try await withThrowingTaskGroup(of: [RecordedEvent].self) { group in
            var sequences: [Int64] = []
            for batch in 0..<40 {
                let node = batch.isMultiple(of: 2) ? a : b
                let events = (0..<10).map { index in
                    let n = Double(batch * 10 + index + 1)
                    return StateEvent(device: meter, value: n, time: Self.at(n))
                } + [StateEvent(device: batch == 17 ? hall : kitchen, value: 1, time: Self.at(batch == 17 ? 1000 : Double(batch * 10 + 1)))]
                if batch >= 8, let recorded = try await group.next() { sequences += recorded.map(\.sequence) }  // as many at once as connections
                group.addTask { try await node.record(events) }
            }
            for try await recorded in group { sequences += recorded.map(\.sequence) }
            #expect(Set(sequences).count == 440, "every event has a sequence number of its own")
        }
        let hour = try #require(try await b.statistics(devices: [meter], from: Self.at(0), to: Self.at(3600), period: .hour)[meter]?.first)
        #expect(hour.count == 400 && hour.sum == 400 * 401 / 2 && hour.min == 1 && hour.max == 400)
        #expect(hour.change == 399, "from the first reading to the last by time, whichever node took them")
        let state = try #require(try await a.states(flat: flat.id).first { $0.device.id == meter })
        #expect(state.latest?.value == 400 && state.latest?.time == Self.at(400))
        let occupancy = try #require(try await a.occupancy(flat: flat.id))
        #expect(occupancy.room == flat.rooms[1].id && occupancy.since == Self.at(1000), "the newest motion was the hall's, whichever batch came last")
    }

    @Test("the same message raised on both nodes at once is one open message; it is confirmed once and expires once")
    func messagesAcrossNodes() async throws {
        let (a, b) = try await Self.twoNodes()
        let flat = try await a.createFlat(FlatPlan(name: "F", rooms: []))
        let alarm = HomeMessageDraft(flat: flat.id, severity: .alarm, title: "Fall", text: "in the hall", key: "fall:1")
        async let onA = a.raise(alarm, at: Self.at(0))
        async let onB = b.raise(alarm, at: Self.at(0))
        let (first, second) = try await (onA, onB)
        #expect(first.message.id == second.message.id && first.isNew != second.isNew, "one node raised it, the other joined it")
        async let confirmA = Result { try await a.confirm(message: first.message.id, by: "nurse1", at: Self.at(10)) }
        async let confirmB = Result { try await b.confirm(message: first.message.id, by: "nurse2", at: Self.at(10)) }
        let confirmations = await [confirmA, confirmB]
        #expect(confirmations.count { (try? $0.get()) != nil } == 1, "only one confirmation goes through")
        let info = try await a.raise(HomeMessageDraft(flat: flat.id, severity: .information, title: "Up", text: "awake", key: "up"), at: Self.at(0)).message
        async let expiredA = a.expireMessages(at: Self.at(900))
        async let expiredB = b.expireMessages(at: Self.at(900))
        let expired = try await expiredA + expiredB
        #expect(expired.map(\.id) == [info.id], "each message expires on one node")
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
