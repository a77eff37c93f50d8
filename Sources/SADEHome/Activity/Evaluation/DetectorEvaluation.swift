import Foundation

/// How detectors fared on emergencies: the time from the resident's stopping to the first
/// alarm, and the alarms on ordinary days.
public struct EmergencyFigures: Hashable, Sendable, Codable {
    /// The detector.
    public var detector: String
    /// Emergencies in the data.
    public var emergencies: Int
    /// Those without an alarm within the horizon.
    public var missed: Int
    /// Mean minutes to detect, over those detected.
    public var meanMinutes: Double?
    /// Mean minutes to detect for emergencies between 08:00 and 20:00.
    public var daytimeMeanMinutes: Double?
    /// 95th percentile of minutes to detect.
    public var p95Minutes: Double?
    /// Alarms on ordinary days.
    public var falseAlarms: Int
    /// Ordinary days watched.
    public var ordinaryDays: Int

    /// False alarms per ordinary day.
    public var falseAlarmsPerDay: Double { ordinaryDays > 0 ? Double(falseAlarms) / Double(ordinaryDays) : 0 }
}

/// How day-level detectors fared on abnormal days.
public struct AbnormalDayFigures: Hashable, Sendable, Codable {
    /// The detector.
    public var detector: String
    /// Abnormal days in the data.
    public var abnormalDays: Int
    /// Those flagged.
    public var caught: Int
    /// Ordinary days.
    public var ordinaryDays: Int
    /// Ordinary days flagged.
    public var falseAlarms: Int
    /// Caught of each kind of abnormal day: kind → (caught, days).
    public var byKind: [String: [Int]]

    /// caught / abnormal days.
    public var recall: Double { abnormalDays > 0 ? Double(caught) / Double(abnormalDays) : 0 }
    /// caught / all flagged.
    public var precision: Double { caught + falseAlarms > 0 ? Double(caught) / Double(caught + falseAlarms) : 0 }
    /// False alarms per 30 ordinary days.
    public var falseAlarmsPer30Days: Double { ordinaryDays > 0 ? 30 * Double(falseAlarms) / Double(ordinaryDays) : 0 }
}

/// The figures of one evaluation.
public struct EvaluationReport: Hashable, Sendable, Codable {
    /// Days per seed.
    public var days: Int
    /// Training days per seed.
    public var trainingDays: Int
    /// The noise.
    public var noise: Double
    /// The seeds.
    public var seeds: [UInt64]
    /// Emergencies, one row per detector.
    public var emergencies: [EmergencyFigures]
    /// Abnormal days, one row per day-level detector.
    public var abnormalDays: [AbnormalDayFigures]
}

/// Runs the detectors on synthetic residents with ground truth: the fixed 12-hour rule,
/// the thesis's HMM and our detectors, each seed's first weeks for learning and the rest
/// for scoring.
public struct DetectorEvaluation: Sendable {
    /// Days per seed.
    public var days: Int
    /// Days to learn from.
    public var trainingDays: Int
    /// The noise.
    public var noise: Double
    /// The seeds.
    public var seeds: [UInt64]
    /// How long after an emergency an alarm still counts as detecting it.
    public var horizon: TimeInterval = 24 * 3600

    /// An evaluation.
    public init(days: Int = 90, trainingDays: Int = 28, noise: Double = 0, seeds: [UInt64]) {
        self.days = days
        self.trainingDays = trainingDays
        self.noise = noise
        self.seeds = seeds
    }

    /// The figures.
    public func run() -> EvaluationReport {
        var emergencies: [String: EmergencyTally] = [:], abnormal: [String: AbnormalDayFigures] = [:]
        var order: [String] = [], dayOrder: [String] = []
        for seed in seeds {
            let data = SyntheticResident(days: days, trainingDays: trainingDays, noise: noise, seed: seed).generate()
            let events = data.activations, days = data.days
            let training = Array(days.prefix(trainingDays))
            let trainingEvents = Array(events.prefix { $0.time < (days.dropFirst(trainingDays).first?.start ?? .distantFuture) })
            let testStart = trainingEvents.count
            let silence: [any SilenceDetector] = [
                FixedSilence(calendar: data.calendar), LearnedSilence(training: trainingEvents, calendar: data.calendar),
            ]
            let dayDetectors: [any DayDetector] = [ThesisDayDetector(training: training), RoutineProfile(training: training)]
            let dataEnd = days.last?.end ?? data.start
            for detector in silence {
                if emergencies[detector.name] == nil { order.append(detector.name) }
                let alarms = Self.alarms(detector, events: events, from: testStart, end: dataEnd)
                emergencies[detector.name, default: EmergencyTally()].add(alarms: alarms.map(\.time), data: data, days: days, horizon: horizon, from: trainingDays)
            }
            for detector in dayDetectors {
                let name = "\(detector.name), nightly"
                if emergencies[name] == nil { order.append(name) }
                if abnormal[detector.name] == nil { dayOrder.append(detector.name) }
                let verdicts = days.indices.map { $0 < trainingDays ? nil : detector.judge(days[$0]) }
                // A flagged day raises its alarm at the nightly review, at the day's end.
                let alarms = days.indices.compactMap { verdicts[$0]?.isNormal == false ? days[$0].end : nil }
                emergencies[name, default: EmergencyTally()].add(alarms: alarms, data: data, days: days, horizon: horizon, from: trainingDays)
                var figures = abnormal[detector.name] ?? AbnormalDayFigures(detector: detector.name, abnormalDays: 0, caught: 0, ordinaryDays: 0, falseAlarms: 0, byKind: [:])
                for (index, truth) in data.truth.enumerated() where index >= trainingDays {
                    let flagged = verdicts[index]?.isNormal == false
                    if truth.isAbnormal {
                        figures.abnormalDays += 1
                        if flagged { figures.caught += 1 }
                        var kind = figures.byKind[truth.kind.rawValue] ?? [0, 0]
                        kind[0] += flagged ? 1 : 0
                        kind[1] += 1
                        figures.byKind[truth.kind.rawValue] = kind
                    } else if truth.isOrdinary {
                        figures.ordinaryDays += 1
                        if flagged { figures.falseAlarms += 1 }
                    }
                }
                abnormal[detector.name] = figures
            }
        }
        return EvaluationReport(
            days: days, trainingDays: trainingDays, noise: noise, seeds: seeds,
            emergencies: order.compactMap { name in emergencies[name]?.figures(name) },
            abnormalDays: dayOrder.compactMap { abnormal[$0] })
    }

    /// The alarms `detector` raises on `events` from index `start` on, shown the
    /// activations of the last ``LearnedSilence/memory`` each time: each activation's
    /// alarm fires if no activation comes before it (one per quiet).
    public static func alarms(_ detector: any SilenceDetector, events: [ActivityEvent], from start: Int, end: Date) -> [SilenceAlarm] {
        detector.alarms(in: events, from: start, end: end)
    }
}

/// Adds up a detector's emergencies and false alarms over seeds.
struct EmergencyTally {
    var minutes: [Double] = []
    var daytime: [Double] = []
    var emergencies = 0
    var falseAlarms = 0
    var ordinaryDays = 0

    mutating func add(alarms: [Date], data: SyntheticData, days: [ActivityDay], horizon: TimeInterval, from first: Int) {
        var episodes: [DateInterval] = []
        for (index, truth) in data.truth.enumerated() where index >= first {
            if truth.isOrdinary { ordinaryDays += 1 }
            guard let stop = truth.emergency else { continue }
            emergencies += 1
            // The resident is away in hospital until the end of the next day.
            episodes.append(DateInterval(start: stop, end: days[min(index + 1, days.count - 1)].end))
            if let alarm = alarms.first(where: { $0 >= stop }), alarm.timeIntervalSince(stop) <= horizon {
                minutes.append(alarm.timeIntervalSince(stop) / 60)
                let hour = data.calendar.component(.hour, from: stop)
                if (8..<20).contains(hour) { daytime.append(alarm.timeIntervalSince(stop) / 60) }
            }
        }
        for alarm in alarms where !episodes.contains(where: { $0.contains(alarm) }) {
            let index = days.lastIndex { $0.start < alarm } ?? 0  // a nightly review's alarm at midnight is the day's
            if index >= first, data.truth[index].isOrdinary { falseAlarms += 1 }
        }
    }

    func figures(_ name: String) -> EmergencyFigures {
        let sorted = minutes.sorted()
        return EmergencyFigures(
            detector: name, emergencies: emergencies, missed: emergencies - minutes.count,
            meanMinutes: minutes.isEmpty ? nil : minutes.reduce(0, +) / Double(minutes.count),
            daytimeMeanMinutes: daytime.isEmpty ? nil : daytime.reduce(0, +) / Double(daytime.count),
            p95Minutes: sorted.isEmpty ? nil : sorted[max(0, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)],
            falseAlarms: falseAlarms, ordinaryDays: ordinaryDays)
    }
}
