import Foundation

/// Our day-level detector: the carers' three worries about a day, each measured in
/// windows of the day and learned apart for weekdays and weekends —
///
/// - **up and about**: activations outside the bedroom, 06:00–21:00 (stayed in bed);
/// - **meals**: activations in the kitchen around breakfast, lunch and dinner (skipped meals);
/// - **calm nights**: activations outside the bedroom and bathroom, 00:00–06:00 (wandering).
///
/// A day is unusual when one of them is far from this resident's usual (in standard
/// deviations of log counts): too little of the first two, too much of the third. Time
/// out of the flat is left out, so a day away or an afternoon out is not a quiet day,
/// and more activity by day (a visitor) is no concern. Windows overlap, so a meal an
/// hour early still counts.
public struct RoutineProfile: DayDetector {
    public let name = "routine profile (ours)"

    /// How unusual (in standard deviations) a window must be to flag the day.
    public var threshold: Double

    /// A measure of the day in a window of hours.
    struct Window: Hashable {
        var concern: Concern
        var start: Int
        var end: Int
    }

    enum Concern: String {
        case up = "outside the bedroom"
        case meals = "in the kitchen"
        case night = "outside the bedroom and bathroom at night"

        func counts(_ event: ActivityEvent) -> Bool {
            switch self {
            case .up: !event.isBedroom
            case .meals: event.roomType == .kitchen
            case .night: !event.isBedroom && event.roomType != .bathroom
            }
        }
    }

    static let windows = [
        Window(concern: .up, start: 6, end: 11), Window(concern: .up, start: 9, end: 14), Window(concern: .up, start: 12, end: 17),
        Window(concern: .up, start: 15, end: 20), Window(concern: .meals, start: 6, end: 11), Window(concern: .meals, start: 10, end: 15),
        Window(concern: .meals, start: 16, end: 21), Window(concern: .night, start: 0, end: 4), Window(concern: .night, start: 2, end: 6),
    ]

    struct Key: Hashable {
        var window: Window
        var weekend: Bool?
    }

    struct Usual {
        var mean: Double
        var deviation: Double
        var samples: Int

        /// The usual count, for carers.
        var count: Int { max(Int((Foundation.exp(mean) - 1).rounded()), 0) }
    }

    var usual: [Key: Usual] = [:]

    /// Learns from `days`; a window the resident was out for more than half of teaches nothing.
    public init(training days: [ActivityDay], threshold: Double = 3.5) {
        self.threshold = threshold
        var values: [Key: [Double]] = [:]
        for day in days {
            for (window, value) in Self.measures(of: day) {
                values[Key(window: window, weekend: day.isWeekend), default: []].append(value)
                values[Key(window: window, weekend: nil), default: []].append(value)
            }
        }
        for (key, list) in values {
            let mean = list.reduce(0, +) / Double(list.count)
            let deviation = (list.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(list.count)).squareRoot()
            usual[key] = Usual(mean: mean, deviation: deviation, samples: list.count)
        }
    }

    /// ln(1 + activations per window at home) of each window the resident was home for at least half of.
    static func measures(of day: ActivityDay) -> [(Window, Double)] {
        windows.compactMap { window in
            let start = day.start.addingTimeInterval(Double(window.start) * 3600)
            let interval = DateInterval(start: start, end: min(day.start.addingTimeInterval(Double(window.end) * 3600), day.end))
            let home = day.homeShare(of: interval)
            guard home >= 0.5 else { return nil }
            let count = day.events.filter { interval.contains($0.time) && $0.time < interval.end && window.concern.counts($0) }.count
            return (window, Foundation.log(1 + Double(count) / home))
        }
    }

    public func judge(_ day: ActivityDay) -> DayVerdict {
        var worst: (score: Double, window: Window, value: Double, usual: Usual, sameDays: Bool)?
        for (window, value) in Self.measures(of: day) {
            let specific = usual[Key(window: window, weekend: day.isWeekend)]
            let sameDays = (specific?.samples ?? 0) >= 4
            guard let usual = sameDays ? specific : usual[Key(window: window, weekend: nil)], usual.samples >= 4 else { continue }
            // By day only what usually happens can be missed; at night, any burst is a concern.
            if window.concern != .night, usual.count < 3 { continue }
            let z = (value - usual.mean) / max(usual.deviation, 0.5)
            let concern = window.concern == .night ? z : -z
            if concern > worst?.score ?? -.infinity { worst = (concern, window, value, usual, sameDays) }
        }
        guard let worst else { return DayVerdict(score: 0, isNormal: true) }
        let isNormal = worst.score < threshold
        return DayVerdict(
            score: worst.score, high: threshold, isNormal: isNormal,
            reason: isNormal ? nil : Self.reason(worst.window, worst.value, worst.usual, weekend: worst.sameDays ? day.isWeekend : nil))
    }

    static func reason(_ window: Window, _ value: Double, _ usual: Usual, weekend: Bool?) -> String {
        let count = Int((Foundation.exp(value) - 1).rounded())
        let hours = String(format: "%02d:00–%02d:00", window.start, window.end)
        let days = weekend.map { $0 ? " at weekends" : " on weekdays" } ?? ""
        switch window.concern {
        case .night: return "\(count) activations \(window.concern.rawValue), \(hours); usually \(usual.count)\(days)"
        case .up, .meals:
            return count == 0
                ? "no activity \(window.concern.rawValue) \(hours); usually \(usual.count)\(days)"
                : "little activity \(window.concern.rawValue) \(hours): \(count); usually \(usual.count)\(days)"
        }
    }
}
