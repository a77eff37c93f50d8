import Foundation
import SADECore

/// A seeded generator of a resident's life in ``SyntheticFlat``, in CASAS format, with the
/// ground truth of each day: weekday and weekend routines, night toilet trips, naps,
/// outings, visitors (two people moving), days away; after the training weeks also
/// abnormal days (stayed in bed, skipped meals, night wandering) and emergencies (the
/// resident stops moving at a random moment while up). Noise drops a share of the
/// readings and adds as many spurious motions.
public struct SyntheticResident: Sendable {
    /// How many days.
    public var days: Int
    /// The first days, with ordinary days only, that detectors learn from.
    public var trainingDays: Int
    /// The share of readings dropped, and of spurious motions added (0.05 = 5 %).
    public var noise: Double
    /// The seed: the same seed gives the same data on every machine.
    public var seed: UInt64
    /// The first day's midnight (a Monday).
    public var start: Date
    /// The flat's calendar (UTC).
    public var calendar: Calendar

    /// The chance that a day after the training weeks is an emergency.
    public static let emergencyChance = 0.07
    /// The chance that such a day is abnormal.
    public static let abnormalChance = 0.10

    /// A generator; the data begins on Monday 5 January 2026.
    public init(days: Int = 90, trainingDays: Int = 28, noise: Double = 0, seed: UInt64 = 1) {
        self.days = days
        self.trainingDays = trainingDays
        self.noise = noise
        self.seed = seed
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        self.calendar = calendar
        self.start = calendar.date(from: DateComponents(year: 2026, month: 1, day: 5)) ?? Date(timeIntervalSince1970: 1_767_571_200)
    }

    /// The data.
    public func generate() -> SyntheticData {
        var random = SeededRandom(seed: seed)
        var lines: [CASASLine] = [], truth: [TruthDay] = []
        var awayUntilTomorrow = false, afterEmergency = false
        for index in 0..<days {
            let midnight = calendar.date(byAdding: .day, value: index, to: start) ?? start
            let weekday = calendar.component(.weekday, from: midnight), weekend = weekday == 1 || weekday == 7
            let training = index < trainingDays
            let daySeed = random.next()
            var day = DayPlan(random: SeededRandom(seed: daySeed), weekend: weekend)
            var sensors = SeededRandom(seed: daySeed ^ 0xD1B5_4A32_D192_ED03)  // noise apart, so it leaves the days as they were
            var kind = TruthDay.Kind.normal
            var emergency: Date?
            if afterEmergency {
                kind = .afterEmergency
                afterEmergency = false
            } else if awayUntilTomorrow {
                kind = .away
                awayUntilTomorrow = false
                day.returning()
            } else {
                let draw = random.uniform(0...1)
                if !training, draw < Self.emergencyChance, index + 1 < days {
                    kind = .emergency
                } else if !training, draw < Self.emergencyChance + Self.abnormalChance {
                    kind = [.stayedInBed, .skippedMeals, .nightWandering][Int(random.uniform(0...2.999))]
                } else if random.chance(0.04), index + 1 < days {
                    kind = .away
                    awayUntilTomorrow = true
                } else if random.chance(weekend ? 0.25 : 0.1) {
                    kind = .visitor
                }
                day.live(kind)
                if kind == .emergency, let minute = day.emergencyMinute() {
                    day.stopAt(minute)
                    emergency = midnight.addingTimeInterval(minute * 60)
                    afterEmergency = true
                }
            }
            var readings = day.readings
            if noise > 0 { readings = SyntheticNoise(share: noise).apply(readings, random: &sensors) }
            readings += day.temperatures(random: &sensors)
            readings.sort { $0.minute < $1.minute }
            for reading in readings {
                lines.append(CASASLine(line: lines.count + 1, time: midnight.addingTimeInterval(reading.minute * 60), sensor: reading.sensor, value: reading.value))
            }
            let parts = calendar.dateComponents([.year, .month, .day], from: midnight)
            truth.append(TruthDay(
                label: String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0), kind: kind, emergency: emergency,
                isTraining: training))
        }
        return SyntheticData(lines: lines, truth: truth, start: start, calendar: calendar)
    }
}

/// Generated data: the CASAS lines and the truth of each day.
public struct SyntheticData: Sendable {
    /// The readings, oldest first.
    public var lines: [CASASLine]
    /// Each day's truth, in order.
    public var truth: [TruthDay]
    /// The first day's midnight.
    public var start: Date
    /// The calendar the days are cut in.
    public var calendar: Calendar

    /// The resident's activations.
    public var activations: [ActivityEvent] { ActivityEvent.activations(lines, map: SyntheticFlat.map, roomTypes: SyntheticFlat.roomTypes) }

    /// The days, cut in the flat's calendar.
    public var days: [ActivityDay] {
        let end = calendar.date(byAdding: .day, value: truth.count - 1, to: start) ?? start
        return ActivityDay.days(activations, from: start, to: end, calendar: calendar)
    }

    /// The data as a CASAS file.
    public func casas() -> String {
        var text = "# Synthetic resident, \(truth.count) days; see the ground truth alongside.\n"
        text.reserveCapacity(lines.count * 40)
        for line in lines {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: line.time)
            let value = line.sensor.hasPrefix("M") ? (line.value >= 0.5 ? "ON" : "OFF")
                : line.sensor.hasPrefix("D") ? (line.value >= 0.5 ? "OPEN" : "CLOSE") : String(format: "%.1f", line.value)
            text += String(
                format: "%04d-%02d-%02d %02d:%02d:%02d.%06d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
                parts.minute ?? 0, parts.second ?? 0, (parts.nanosecond ?? 0) / 1000)
            text += line.sensor + " " + value + "\n"
        }
        return text
    }
}

/// Sensor noise: a share of the readings lost, and as many spurious motions added at random times.
struct SyntheticNoise {
    let share: Double

    func apply(_ readings: [DayScript.Reading], random: inout SeededRandom) -> [DayScript.Reading] {
        var kept = readings.filter { _ in !random.chance(share) }
        let spurious = Int((Double(readings.filter { $0.value >= 0.5 }.count) * share).rounded())
        let sensors = SyntheticFlat.motion.values.flatMap { $0 }.sorted()
        for _ in 0..<spurious {
            let minute = random.uniform(0...1438), sensor = sensors[Int(random.uniform(0...Double(sensors.count) - 0.001))]
            kept.append(DayScript.Reading(minute: minute, sensor: sensor, value: 1))
            kept.append(DayScript.Reading(minute: minute + 0.5, sensor: sensor, value: 0))
        }
        return kept
    }
}
