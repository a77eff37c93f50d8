import Foundation

/// Our real-time inactivity detector: how long this resident's quiets last, learned by
/// the room they were last seen in and the time of day (weekdays and weekends apart). A
/// quiet is an alarm once it is longer than any like it before, with a margin: after the
/// lunch dishes that may be 40 minutes, after going to bed 9 hours. The fixed rule's
/// period stays the upper bound, and a quiet after leaving by the door counts from the
/// quiets that followed the door before (an afternoon out, a night away).
///
/// Noise: a lone activation with nothing else within ``corroboration`` (a sensor's
/// glitch, a pet) does not restart the quiet.
public struct LearnedSilence: SilenceDetector {
    public var name: String { "learned quiet (room × time of day)" }

    struct Gap {
        var minute: Int
        var weekend: Bool
        var length: TimeInterval
    }

    /// The longest quiet like it, by the room it began in (`exit` after the way out),
    /// then by quarter of an hour of the day and weekday (0) or weekend (1).
    var longest: [String: [[Usual?]]] = [:]

    struct Usual {
        var length: TimeInterval
        var sameDays: Bool
    }
    /// The flat's calendar.
    public let calendar: Calendar
    /// How close another activation must be for one to count.
    public var corroboration: TimeInterval
    /// The longest quiet indoors before an alarm, whatever was learned (the fixed rule's period).
    public var cap: TimeInterval
    /// The longest time out before an alarm.
    public var awayCap: TimeInterval = 48 * 3600

    /// Fewer quiets like it than this, and the detector looks further afield.
    static let enough = 6
    /// How far around the time of day it looks, widening.
    static let windows = [45, 90, 180]

    /// Learns from `events` (activations, oldest first).
    public init(training events: [ActivityEvent], calendar: Calendar, corroboration: TimeInterval = 10 * 60, cap: TimeInterval = 12 * 3600) {
        self.calendar = calendar
        self.corroboration = corroboration
        self.cap = cap
        let anchors = events.indices.filter { isAnchor(events[...$0]) }.map { events[$0] }
        var gaps: [String: [Gap]] = [:]
        for (from, to) in zip(anchors, anchors.dropFirst()) {
            gaps[Self.key(from), default: []].append(
                Gap(minute: calendar.minuteOfDay(from.time), weekend: calendar.isWeekend(from.time), length: to.time.timeIntervalSince(from.time)))
        }
        for (key, list) in gaps {
            longest[key] = (0..<96).map { quarter in [false, true].map { Self.longest(in: list, minute: quarter * 15 + 7, weekend: $0) } }
        }
    }

    /// Whether any quiet was learned.
    public var isTrained: Bool { !longest.isEmpty }

    static func key(_ event: ActivityEvent) -> String { event.isExit ? "exit" : event.room }

    /// Whether the newest of `events` is one the quiet counts from: an exit, or an
    /// activation with another within ``corroboration`` before it.
    func isAnchor(_ events: ArraySlice<ActivityEvent>) -> Bool {
        guard let last = events.last else { return false }
        if last.isExit || corroboration <= 0 { return true }
        let previous = events.index(before: events.endIndex) - 1
        return previous >= events.startIndex && last.time.timeIntervalSince(events[previous].time) <= corroboration
    }

    public func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm? {
        var end = recent.endIndex
        while end > recent.startIndex, !isAnchor(recent[recent.startIndex..<end]) { end -= 1 }
        guard end > recent.startIndex else { return nil }
        let anchor = recent[end - 1]
        let minute = calendar.minuteOfDay(anchor.time), weekend = calendar.isWeekend(anchor.time)
        let days = weekend ? "at weekends" : "on weekdays"
        guard let learned = longest[Self.key(anchor)]?[min(minute / 15, 95)][weekend ? 1 : 0] else {
            return FixedSilence(period: cap, calendar: calendar).alarm(after: recent[..<end])
        }
        let limit = min(learned.length * 1.2 + 10 * 60, anchor.isExit ? awayCap : cap)
        let time = anchor.time.addingTimeInterval(max(limit, 20 * 60))
        let place = anchor.isExit ? "leaving by the \(anchor.room.lowercased()) door" : "in the \(anchor.room.lowercased())"
        return SilenceAlarm(
            time: time, since: anchor.time,
            reason: "No activity since \(calendar.clock(anchor.time)) \(place); usually active again by \(calendar.clock(time))\(learned.sameDays ? " \(days)" : "").")
    }

    /// The longest quiet that began in `key` near `minute`, on the same kind of day if
    /// there are enough, else on any.
    static func longest(in list: [Gap], minute: Int, weekend: Bool) -> Usual? {
        for window in windows {
            let near = list.filter { abs(circular($0.minute - minute)) <= window }
            let same = near.filter { $0.weekend == weekend }
            if same.count >= enough { return Usual(length: same.map(\.length).max() ?? 0, sameDays: true) }
            if near.count >= enough { return Usual(length: near.map(\.length).max() ?? 0, sameDays: false) }
        }
        return nil
    }

    static func circular(_ minutes: Int) -> Int { ((minutes % 1440) + 2160) % 1440 - 720 }
}
