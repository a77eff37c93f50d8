import Foundation
import SADECore

/// The events of one simulated day, built up activity by activity.
struct SimulatedDay {
    let midnight: Date
    let routine: ResidentRoutine
    var random: SeededRandom
    var events: [StateEvent] = []

    init(midnight: Date, routine: ResidentRoutine, random: SeededRandom) {
        self.midnight = midnight
        self.routine = routine
        self.random = random
    }

    /// The date `minutes` after midnight.
    func at(_ minutes: Double) -> Date { midnight.addingTimeInterval(minutes * 60) }

    mutating func emit(_ objectID: String, _ value: Double, at minutes: Double) {
        guard let device = routine.device(objectID), minutes >= 0, minutes < 1440 else { return }
        let time = at(minutes)
        events.append(StateEvent(device: device.id, value: value, battery: routine.battery(of: device, at: time), time: time))
    }

    /// Someone in `room` from `start` to `end` (minutes): its motion sensor fires, re-fires
    /// every 2–5 minutes and clears half a minute after each.
    mutating func presence(_ room: String, _ start: Double, _ end: Double) {
        var time = start
        while time < end {
            emit("\(room)_motion", 1, at: time)
            emit("\(room)_motion", 0, at: time + 0.5)
            time += random.uniform(2...5)
        }
    }

    /// A walk through rooms, a minute in each.
    mutating func walk(_ rooms: [String], from start: Double) -> Double {
        var time = start
        for room in rooms {
            presence(room, time, time + 1)
            time += 1
        }
        return time
    }

    mutating func toiletTrip(at start: Double, from room: String) -> Double {
        var time = walk([room, "hall"], from: start)
        presence("bathroom", time, time + 4)
        emit("toilet_flush", 1, at: time + 3)
        emit("toilet_flush", 0, at: time + 3.5)
        time = walk(["hall"], from: time + 4)
        return time
    }

    /// The resident's day; with `quietMorning` they stay in bed until about noon.
    mutating func live(quietMorning: Bool) {
        let wake = quietMorning ? random.uniform(715...735) : random.uniform(395...455)
        let bed = random.uniform(1320...1380)
        // The night before: toilet trips.
        let trips = Int(random.uniform(0...2.4))
        for trip in 0..<trips { _ = toiletTrip(at: random.uniform(60...300) + Double(trip) * 60, from: "bedroom") }
        emit("bed_mat", random.chance(0.03) ? 1 : 0, at: wake - 1)
        // Morning.
        presence("bedroom", wake, wake + 8)
        emit("bedroom_shades", 80, at: wake + 2)
        emit("bedroom_window", 1, at: wake + 5)
        emit("bedroom_window", 0, at: wake + random.uniform(25...45))
        var time = toiletTrip(at: wake + 8, from: "bedroom")
        presence("bathroom", time, time + 15)
        time = walk(["hall"], from: time + 15)
        presence("kitchen", time, time + 30)
        emit("kettle", 1, at: time + 3)
        emit("kettle", 0, at: time + 6)
        emit("fridge_door", 1, at: time + 8)
        emit("fridge_door", 0, at: time + 9)
        emit("pill_dispenser", 1, at: time + 20)
        emit("pill_dispenser", 0, at: time + 20.5)
        time += 30
        // Going out some days.
        if !quietMorning, random.chance(0.4) {
            let leave = max(time + 10, random.uniform(560...660))
            presence("living", time, leave - 2)
            time = walk(["hall"], from: leave - 2)
            emit("entrance_door", 1, at: time)
            emit("entrance_door", 0, at: time + 0.3)
            emit("property_exit", 1, at: time + 0.5)
            let back = time + random.uniform(60...180)
            emit("property_exit", 0, at: back)
            emit("entrance_door", 1, at: back + 0.2)
            emit("entrance_door", 0, at: back + 0.5)
            time = walk(["hall"], from: back + 0.5)
        }
        let lunch = max(time + 5, random.uniform(735...780))
        presence("living", time, lunch)
        presence("kitchen", lunch, lunch + 40)
        emit("fridge_door", 1, at: lunch + 5)
        emit("fridge_door", 0, at: lunch + 6)
        time = toiletTrip(at: lunch + 40, from: "kitchen")
        // Afternoon in the living room; a visitor some days.
        let dinner = random.uniform(1090...1140)
        presence("living", time, dinner)
        emit("hall_switch", 1, at: time + 1)
        emit("hall_switch", 0, at: time + 1.2)
        emit("desk_lamp", 1, at: random.uniform(960...1000))
        if random.chance(0.2) {
            let visit = random.uniform(900...960)
            emit("entrance_door", 1, at: visit)
            emit("entrance_door", 0, at: visit + 0.3)
            presence("hall", visit, visit + 2)
            presence("living", visit, visit + 60)
        }
        presence("kitchen", dinner, dinner + 45)
        emit("kettle", 1, at: dinner + 10)
        emit("kettle", 0, at: dinner + 13)
        emit("pill_dispenser", 1, at: dinner + 40)
        emit("pill_dispenser", 0, at: dinner + 40.5)
        presence("living", dinner + 45, bed - 20)
        emit("hall_dimmer", 60, at: bed - 22)
        emit("desk_lamp", 0, at: bed - 20)
        time = toiletTrip(at: bed - 20, from: "living")
        presence("bathroom", time, time + 8)
        emit("hall_dimmer", 0, at: time + 9)
        presence("bedroom", time + 9, bed)
        emit("bedroom_shades", 0, at: bed - 2)
        // A motion sensor now and then fires by itself while the resident is up (never in a quiet morning).
        if random.chance(0.5) {
            let sensor = ["kitchen_motion", "hall_motion", "living_motion"][Int(random.uniform(0...2.99))]
            let time = random.uniform(max(wake, quietMorning ? 720 : 0)...(bed - 30))
            emit(sensor, 1, at: time)
            emit(sensor, 0, at: time + 0.5)
        }
    }

    /// The meters: temperatures, voltage and brightness every 30 minutes; house power
    /// (base load and appliances) and PV power every 5; energy counters every 15, equal to
    /// the power integrated since a fixed day in 2023, so they only ever grow.
    mutating func meters() {
        let dayNumber = Int((midnight.timeIntervalSince1970 / 86_400).rounded(.down))
        let cloudy = Self.cloudiness(day: dayNumber, seed: routine.seed)
        var consumed = Double(dayNumber - Self.firstDay) * Self.dailyConsumption
        // What the days since (or, before it, minus the days until) the counters' first day generated.
        let before = dayNumber >= Self.firstDay
            ? (Self.firstDay..<dayNumber).reduce(0.0) { $0 + Self.cloudiness(day: $1, seed: routine.seed) }
            : -(dayNumber..<Self.firstDay).reduce(0.0) { $0 + Self.cloudiness(day: $1, seed: routine.seed) }
        var generated = before * Self.clearDayGeneration
        for step in stride(from: 0.0, to: 1440, by: 5) {
            let (power, sun) = (Self.housePower(atHour: step / 60), Self.sun(atHour: step / 60))
            emit("house_power", power, at: step)
            if sun > 0 { emit("pv_power", (3000 * sun * cloudy).rounded(), at: step) }
            if Int(step) % 15 == 0 {
                emit("house_energy", consumed.rounded(), at: step)
                emit("pv_energy", generated.rounded(), at: step)
            }
            if Int(step) % 30 == 0 {
                let hour = step / 60
                let warmth = 19.5 + 2 * sin((hour - 9) / 24 * 2 * .pi)
                for room in ["kitchen", "living", "bedroom", "bathroom"] {
                    emit("\(room)_temperature", ((warmth + random.uniform(-0.3...0.3) + (room == "bathroom" ? 1 : 0)) * 10).rounded() / 10, at: step)
                }
                emit("mains_voltage", (230 + random.uniform(-3...3)).rounded(), at: step)
                emit("living_brightness", (400 * sun * cloudy).rounded(), at: step)
            }
            consumed += power * 300
            generated += 3000 * sun * cloudy * 300
        }
    }

    /// The day the energy counters started from (1 December 2023).
    static let firstDay = 19_692

    /// Watts drawn at `hour`: base load, more while awake, the cooker at dinner.
    static func housePower(atHour hour: Double) -> Double {
        150 + (hour >= 7 && hour < 22.5 ? 120 : 0) + (hour > 18 && hour < 19.5 ? 1200 : 0)
    }

    /// The sun's height, 0 at night, 1 at 13:00.
    static func sun(atHour hour: Double) -> Double { max(0, sin((hour - 7) / 12 * .pi)) }

    /// How clear day `day` is, 0.3 (overcast) to 1.
    static func cloudiness(day: Int, seed: UInt64) -> Double {
        var random = SeededRandom(seed: seed &* 31 &+ UInt64(bitPattern: Int64(day)) &* 0x9E37_79B9)
        return random.uniform(0.3...1)
    }

    /// Joules the house draws in a day.
    static let dailyConsumption = stride(from: 0.0, to: 1440, by: 5).reduce(0.0) { $0 + housePower(atHour: $1 / 60) * 300 }

    /// Joules the PV generator gives on a clear day (the counter adds the rounded readings).
    static let clearDayGeneration = stride(from: 0.0, to: 1440, by: 5).reduce(0.0) { $0 + 3000 * sun(atHour: $1 / 60) * 300 }
}
