import Foundation
import SADEHome
import SADEHomeSQLite
import SADETestTiming
import Testing

@Suite("The simulated resident's routine", .timeLimit(.minutes(5)), .timed)
struct ResidentRoutineTests {
    static let monday = Date(timeIntervalSince1970: 1_772_409_600)  // 2 March 2026, 00:00 UTC

    static func flat() async throws -> (SQLiteHomeStore, Flat) {
        let store = try SQLiteHomeStore(path: nil)
        return (store, try await store.createFlat(.demoFlat(name: "Demo", resident: "p-1", carers: ["nurse1"])))
    }

    static func activity(_ events: [StateEvent], in flat: Flat) -> [StateEvent] {
        events.filter { event in flat.device(event.device)?.kind.isResidentActivity == true && event.isOn }
    }

    @Test("the same seed makes the same days, whatever range is asked for")
    func deterministic() async throws {
        let (_, flat) = try await Self.flat()
        let routine = ResidentRoutine(flat: flat, seed: 9)
        let whole = routine.events(from: Self.monday, to: Self.monday.addingTimeInterval(2 * 86_400))
        let halves = routine.events(from: Self.monday, to: Self.monday.addingTimeInterval(30_000))
            + routine.events(from: Self.monday.addingTimeInterval(30_000), to: Self.monday.addingTimeInterval(2 * 86_400))
        #expect(whole == halves)
        #expect(whole == ResidentRoutine(flat: flat, seed: 9).events(from: Self.monday, to: Self.monday.addingTimeInterval(2 * 86_400)))
        #expect(whole != ResidentRoutine(flat: flat, seed: 10).events(from: Self.monday, to: Self.monday.addingTimeInterval(2 * 86_400)))
        #expect(zip(whole, whole.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("a normal day: up between 06:30 and 07:40, active in the morning window, asleep at 03:00 bar toilet trips")
    func normalDay() async throws {
        let (_, flat) = try await Self.flat()
        for seed in UInt64(1)...20 {
            let events = ResidentRoutine(flat: flat, seed: seed).events(from: Self.monday, to: Self.monday.addingTimeInterval(86_400))
            let active = Self.activity(events, in: flat)
            #expect(active.contains { $0.time >= Self.monday.addingTimeInterval(7 * 3600) && $0.time < Self.monday.addingTimeInterval(10 * 3600) },
                    "seed \(seed): activity between 07:00 and 10:00")
            let night = active.filter { $0.time > Self.monday.addingTimeInterval(1800) && $0.time < Self.monday.addingTimeInterval(6 * 3600) }
            #expect(night.count <= 60, "seed \(seed): at most a few toilet trips at night, got \(night.count) activations")
            let bedroom = try #require(flat.device(entityID: "binary_sensor.bedroom_motion")?.id)
            let wake = try #require(active.first { $0.device == bedroom && $0.time > Self.monday.addingTimeInterval(6 * 3600) }?.time)
            #expect(wake > Self.monday.addingTimeInterval(6.5 * 3600) && wake < Self.monday.addingTimeInterval(7.7 * 3600), "seed \(seed): woke at \(wake)")
        }
    }

    @Test("a quiet morning: from the given day no activity between waking time and 11:00")
    func quietMorning() async throws {
        let (_, flat) = try await Self.flat()
        let tuesday = Self.monday.addingTimeInterval(86_400)
        let routine = ResidentRoutine(flat: flat, seed: 38, quietMorningAfter: tuesday.addingTimeInterval(3600))
        let monday = Self.activity(routine.events(from: Self.monday.addingTimeInterval(6 * 3600), to: Self.monday.addingTimeInterval(11 * 3600)), in: flat)
        let quiet = Self.activity(routine.events(from: tuesday.addingTimeInterval(6 * 3600), to: tuesday.addingTimeInterval(11 * 3600)), in: flat)
        #expect(!monday.isEmpty, "Monday morning as usual")
        #expect(quiet.isEmpty, "Tuesday: \(quiet.count) activations before 11:00")
        let afternoon = Self.activity(routine.events(from: tuesday.addingTimeInterval(12 * 3600), to: tuesday.addingTimeInterval(13 * 3600)), in: flat)
        #expect(!afternoon.isEmpty, "up by about noon")
    }

    @Test("energy counters only grow, across midnight too; batteries drain; PV generates by day only")
    func meters() async throws {
        let (store, flat) = try await Self.flat()
        let routine = ResidentRoutine(flat: flat, seed: 3)
        let events = routine.events(from: Self.monday, to: Self.monday.addingTimeInterval(3 * 86_400))
        for counter in ["sensor.house_energy", "sensor.pv_energy"] {
            let id = try #require(flat.device(entityID: counter)?.id)
            let values = events.filter { $0.device == id }.map(\.value)
            #expect(values.count == 3 * 96)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1 }, "\(counter) never goes down")
        }
        let pv = try #require(flat.device(entityID: "sensor.pv_power")?.id)
        let night = events.filter { $0.device == pv && flat.calendar.component(.hour, from: $0.time) < 6 }
        #expect(night.allSatisfy { $0.value == 0 })
        #expect(events.contains { $0.device == pv && $0.value > 100 }, "the sun shines some of the day")
        let motion = try #require(flat.device(entityID: "binary_sensor.kitchen_motion"))
        let charge = { (day: Double) in routine.battery(of: motion, at: Self.monday.addingTimeInterval(day * 86_400)) ?? -1 }
        #expect(charge(0) > charge(10) || charge(10) > charge(0) + 80, "drains, or was replaced when empty")
        try await HomeSimulation.seedHistory(store: store, flat: flat, routine: routine, from: Self.monday, to: Self.monday.addingTimeInterval(3 * 86_400))
        let balance = try await store.energyBalance(flat: flat.id, from: Self.monday, to: Self.monday.addingTimeInterval(3 * 86_400), period: .day)
        #expect(balance.count == 3 && balance.allSatisfy { $0.consumed > 2e7 && $0.consumed < 4e7 && $0.generated > 0 }, "\(balance)")
    }
}

extension ResidentRoutineTests {
    @Test("days before the counters' first day are made too, with counters still growing; a nonsensical drain is clamped")
    func oldDaysAndDrain() async throws {
        let (_, flat) = try await Self.flat()
        let day2020 = Date(timeIntervalSince1970: 1_590_000_000 - 1_590_000_000.truncatingRemainder(dividingBy: 86_400))
        let routine = ResidentRoutine(flat: flat, seed: 5, batteryDrainDays: -3)
        let events = routine.events(from: day2020, to: day2020.addingTimeInterval(2 * 86_400))
        #expect(!events.isEmpty)
        let counter = try #require(flat.device(entityID: "sensor.pv_energy")?.id)
        let values = events.filter { $0.device == counter }.map(\.value)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 + 1 }, "the PV counter never goes down")
        #expect(routine.batteryDrainDays == 1)
    }

    @Test("over many seeds, a quiet morning has no activity at all before 11:00, and every motion that fires clears")
    func quietMorningsAreQuiet() async throws {
        let (_, flat) = try await Self.flat()
        let tuesday = Self.monday.addingTimeInterval(86_400)
        for seed in UInt64(1)...150 {
            let routine = ResidentRoutine(flat: flat, seed: seed, quietMorningAfter: tuesday)
            let morning = Self.activity(routine.events(from: tuesday.addingTimeInterval(7.5 * 3600), to: tuesday.addingTimeInterval(11 * 3600)), in: flat)
            #expect(morning.isEmpty, "seed \(seed): \(morning.count) activations")
            let day = routine.events(from: Self.monday, to: Self.monday.addingTimeInterval(86_400))
            for device in flat.devices where device.kind == .motion {
                let values = day.filter { $0.device == device.id }.map(\.value)
                #expect(values.last != 1, "seed \(seed): \(device.objectID) stays on")
            }
        }
    }
}
