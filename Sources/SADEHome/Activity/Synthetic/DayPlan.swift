import Foundation
import SADECore

/// One generated day of the resident (and a visitor), routine by routine.
struct DayPlan {
    var script: DayScript
    var visitor: DayScript?
    let weekend: Bool

    init(random: SeededRandom, weekend: Bool) {
        script = DayScript(random: random)
        self.weekend = weekend
    }

    var random: SeededRandom {
        get { script.random }
        set { script.random = newValue }
    }

    var readings: [DayScript.Reading] { script.readings + (visitor?.readings ?? []) }

    /// Lives a day of `kind` from midnight, asleep in bed.
    mutating func live(_ kind: TruthDay.Kind) {
        let wake = min(max(random.normal(mean: weekend ? 495 : 420, deviation: weekend ? 25 : 18), 330), 600)
        if kind == .nightWandering { wander() }
        night(until: wake)
        if kind == .stayedInBed {
            stayInBed()
        } else {
            morning()
            if kind == .away {
                script.goOut(until: nil)
                return
            }
            if !weekend, random.chance(0.45) { outing(at: random.uniform(560...640), for: random.uniform(50...150)) }
            day(skipMeals: kind == .skippedMeals)
        }
        evening(skipMeals: kind == .skippedMeals)
        if kind == .visitor { visit() }
    }

    /// The day after a night away: home by the door in the afternoon, then the evening.
    mutating func returning() {
        script = DayScript(random: random, room: "Hall", isHome: false)
        script.minute = random.uniform(900...1080)
        script.comeHome()
        script.stay("Living room", for: random.uniform(30...60), .calm)
        evening(skipMeals: false)
    }

    /// Asleep, with toilet trips, until `wake`.
    mutating func night(until wake: Double) {
        let trips = random.chance(0.35) ? (random.chance(0.4) ? 2 : 1) : 0
        let earliest = max(script.minute + 30, 60), latest = wake - 40
        let times = earliest < latest ? (0..<trips).map { _ in random.uniform(earliest...latest) }.sorted() : []
        for time in times where time > script.minute {
            script.until(time, .asleep)
            script.toiletTrip(at: time + 0.01)
        }
        script.until(wake, .asleep)
    }

    /// Up in the night for hours, walking between rooms, then back to bed.
    mutating func wander() {
        script.until(random.uniform(60...180), .asleep)
        let end = script.minute + random.uniform(90...180)
        while script.minute < end {
            script.stay(["Hall", "Kitchen", "Living room", "Bathroom"][Int(random.uniform(0...3.999))], for: random.uniform(4...15), .busy)
        }
        script.stay("Bedroom", for: 1, .calm)
    }

    mutating func morning() {
        script.stay("Bedroom", for: random.uniform(4...10), .calm)
        script.stay("Bathroom", for: random.uniform(12...25), .busy)
        script.stay("Kitchen", for: random.uniform(18...30), .busy)
        script.stay("Living room", for: random.uniform(20...40), .calm)
    }

    /// From mid-morning to the evening: lunch, a nap or not, an outing or not, the toilet.
    mutating func day(skipMeals: Bool) {
        let lunch = random.normal(mean: 735, deviation: 15)
        script.until(lunch - 60, .still)
        script.stay("Bathroom", for: random.uniform(3...6), .busy)
        script.stay("Living room", for: max(lunch - script.minute, 1), .still)
        if skipMeals { script.stay("Living room", for: random.uniform(25...40), .still) } else { script.stay("Kitchen", for: random.uniform(25...40), .busy) }
        if random.chance(0.3) {
            script.stay("Bedroom", for: random.uniform(40...90), .asleep)
        } else {
            script.stay("Living room", for: random.uniform(40...90), .still)
        }
        script.stay("Bathroom", for: random.uniform(3...6), .busy)
        if random.chance(weekend ? 0.35 : 0.2) { outing(at: script.minute + random.uniform(10...30), for: random.uniform(60...150)) }
    }

    /// Dinner, the evening in the living room, to bed.
    mutating func evening(skipMeals: Bool) {
        let dinner = max(random.normal(mean: 1095, deviation: 20), script.minute + 5)
        script.stay("Living room", for: max(dinner - script.minute, 1), .still)
        if skipMeals { script.stay("Living room", for: random.uniform(30...45), .still) } else { script.stay("Kitchen", for: random.uniform(30...45), .busy) }
        let bed = min(max(random.normal(mean: weekend ? 1380 : 1350, deviation: 20), script.minute + 30), 1410)
        script.stay("Living room", for: max(bed - 20 - script.minute, 1), .calm)
        script.stay("Bathroom", for: random.uniform(8...12), .busy)
        script.stay("Bedroom", for: random.uniform(4...8), .calm)
        script.until(1440, .asleep)
    }

    /// Stays in the bedroom until late afternoon, up only for the toilet.
    mutating func stayInBed() {
        let up = random.uniform(960...1140)
        while script.minute < up - 30 {
            script.stay("Bedroom", for: random.uniform(120...200), .still)
            script.stay("Bathroom", for: random.uniform(3...6), .busy)
        }
        script.stay("Bedroom", for: max(up - script.minute, 1), .still)
    }

    mutating func outing(at start: Double, for minutes: Double) {
        script.until(start, .still)
        script.goOut(until: script.minute + minutes)
    }

    /// A visitor in the afternoon: in by the door, in the living room and kitchen, out by the door.
    mutating func visit() {
        var guest = DayScript(random: SeededRandom(seed: random.next()), room: "Hall", isHome: false)
        guest.minute = guest.random.uniform(870...960)
        guest.comeHome()
        let end = guest.minute + guest.random.uniform(60...150)
        while guest.minute < end {
            guest.stay(guest.random.chance(0.7) ? "Living room" : "Kitchen", for: guest.random.uniform(10...30), .calm)
        }
        guest.goOut(until: nil)
        visitor = guest
    }

    /// A random moment at which the resident is up at home, weighted by time.
    mutating func emergencyMinute() -> Double? {
        let total = script.awake.reduce(0) { $0 + ($1.1 - $1.0) }
        guard total > 0 else { return nil }
        var point = random.uniform(0...total)
        for (start, end) in script.awake {
            if point <= end - start { return start + point }
            point -= end - start
        }
        return script.awake.last?.1
    }

    /// The resident stops moving at `minute`: nothing of theirs after it.
    mutating func stopAt(_ minute: Double) {
        script.readings.removeAll { $0.minute > minute }
        visitor = nil
    }

    /// Three temperatures every half hour, warmer by day.
    func temperatures(random: inout SeededRandom) -> [DayScript.Reading] {
        var readings: [DayScript.Reading] = []
        for slot in 0..<48 {
            for (index, (sensor, _)) in SyntheticFlat.temperatures.enumerated() {
                let minute = Double(slot * 30) + random.uniform(0...1) + Double(index) * 0.1
                let value = 19.5 + Double(index) * 0.8 + 1.5 * sin((minute / 1440 - 0.3) * 2 * .pi) + random.uniform(-0.2...0.2)
                readings.append(DayScript.Reading(minute: minute, sensor: sensor, value: (value * 10).rounded() / 10))
            }
        }
        return readings
    }
}
