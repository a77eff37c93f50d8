import Foundation
import SADECore

/// A simulated day in the life of an older person living alone, as the flat's sensors see
/// it: sleep with night toilet trips, a morning in the bathroom and kitchen (kettle,
/// fridge, pills), meals, afternoons in the living room, sometimes going out or a
/// visitor; noisy motion sensors that re-trigger while someone is there and now and then
/// by themselves; temperatures, mains voltage, brightness, house power and a PV
/// generator with their energy counters; batteries that drain.
///
/// Each day is made from `seed` and the day's number alone, so any range gives the same
/// events for the same days. With `quietMorningAfter`, from that day on the resident stays
/// in bed until noon: the morning a carer must hear about.
public struct ResidentRoutine: Sendable {
    /// The flat whose devices report (found by their object ids; missing ones are skipped).
    public let flat: Flat
    /// The seed of every day.
    public let seed: UInt64
    /// From the day holding this date, mornings are quiet.
    public let quietMorningAfter: Date?
    /// Days a battery lasts (at least 1).
    public let batteryDrainDays: Double
    private let devices: [String: Device]

    /// A routine for `flat`.
    public init(flat: Flat, seed: UInt64, quietMorningAfter: Date? = nil, batteryDrainDays: Double = 120) {
        self.flat = flat
        self.seed = seed
        self.quietMorningAfter = quietMorningAfter
        self.batteryDrainDays = max(1, batteryDrainDays.isFinite ? batteryDrainDays : 120)
        devices = Dictionary(flat.devices.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The events from `start` (inclusive) to `end` (exclusive), in time order.
    public func events(from start: Date, to end: Date) -> [StateEvent] {
        guard start < end else { return [] }
        let calendar = flat.calendar
        var day = calendar.startOfDay(for: start)
        var events: [StateEvent] = []
        while day < end {
            events += self.day(starting: day).filter { $0.time >= start && $0.time < end }
            day = calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
        }
        return events
    }

    /// One whole day from local midnight.
    func day(starting midnight: Date) -> [StateEvent] {
        let number = Int64((midnight.timeIntervalSince1970 / 86_400).rounded(.down))
        var day = SimulatedDay(midnight: midnight, routine: self, random: SeededRandom(seed: seed &* 0x2545_F491_4F6C_DD1D &+ UInt64(bitPattern: number)))
        let quiet = quietMorningAfter.map { midnight >= flat.calendar.startOfDay(for: $0) } ?? false
        day.live(quietMorning: quiet)
        day.meters()
        return day.events.sorted { $0.time < $1.time }
    }

    /// The device with `objectID`, if the flat has it.
    func device(_ objectID: String) -> Device? { devices[objectID] }

    /// The battery charge of `device` at `date`: each device was fitted at its own time.
    public func battery(of device: Device, at date: Date) -> Int? {
        guard device.isBatteryPowered else { return nil }
        var random = SeededRandom(seed: seed &+ UInt64(bitPattern: device.id) &* 7919)
        let fitted = random.uniform(0...(batteryDrainDays * 0.95))
        let age = fitted + date.timeIntervalSince1970 / 86_400 - 20_000  // days since a fixed day in 2024
        let left = 100 - (age.truncatingRemainder(dividingBy: batteryDrainDays) + batteryDrainDays).truncatingRemainder(dividingBy: batteryDrainDays)
            / batteryDrainDays * 100
        return Int(max(0, min(100, left.rounded())))
    }
}
