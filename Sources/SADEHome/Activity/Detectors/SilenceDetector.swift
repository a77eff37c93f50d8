import Foundation

/// An alarm a quiet would raise: when, and why.
public struct SilenceAlarm: Hashable, Sendable, Codable {
    /// When the quiet becomes an alarm.
    public var time: Date
    /// When it began: the activation it counts from.
    public var since: Date
    /// What carers read ("No activity since 07:40 in the bedroom; usually active again by 09:00 on weekdays.").
    public var reason: String

    /// An alarm.
    public init(time: Date, since: Date, reason: String) {
        self.time = time
        self.since = since
        self.reason = reason
    }
}

/// Tells, in real time, when a resident's quiet has lasted too long.
public protocol SilenceDetector: Sendable {
    /// Its name in reports.
    var name: String { get }
    /// The alarm that the quiet after the newest of `recent` (activations, oldest first)
    /// raises if nothing else happens; `nil` if it never does.
    func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm?
    /// The alarms raised on `events` (activations, oldest first) from index `start` on,
    /// shown the activations of the last ``LearnedSilence/memory`` each time: each
    /// activation's alarm fires if no activation comes before it (or before `end`, after
    /// the last), one per quiet.
    func alarms(in events: [ActivityEvent], from start: Int, end: Date) -> [SilenceAlarm]
}

extension SilenceDetector {
    /// ``alarm(after:)`` at each activation, over the window of the last ``LearnedSilence/memory``.
    public func alarms(in events: [ActivityEvent], from start: Int, end: Date) -> [SilenceAlarm] {
        SilenceAlarms.collect(events, from: start, end: end) { alarm(after: events[$0...$1]) }
    }
}

/// The alarms of a run over activations.
enum SilenceAlarms {
    /// The alarms `alarm(first, index)` raises at each activation from `start` on, shown
    /// `events[first...index]`, the activations of the last ``LearnedSilence/memory``: one
    /// is kept if it fires before the next activation (or `end`, after the last), once per quiet.
    static func collect(
        _ events: [ActivityEvent], from start: Int, end: Date, _ alarm: (_ first: Int, _ index: Int) -> SilenceAlarm?
    ) -> [SilenceAlarm] {
        var list: [SilenceAlarm] = []
        var first = 0
        for index in events.indices where index >= start {
            while events[index].time.timeIntervalSince(events[first].time) > LearnedSilence.memory { first += 1 }
            guard let alarm = alarm(first, index) else { continue }
            let next = index + 1 < events.count ? events[index + 1].time : end
            if alarm.time < next, alarm.since != list.last?.since { list.append(alarm) }
        }
        return list
    }
}

/// The telecare units' rule, our baseline: an alarm after a fixed time without activity.
public struct FixedSilence: SilenceDetector {
    public var name: String { "fixed \(Int(period / 3600)) h (telecare)" }
    /// How long a quiet may last.
    public var period: TimeInterval
    /// The calendar for the reason's clock times.
    public var calendar: Calendar

    /// The rule; 12 hours by default.
    public init(period: TimeInterval = 12 * 3600, calendar: Calendar) {
        self.period = period
        self.calendar = calendar
    }

    public func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm? {
        guard let last = recent.last else { return nil }
        let hours = (period / 3600).formatted(.number.precision(.fractionLength(0...1)))
        return SilenceAlarm(
            time: last.time.addingTimeInterval(period), since: last.time,
            reason: "No activity for \(hours) h, since \(calendar.clock(last.time)) in the \(last.room.lowercased()).")
    }
}

extension Calendar {
    /// `07:40`.
    func clock(_ date: Date) -> String {
        let parts = dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// Minutes after local midnight.
    func minuteOfDay(_ date: Date) -> Int {
        let parts = dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// Whether `date` falls on a Saturday or Sunday.
    func isWeekend(_ date: Date) -> Bool {
        let weekday = component(.weekday, from: date)
        return weekday == 1 || weekday == 7
    }
}
