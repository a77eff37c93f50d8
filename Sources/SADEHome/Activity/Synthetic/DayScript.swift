import Foundation
import SADECore

/// How busy someone is in a room, which sets how often its motion sensor fires.
enum Pace {
    /// Cooking, washing: every ½–3 minutes.
    case busy
    /// Moving about: every 3–10 minutes.
    case calm
    /// Sitting, reading: now and then (15 minutes on average).
    case still
    /// In bed: a turn now and then.
    case asleep
}

/// One person's day, written as where they are from minute to minute, turned into the
/// sensor readings that day would give: each motion sensor fires (ON, then OFF about a
/// minute later) as the pace in its room says, passing through the hall between rooms.
struct DayScript {
    /// A reading, in minutes after the day's midnight.
    struct Reading {
        var minute: Double
        var sensor: String
        var value: Double
    }

    var random: SeededRandom
    var room: String
    var minute: Double = 0
    var readings: [Reading] = []
    var isHome = true
    /// Minutes at home (start, end) in which an emergency may strike: not asleep.
    var awake: [(Double, Double)] = []

    init(random: SeededRandom, room: String = "Bedroom", isHome: Bool = true) {
        self.random = random
        self.room = room
        self.isHome = isHome
    }

    /// Stays in `room` (walking there through the hall) until `minutes` have passed.
    mutating func stay(_ target: String, for minutes: Double, _ pace: Pace) {
        move(to: target)
        until(minute + minutes, pace)
    }

    /// Stays in the current room until minute `end`.
    mutating func until(_ end: Double, _ pace: Pace) {
        let end = min(end, 1440)
        guard end > minute else { return }
        if pace != .asleep { awake.append((minute, end)) }
        var time = minute
        if pace == .asleep {
            time += random.exponential(mean: 150)
        }
        while time < end {
            fire(SyntheticFlat.motion[room]?.randomElement(using: &random) ?? "M001", at: time)
            if room == "Kitchen", pace == .busy, random.chance(0.12) { door(SyntheticFlat.fridge, at: time + 0.3) }
            switch pace {
            case .busy: time += random.uniform(0.5...3)
            case .calm: time += random.uniform(3...10)
            case .still: time += min(random.exponential(mean: 15), 50)
            case .asleep: time += random.exponential(mean: 150)
            }
        }
        minute = end
    }

    /// Walks to `target` through the hall.
    mutating func move(to target: String) {
        guard target != room else { return }
        if room != "Hall", target != "Hall" {
            fire("M001", at: minute)
            minute += random.uniform(0.3...0.7)
        }
        room = target
        fire(SyntheticFlat.motion[room]?.first ?? "M001", at: minute)
        minute += 0.2
    }

    /// Leaves the flat by the entrance door; back at minute `back` (or away for the rest of the day).
    mutating func goOut(until back: Double?) {
        move(to: "Hall")
        minute += random.uniform(0.5...2)
        door(SyntheticFlat.entrance, at: minute)
        isHome = false
        guard let back, back < 1440 else {
            minute = 1440
            return
        }
        minute = max(back, minute + 1)
        comeHome()
    }

    /// Comes back in by the entrance door.
    mutating func comeHome() {
        door(SyntheticFlat.entrance, at: minute)
        isHome = true
        room = "Hall"
        fire("M001", at: minute + 0.2)
        minute += random.uniform(1...3)
    }

    /// A night-time trip to the toilet from bed.
    mutating func toiletTrip(at start: Double) {
        guard start > minute else { return }
        fire("M005", at: start)
        minute = start + random.uniform(0.3...1)
        stay("Bathroom", for: random.uniform(3...6), .busy)
        stay("Bedroom", for: 1, .calm)
    }

    mutating func fire(_ sensor: String, at time: Double) {
        guard time >= 0, time < 1440 else { return }
        readings.append(Reading(minute: time, sensor: sensor, value: 1))
        readings.append(Reading(minute: min(time + random.uniform(0.3...1.5), 1439.99), sensor: sensor, value: 0))
    }

    mutating func door(_ sensor: String, at time: Double) {
        guard time >= 0, time < 1440 else { return }
        readings.append(Reading(minute: time, sensor: sensor, value: 1))
        readings.append(Reading(minute: min(time + random.uniform(0.1...0.5), 1439.99), sensor: sensor, value: 0))
    }
}

extension SeededRandom {
    /// A draw of an exponential distribution with `mean`.
    mutating func exponential(mean: Double) -> Double { -mean * Foundation.log(1 - uniform(0...0.999_999)) }

    /// A draw of a normal distribution (Box–Muller).
    mutating func normal(mean: Double, deviation: Double) -> Double {
        let u = uniform(0.000_001...1), v = uniform(0...1)
        return mean + deviation * (-2 * Foundation.log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
