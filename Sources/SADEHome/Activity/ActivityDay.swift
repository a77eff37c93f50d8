import Foundation

/// One local day of a resident's activity: its activations, and their count per hour of
/// the day (the thesis's 24 bins).
public struct ActivityDay: Hashable, Sendable {
    /// Local midnight at its start.
    public var start: Date
    /// The next local midnight (23 or 25 hours later on the days clocks change).
    public var end: Date
    /// `2026-11-24`.
    public var label: String
    /// Whether it is a Saturday or Sunday.
    public var isWeekend: Bool
    /// Its activations, oldest first.
    public var events: [ActivityEvent]
    /// Activations per hour of the local clock, 24 bins.
    public var hourly: [Int]
    /// When the resident was out (left by an exit, no activity for at least
    /// ``ActivityDay/outAfter``), clipped to the day.
    public var away: [DateInterval]

    /// The thesis's observation: an hour is active when it has at least `threshold`
    /// activations (§5.4.1 filters at 5).
    public func activeHours(threshold: Int = ActivityDay.activeThreshold) -> [Bool] { hourly.map { $0 >= threshold } }

    /// The thesis's filter: 5 activations make an hour active.
    public static let activeThreshold = 5

    /// Whether nothing happened all day.
    public var isEmpty: Bool { events.isEmpty }

    /// How long a quiet after an exit must last to count as being out.
    public static let outAfter: TimeInterval = 30 * 60

    /// The share of `interval` the resident was at home.
    public func homeShare(of interval: DateInterval) -> Double {
        let out = away.reduce(0.0) { $0 + ($1.intersection(with: interval)?.duration ?? 0) }
        return interval.duration > 0 ? max(0, 1 - out / interval.duration) : 1
    }

    /// The periods out of the flat in `events`: from an exit, through activations too
    /// sparse to be someone at home (a glitch now and then), to the next burst of
    /// activity, way out (leaving or coming home) or seat or bed pressed or released; and,
    /// before an exit followed by a burst (coming home, its leaving lost), back through
    /// sparse activations to the last of those. Only periods of
    /// at least ``outAfter`` count; the last one lasts until `end` when nobody comes back.
    public static func away(_ events: [ActivityEvent], until end: Date) -> [DateInterval] {
        func isBurst(_ index: Int) -> Bool {  // three activations within five minutes from here
            index + 2 < events.count && events[index + 2].time.timeIntervalSince(events[index].time) <= 300
        }
        var periods: [DateInterval] = []
        // A seat or bed pressed or released is someone at home, however sparse.
        func isHome(_ index: Int) -> Bool { events[index].signal == .press || events[index].signal == .release }
        for index in events.indices where events[index].isExit {  // leaving (coming home ends a time out, and starts none)
            var next = index + 1
            while next < events.count, !events[next].isWayOut, !isBurst(next), !isHome(next) { next += 1 }
            let back = next < events.count ? events[next].time : end
            if back.timeIntervalSince(events[index].time) >= outAfter {
                periods.append(DateInterval(start: events[index].time, end: back))
            } else if isBurst(index + 1) || (index + 1 < events.count && isBurst(index)) {
                var previous = index - 1
                while previous >= 0, !events[previous].isWayOut, !isBurst(previous), !isHome(previous) { previous -= 1 }
                // Back to the end of a burst, or to a seat or bed; back to the way out, the leaving was not lost (counted from it above).
                guard previous < 0 || !events[previous].isWayOut else { continue }
                let left = previous < 0 ? events[index].time : isBurst(previous) ? events[min(previous + 2, index)].time : events[previous].time
                if events[index].time.timeIntervalSince(left) >= outAfter { periods.append(DateInterval(start: left, end: events[index].time)) }
            }
        }
        return periods
    }

    /// Cuts `events` (oldest first) into the local days of `calendar` from the day of
    /// `start` to the day of `end` inclusive; days without events are there, empty.
    public static func days(_ events: [ActivityEvent], from start: Date, to end: Date, calendar: Calendar) -> [ActivityDay] {
        var days: [ActivityDay] = []
        var midnight = calendar.startOfDay(for: start)
        let last = calendar.startOfDay(for: end)
        let away = Self.away(events, until: calendar.date(byAdding: .day, value: 1, to: last) ?? end)
        var index = events.partitioningIndex { $0.time >= midnight }
        while midnight <= last {
            guard let next = calendar.date(byAdding: .day, value: 1, to: midnight) else { break }
            let first = index
            while index < events.count, events[index].time < next { index += 1 }
            let slice = Array(events[first..<index])
            var hourly = Array(repeating: 0, count: 24)
            for event in slice { hourly[calendar.component(.hour, from: event.time)] += 1 }
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: midnight)
            let today = DateInterval(start: midnight, end: next)
            days.append(ActivityDay(
                start: midnight, end: next,
                label: String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0),
                isWeekend: parts.weekday == 1 || parts.weekday == 7, events: slice, hourly: hourly,
                away: away.compactMap { $0.intersection(with: today) }.filter { $0.duration > 0 }))
            midnight = next
        }
        return days
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for an array where it holds
    /// from some index on (binary search).
    func partitioningIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
