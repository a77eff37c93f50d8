import Foundation
import SADEHome
import SADEHomeSQLite
import SADENotification
import SADETestTiming
import Testing

/// A flat with one room of given devices, in a fresh store.
private func storeWithFlat(_ backend: HomeBackend, _ devices: [DevicePlan], timeZone: String = "UTC") async throws -> (any HomeStore, Flat) {
    let store = try await backend.store()
    let room = RoomPlan(name: "Living room", type: .livingRoom, polygon: [.init(x: 0, y: 0), .init(x: 4, y: 0), .init(x: 4, y: 3)], devices: devices)
    let flat = try await store.createFlat(FlatPlan(name: "Flat", resident: "p-1", carers: ["nurse1"], timeZone: timeZone, rooms: [room]))
    return (store, flat)
}

private let t0 = Date(timeIntervalSince1970: 1_772_409_600)  // Monday 2 March 2026 00:00 UTC
private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

@Suite("Home store (one suite, SQLite and PostgreSQL)", .timeLimit(.minutes(5)), .timed)
struct HomeStoreTests {
    @Test("a flat with a device of every thesis kind and one an app declared reads back as created", arguments: HomeBackend.allCases)
    func everyKindRoundTrips(_ backend: HomeBackend) async throws {
        let custom = DeviceKind(rawValue: "bedOccupancy", category: .detection, unit: "", domain: "binary_sensor", deviceClass: "occupancy",
                                isResidentActivity: true)
        let plans = (DeviceKind.thesisKinds + [custom]).map { DevicePlan(name: "\($0.rawValue) sensor", kind: $0, position: .init(x: 1, y: 2)) }
        let (store, flat) = try await storeWithFlat(backend, plans)
        let read = try await store.flat(flat.id)
        #expect(read == flat)
        #expect(read.devices.count == 26)
        #expect(read.devices.map(\.kind) == DeviceKind.thesisKinds + [custom])
        #expect(read.device(entityID: "binary_sensor.bedoccupancy_sensor")?.kind.isResidentActivity == true)
        #expect(try await store.flats().map(\.id) == [flat.id])
    }

    @Test("two devices with the same name get distinct object ids; a bad polygon or time zone is refused naming the field", arguments: HomeBackend.allCases)
    func validation(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [
            DevicePlan(name: "Motion", kind: .motion, position: .init(x: 0, y: 0)), DevicePlan(name: "Motion", kind: .motion, position: .init(x: 1, y: 0)),
        ])
        #expect(flat.devices.map(\.objectID) == ["motion", "motion_2"])
        await #expect(throws: HomeError.invalidValue(field: "rooms[0].polygon", reason: "needs at least 3 corners")) {
            _ = try await store.createFlat(FlatPlan(name: "X", rooms: [RoomPlan(name: "R", type: .other, polygon: [.init(x: 0, y: 0)])]))
        }
        await #expect(throws: HomeError.self) {
            _ = try await store.createFlat(FlatPlan(name: "X", timeZone: "Mars/Olympus", rooms: []))
        }
        await #expect(throws: HomeError.unknownFlat(999)) { _ = try await store.flat(999) }
        await #expect(throws: HomeError.unknownRoom(999)) {
            _ = try await store.addDevice(DevicePlan(name: "D", kind: .water, position: .init(x: 0, y: 0)), room: 999, flat: flat.id)
        }
    }

    @Test("a batch with an unknown device records nothing; the latest state follows time, not arrival", arguments: HomeBackend.allCases)
    func recordAllOrNothing(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [DevicePlan(name: "Temp", kind: .temperature, position: .init(x: 0, y: 0), isBatteryPowered: true)])
        let temp = flat.devices[0].id
        await #expect(throws: HomeError.unknownDevice(12345)) {
            try await store.record([StateEvent(device: temp, value: 20, time: at(0)), StateEvent(device: 12345, value: 1, time: at(1))])
        }
        #expect(try await store.history(device: temp, from: at(-10), to: at(10), limit: nil).isEmpty)
        try await store.record([
            StateEvent(device: temp, value: 21, battery: 80, time: at(60)), StateEvent(device: temp, value: 20, battery: 81, time: at(0)),
        ])
        try await store.record([StateEvent(device: temp, value: 21, battery: 79, time: at(120)), StateEvent(device: temp, value: 19, time: at(30))])
        let state = try #require(try await store.states(flat: flat.id).first)
        #expect(state.latest?.value == 21 && state.latest?.time == at(120))
        #expect(state.lastChanged == at(60), "the value has been 21 since 60 s")
        #expect(state.battery == 79 && state.batteryState == .ok)
        #expect(try await store.history(device: temp, from: at(0), to: at(121), limit: nil).map(\.value) == [20, 19, 21, 21])
    }

    @Test("hourly statistics match values computed by hand, and a day adds its hours up", arguments: HomeBackend.allCases)
    func hourlyStatistics(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [DevicePlan(name: "Energy", kind: .energy, position: .init(x: 0, y: 0))])
        let meter = flat.devices[0].id
        // Hour 0: 10, 14, 12 → mean 12, min 10, max 14, sum 36, change 12 − 10 = 2. Hour 1: 15, 19 → change 19 − 12 = 7.
        try await store.record([10, 14, 12].enumerated().map { StateEvent(device: meter, value: $1, time: at(Double($0) * 1200)) })
        try await store.record([StateEvent(device: meter, value: 19, time: at(3600 + 1800)), StateEvent(device: meter, value: 15, time: at(3600))])
        let hours = try #require(try await store.statistics(devices: [meter], from: at(0), to: at(7200), period: .hour)[meter])
        #expect(hours.count == 2)
        #expect(hours[0] == DeviceStatistic(start: at(0), end: at(3600), count: 3, mean: 12, min: 10, max: 14, sum: 36, change: 2))
        #expect(hours[1] == DeviceStatistic(start: at(3600), end: at(7200), count: 2, mean: 17, min: 15, max: 19, sum: 34, change: 7))
        let day = try #require(try await store.statistics(devices: [meter], from: at(0), to: at(86_400), period: .day)[meter])
        #expect(day == [DeviceStatistic(start: at(0), end: at(86_400), count: 5, mean: 14, min: 10, max: 19, sum: 70, change: 9)])
    }

    @Test("the energy balance adds counters' increase and integrated power, consumed against generated", arguments: HomeBackend.allCases)
    func energyBalance(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [
            DevicePlan(name: "Meter", kind: .energy, position: .init(x: 0, y: 0)),
            DevicePlan(name: "PV", kind: .powerGeneration, position: .init(x: 0, y: 0)),
        ])
        let meter = flat.devices[0].id, pv = flat.devices[1].id
        try await store.record([
            StateEvent(device: meter, value: 1000, time: at(0)), StateEvent(device: meter, value: 4600, time: at(3000)),
            StateEvent(device: meter, value: 8200, time: at(3600 + 600)),
            // 100 W for 30 min, then 200 W for the 30 min up to the end of the hour and on into the next (held at most an hour).
            StateEvent(device: pv, value: 100, time: at(0)), StateEvent(device: pv, value: 200, time: at(1800)),
        ])
        let balance = try await store.energyBalance(flat: flat.id, from: at(0), to: at(7200), period: .hour)
        #expect(balance.count == 2)
        #expect(balance[0].consumed == 3600, "4600 − 1000 J")
        #expect(balance[1].consumed == 3600, "8200 − 4600 J")
        #expect(balance[0].generated == 100 * 1800 + 200 * 1800)
        #expect(balance[1].generated == 200 * 1800, "held an hour after the reading at 30 min")
    }

    @Test("occupancy follows motion into another room; last activity ignores meters and sensors clearing", arguments: HomeBackend.allCases)
    func occupancyAndActivity(_ backend: HomeBackend) async throws {
        let store = try await backend.store()
        let square = [PlanPoint(x: 0, y: 0), PlanPoint(x: 1, y: 0), PlanPoint(x: 1, y: 1)]
        let flat = try await store.createFlat(FlatPlan(name: "F", rooms: [
            RoomPlan(name: "Kitchen", type: .kitchen, polygon: square, devices: [DevicePlan(name: "K", kind: .motion, position: .init(x: 0, y: 0))]),
            RoomPlan(name: "Hall", type: .hall, polygon: square, devices: [
                DevicePlan(name: "H", kind: .motion, position: .init(x: 0, y: 0)), DevicePlan(name: "T", kind: .temperature, position: .init(x: 0, y: 0)),
            ]),
        ]))
        let kitchen = flat.rooms[0].id, hall = flat.rooms[1].id
        let k = flat.devices[0].id, h = flat.devices[1].id, temp = flat.devices[2].id
        try await store.record([StateEvent(device: k, value: 1, time: at(10)), StateEvent(device: k, value: 0, time: at(40))])
        #expect(try await store.occupancy(flat: flat.id) == Occupancy(flat: flat.id, room: kitchen, previousRoom: nil, since: at(10)))
        try await store.record([StateEvent(device: h, value: 1, time: at(60)), StateEvent(device: temp, value: 21, time: at(500)),
                                StateEvent(device: h, value: 0, time: at(400))])
        #expect(try await store.occupancy(flat: flat.id) == Occupancy(flat: flat.id, room: hall, previousRoom: kitchen, since: at(60)))
        #expect(try await store.lastActivity(flat: flat.id) == at(60))
        #expect(try await store.activity(flat: flat.id, from: at(0), to: at(1000)).map(\.value) == [1, 0, 1, 0])
    }

    @Test("retention deletes old events and keeps their hourly statistics", arguments: HomeBackend.allCases)
    func retention(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [DevicePlan(name: "Temp", kind: .temperature, position: .init(x: 0, y: 0))])
        let temp = flat.devices[0].id
        try await store.record([StateEvent(device: temp, value: 20, time: at(0)), StateEvent(device: temp, value: 22, time: at(90_000))])
        #expect(try await store.deleteEvents(before: at(86_400)) == 1)
        #expect(try await store.history(device: temp, from: at(0), to: at(100_000), limit: nil).map(\.value) == [22])
        #expect(try await store.statistics(devices: [temp], from: at(0), to: at(100_000), period: .hour)[temp]?.count == 2)
    }

    @Test("messages: one open per key, confirmation once, information expires, silent is only logged", arguments: HomeBackend.allCases)
    func messageLifeCycle(_ backend: HomeBackend) async throws {
        let (store, flat) = try await storeWithFlat(backend, [])
        let alarm = HomeMessageDraft(flat: flat.id, severity: .alarm, title: "Smoke", text: "in the kitchen", key: "smoke:1")
        let (first, isNew) = try await store.raise(alarm, at: at(0))
        #expect(isNew && first.state == .open && first.expiresAt == nil && first.notice == alarm.notice)
        let (again, againNew) = try await store.raise(alarm, at: at(10))
        #expect(!againNew && again.id == first.id)
        let confirmed = try await store.confirm(message: first.id, by: "nurse1", at: at(20))
        #expect(confirmed.state == .confirmed && confirmed.confirmedBy == "nurse1" && confirmed.confirmedAt == at(20))
        await #expect(throws: HomeError.self) { _ = try await store.confirm(message: first.id, by: "nurse2", at: at(30)) }
        #expect(try await store.raise(alarm, at: at(40)).isNew, "after confirmation the key is free again")
        let info = try await store.raise(HomeMessageDraft(flat: flat.id, severity: .information, title: "Up", text: "awake", key: "up"), at: at(0)).message
        #expect(info.expiresAt == at(900))
        #expect(try await store.expireMessages(at: at(899)).isEmpty)
        #expect(try await store.expireMessages(at: at(900)).map(\.id) == [info.id])
        let silent = try await store.raise(HomeMessageDraft(flat: flat.id, severity: .silent, title: "Temp", text: "changed", key: "t"), at: at(0)).message
        #expect(silent.state == .logged)
        #expect(try await store.messages(flat: flat.id, states: [.open], from: nil, to: nil).count == 1)
        await #expect(throws: HomeError.unknownMessage(777)) { _ = try await store.message(777) }
    }

    @Test("a reopened store keeps flats, history and open alarms", arguments: HomeBackend.allCases)
    func restart(_ backend: HomeBackend) async throws {
        let place = try await backend.place()
        defer { backend.remove(place) }
        var store: (any HomeStore)? = try await backend.store(at: place)
        let flat = try await store!.createFlat(FlatPlan(name: "Kept", rooms: [
            RoomPlan(name: "R", type: .other, polygon: [.init(x: 0, y: 0), .init(x: 1, y: 0), .init(x: 1, y: 1)],
                     devices: [DevicePlan(name: "Fall", kind: .fall, position: .init(x: 0, y: 0))]),
        ]))
        try await store!.record([StateEvent(device: flat.devices[0].id, value: 1, time: at(5))])
        _ = try await store!.raise(HomeMessageDraft(flat: flat.id, severity: .alarm, title: "Fall", text: "!", key: "fall"), at: at(6))
        store = nil
        let reopened = try await backend.store(at: place)
        #expect(try await reopened.flat(flat.id) == flat)
        #expect(try await reopened.history(device: flat.devices[0].id, from: at(0), to: at(10), limit: nil).count == 1)
        #expect(try await reopened.messages(flat: flat.id, states: [.open], from: nil, to: nil).map(\.title) == ["Fall"])
        try await reopened.record([StateEvent(device: flat.devices[0].id, value: 0, time: at(7))])  // devices known after reopening
    }
}
