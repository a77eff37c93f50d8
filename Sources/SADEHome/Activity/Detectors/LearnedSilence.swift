import Foundation

/// Our real-time inactivity detector: how long this resident's quiets last, learned by
/// the room they were last seen in and the time of day (weekdays and weekends apart). A
/// quiet is an alarm once it is longer than any like it before, with a margin: after the
/// lunch dishes that may be 40 minutes, after going to bed 9 hours. The fixed rule's
/// period stays the upper bound, and a quiet after leaving by the door counts from the
/// quiets that followed the door before (an afternoon out, a night away).
///
/// Noise: a quiet restarts only at activations that are the resident's as far as the
/// sensors tell (see ``anchors(in:)``); a lone one elsewhere (a sensor's glitch, a pet)
/// does not restart it, and where it is not sure, the later alarm wins.
public struct LearnedSilence: SilenceDetector {
    public var name: String { "learned quiet (ours)" }

    /// A quiet seen while learning: where and when it began, how long it lasted.
    struct Quiet {
        var minute: Int
        var weekend: Bool
        var nextDayWeekend: Bool
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
    /// Whether quiets began in a room near each quarter of an hour while learning.
    var familiar: [String: [Bool]] = [:]
    /// The shortest limit of a quiet, by the room it began in (or seat, bed, exit) and
    /// quarter of an hour: where the tail of the quiets there says they would pass it less
    /// than ``budget`` times a day in all (see ``floor(of:near:days:cap:)``).
    var floors: [String: [TimeInterval]] = [:]
    /// The room with the way out (the hall), where a quiet may be an outing whose door reading was lost.
    var exitRoom: String?
    /// The longest time out before an alarm.
    public var awayCap: TimeInterval = 48 * 3600

    /// A quiet may last this much longer than the longest like it, plus ``slack``.
    static let margin = 1.25
    /// See ``margin``.
    static let slack: TimeInterval = 15 * 60

    /// Out of the flat, the home cannot tell a long day out from trouble: it waits at least this long.
    static let awayFloor: TimeInterval = 36 * 3600

    /// Fewer quiets like it than this, and the detector looks further afield.
    static let enough = 6
    /// How far around the time of day it looks, widening.
    static let windows = [45, 90, 180]

    /// Learns from `events` (activations, oldest first).
    public init(training events: [ActivityEvent], calendar: Calendar, corroboration: TimeInterval = 10 * 60, cap: TimeInterval = 12 * 3600) {
        self.calendar = calendar
        self.corroboration = corroboration
        self.cap = cap
        exitRoom = events.first(where: \.isExit)?.room
        let days = Set(events.map { calendar.startOfDay(for: $0.time) }).count
        var quietStarts: [ActivityEvent] = []
        var window = SlidingAnchors(self, events: events)
        var start = events.startIndex
        for index in events.indices {  // the same rule as in real time, over a window of recent activations
            while events[index].time.timeIntervalSince(events[start].time) > Self.memory { start += 1 }
            if window.move(first: start, last: index).isAnchor { quietStarts.append(events[index]) }
        }
        var gaps: [String: [Quiet]] = [:]
        for (from, to) in zip(quietStarts, quietStarts.dropFirst()) {
            let weekday = calendar.component(.weekday, from: from.time)
            gaps[Self.key(from), default: []].append(
                Quiet(minute: calendar.minuteOfDay(from.time), weekend: weekday == 1 || weekday == 7, nextDayWeekend: weekday == 6 || weekday == 7,
                      length: to.time.timeIntervalSince(from.time)))
        }
        for (key, list) in gaps {
            familiar[key] = (0..<96).map { quarter in list.filter { abs(Self.circular($0.minute - (quarter * 15 + 7))) <= Self.windows[0] }.count >= 3 }
            longest[key] = (0..<96).map { quarter in [false, true].map { Self.longest(in: list, minute: quarter * 15 + 7, weekend: $0) } }
        }
        // A room's few quiets say little of its tail: no room's floor is below the flat's,
        // that of the quiets in every room but the bedroom (where sleep is, without a bed sensor).
        let isRoom = { (key: String) in key != "exit" && !key.hasPrefix("on ") }
        let bedrooms = Set(events.filter(\.isBedroom).map(\.room))
        let indoors = gaps.filter { isRoom($0.key) && !bedrooms.contains($0.key) }.values.flatMap { $0 }
        let flatFloors = Self.floors(of: indoors, days: days, cap: cap)
        for (key, list) in gaps {
            let own = Self.floors(of: list, days: days, cap: cap)
            floors[key] = isRoom(key) ? zip(own, flatFloors).map { max($0, $1) } : own
        }
    }

    /// Whether any quiet was learned.
    public var isTrained: Bool { !longest.isEmpty }

    /// What a quiet is learned and judged by: leaving, sitting or lying on a seat or bed
    /// (a nap in the chair is not a quiet in the living room), else the room.
    static func key(_ event: ActivityEvent) -> String {
        if event.isExit { return "exit" }
        if let held = event.holding { return "on \(held)" }
        return event.room
    }

    /// The activations in `events` that the quiet counts from, the resident's as far as
    /// the sensors tell, each marked sure or not. Sure: an exit; two others in its room
    /// within ``corroboration`` before it; or one in the room the resident was last seen
    /// in, unless that is the bedroom (a lone movement in bed is turning over in one's
    /// sleep). Not sure: a pair in a new room (the resident arriving, or two glitches); a
    /// lone one in another room within ``moving`` (the resident walking on, or a glitch);
    /// a lone one by the way out (leaving, its door reading lost); any in a room where the
    /// resident never is at that time of day. Any other lone activation is taken for noise.
    func anchors(in events: ArraySlice<ActivityEvent>) -> [(index: Int, isSure: Bool)] {
        var anchors: [(index: Int, isSure: Bool)] = []
        var resident: Int?
        for index in events.indices {
            let step = step(events, at: index, resident: resident)
            if let isSure = step.anchor { anchors.append((index, isSure)) }
            resident = step.resident
        }
        return anchors
    }

    /// What ``anchors(in:)`` decides at one activation.
    struct AnchorStep: Equatable {
        /// Whether the activation is an anchor: `nil` if not, else whether it is sure.
        var anchor: Bool?
        /// The last anchor that places the resident, after this activation (a lone one by the way out does not).
        var resident: Int?

        var isAnchor: Bool { anchor != nil }
    }

    /// ``anchors(in:)``'s decision at `index` of `events`, given the last anchor that
    /// placed the resident before it. It looks back at most ``corroboration``, and no
    /// further than the start of `events`.
    func step(_ events: ArraySlice<ActivityEvent>, at index: Int, resident: Int?) -> AnchorStep {
        let event = events[index]
        // Only motion may be a glitch: a door opened, a seat pressed or released is someone.
        var sure = event.isExit || event.signal != .motion || corroboration <= 0
        if !sure, !event.isBedroom, let previous = resident { sure = events[previous].room == event.room }
        var before = index - 1, others = 0
        while !sure, before >= events.startIndex, event.time.timeIntervalSince(events[before].time) <= corroboration {
            if events[before].room == event.room { others += 1 }
            sure = others >= 2
            before -= 1
        }
        if !sure, others == 1 { return AnchorStep(anchor: false, resident: index) }  // a pair in a new room: the resident arriving, or two glitches
        // Somewhere the resident never is at that time of day, it may be noise: not sure.
        if sure { return AnchorStep(anchor: isFamiliar(event), resident: index) }
        if let previous = resident, event.time.timeIntervalSince(events[previous].time) <= Self.moving {
            return AnchorStep(anchor: false, resident: index)
        }
        // On the way out, maybe, the door's reading lost: it does not place the resident.
        if event.room == exitRoom { return AnchorStep(anchor: false, resident: resident) }
        return AnchorStep(anchor: nil, resident: resident)
    }

    /// Whether quiets began in the event's room near its time of day while learning (any
    /// activation counts until something is learned).
    func isFamiliar(_ event: ActivityEvent) -> Bool {
        guard !familiar.isEmpty, !event.isExit else { return true }
        return familiar[Self.key(event)]?[min(calendar.minuteOfDay(event.time) / 15, 95)] ?? false
    }

    /// The newest anchors: the last sure one and those not sure after it.
    func trailingAnchors(in events: ArraySlice<ActivityEvent>) -> [Int] {
        let all = anchors(in: events)
        guard let lastSure = all.lastIndex(where: \.isSure) else { return all.map(\.index) }
        return all[lastSure...].map(\.index)
    }

    /// How far back real-time detection looks at activations.
    public static let memory: TimeInterval = 12 * 3600

    /// How soon after the resident's last activation one in another room still is them, walking on.
    static let moving: TimeInterval = 3 * 60

    public func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm? {
        alarm(after: recent, trailing: trailingAnchors(in: recent))
    }

    public func alarms(in events: [ActivityEvent], from start: Int, end: Date) -> [SilenceAlarm] {
        var window = SlidingAnchors(self, events: events)
        return SilenceAlarms.collect(events, from: start, end: end) { first, index in
            window.move(first: first, last: index)
            return alarm(after: events[first...index], trailing: window.trailing())
        }
    }

    /// The alarm after `recent`, counting from its trailing anchors (``trailingAnchors(in:)``).
    func alarm(after recent: ArraySlice<ActivityEvent>, trailing anchors: [Int]) -> SilenceAlarm? {
        // Where it is not sure the resident walked on, the latest of the alarms wins.
        // Nothing the resident's in memory (glitches in the night): the fixed rule still holds.
        guard !anchors.isEmpty else { return FixedSilence(period: cap, calendar: calendar).alarm(after: recent) }
        return anchors.compactMap { alarm(from: recent[$0], before: recent[...$0]) }.max { $0.time < $1.time }
    }

    /// The alarm of a quiet that began at `anchor`.
    func alarm(from anchor: ActivityEvent, before events: ArraySlice<ActivityEvent>) -> SilenceAlarm? {
        let minute = calendar.minuteOfDay(anchor.time), weekend = calendar.isWeekend(anchor.time)
        let days = weekend ? "at weekends" : "on weekdays"
        guard var learned = longest[Self.key(anchor)]?[min(minute / 15, 95)][weekend ? 1 : 0] else {
            return FixedSilence(period: cap, calendar: calendar).alarm(after: events)
        }
        if anchor.signal == .motion, anchor.room == exitRoom, let out = longest["exit"]?[min(minute / 15, 95)][weekend ? 1 : 0] {
            learned.length = max(learned.length, out.length)  // by the way out: maybe out, the door's reading lost
        }
        let limit =
            anchor.isExit
            ? min(max(learned.length * 1.25, Self.awayFloor), awayCap)
            : min(max(learned.length * Self.margin + Self.slack, floors[Self.key(anchor)]?[min(minute / 15, 95)] ?? 0), cap)
        let time = anchor.time.addingTimeInterval(max(limit, 20 * 60))
        let place =
            if anchor.isExit { "leaving by the \(anchor.room.lowercased()) door" } else if let held = anchor.holding {
                "on the \(held.replacingOccurrences(of: "_", with: " ").lowercased())"
            } else { "in the \(anchor.room.lowercased())" }
        return SilenceAlarm(
            time: time, since: anchor.time,
            reason: "No activity since \(calendar.clock(anchor.time)) \(place); usually active again by \(calendar.clock(time))\(learned.sameDays ? " \(days)" : "").")
    }

    /// How long a quiet that begins in the room at `minute` may last: the longest of
    /// those that began near that time (on the same kind of day if there are enough, else
    /// on any), and of what remained, at that time, of the quiets already going on then
    /// (so a turn in bed at 06:00 waits for the usual getting up, not for the short quiets
    /// after getting up).
    static func longest(in list: [Quiet], minute: Int, weekend: Bool) -> Usual? {
        for window in windows {
            let near = list.filter { abs(circular($0.minute - minute)) <= window }
            let same = near.filter { $0.weekend == weekend }
            let chosen = same.count >= enough ? same : near
            guard chosen.count >= enough else { continue }
            let sameDays = same.count >= enough
            var length = chosen.map(\.length).max() ?? 0
            for quiet in list {
                let offset = ((minute - quiet.minute) % 1440 + 1440) % 1440, remaining = quiet.length - Double(offset * 60)
                guard remaining > 0 else { continue }
                let day = quiet.minute + offset < 1440 ? quiet.weekend : quiet.nextDayWeekend
                if !sameDays || day == weekend { length = max(length, remaining) }
            }
            return Usual(length: length, sameDays: sameDays)
        }
        return nil
    }

    /// How often a day the quiets of one room (or seat, bed) may pass their floor.
    static let budget = 0.005

    /// ``floor(of:days:budget:)`` of the quiets that began within the widest of ``windows``
    /// around `minute`, but for those of `cap` or longer (a gap in the recording, a night
    /// away with the door's reading lost: they would stretch the tail for a month). Each quarter hour
    /// is judged by a floor fitted to the 6 hours around it, so each window's budget is
    /// its share of the day's: the quiets beginning at any time pass their floors
    /// ``budget`` times a day in all.
    static func floor(of quiets: [Quiet], near minute: Int, days: Int, cap: TimeInterval) -> TimeInterval? {
        let width = windows[windows.count - 1]
        return floor(
            of: quiets.filter { abs(circular($0.minute - minute)) <= width && $0.length < cap }.map(\.length), days: days,
            budget: budget * Double(2 * width) / 1440)
    }

    /// ``floor(of:near:days:cap:)`` at the middle of each quarter of an hour (0 where
    /// there is none), worked out in one turn round the day: the window's quiets are kept
    /// sorted as it slides, so each step adds and takes out only the quiets of 15 minutes
    /// rather than sorting all of them again (a learning's floors took seconds in a debug
    /// build, and the trial learns once for every day it tries).
    static func floors(of quiets: [Quiet], days: Int, cap: TimeInterval) -> [TimeInterval] {
        let width = windows[windows.count - 1], budget = budget * Double(2 * width) / 1440
        var byMinute = [[TimeInterval]](repeating: [], count: 1440)
        for quiet in quiets where quiet.length < cap { byMinute[(quiet.minute % 1440 + 1440) % 1440].append(quiet.length) }
        var window: [TimeInterval] = []  // sorted: the quiets that began within `width` of the middle of the quarter
        func minutes(_ range: ClosedRange<Int>) -> [TimeInterval] { range.flatMap { byMinute[($0 % 1440 + 1440) % 1440] } }
        func insert(_ value: TimeInterval) { window.insert(value, at: window.partitioningIndex { $0 >= value }) }
        func remove(_ value: TimeInterval) { window.remove(at: window.partitioningIndex { $0 >= value }) }
        minutes((7 - width)...(7 + width)).forEach(insert)
        var result: [TimeInterval] = []
        for quarter in 0..<96 {
            let middle = quarter * 15 + 7
            if quarter > 0 {
                minutes((middle - 15 - width)...(middle - 1 - width)).forEach(remove)
                minutes((middle - 15 + width + 1)...(middle + width)).forEach(insert)
            }
            result.append(floor(ofSorted: window, days: days, budget: budget) ?? 0)
        }
        return result
    }

    /// The length that quiets like `lengths` (learned over `days` days) pass less than
    /// `budget` times a day, by the exponential tail of those above their 90th
    /// percentile `u` (peaks over a threshold): `u + σ ln(n / (days × budget))`, `σ` their
    /// mean excess, `n` their number. The maximum of a week's quiets is passed about once
    /// in as many quiets as the week held, so about once a week whatever the room; the
    /// tail reaches past it by what the spread of the longest quiets says. With fewer
    /// than 10 quiets, none.
    static func floor(of lengths: [TimeInterval], days: Int, budget: Double) -> TimeInterval? {
        floor(ofSorted: lengths.sorted(), days: days, budget: budget)
    }

    /// ``floor(of:days:budget:)`` of lengths already sorted.
    static func floor(ofSorted sorted: [TimeInterval], days: Int, budget: Double) -> TimeInterval? {
        guard sorted.count >= 10, days > 0 else { return nil }
        let threshold = sorted[Int(Double(sorted.count) * 0.9)]
        let above = sorted.filter { $0 > threshold }
        guard !above.isEmpty else { return threshold }
        let excess = above.reduce(0) { $0 + ($1 - threshold) } / Double(above.count)
        return threshold + excess * log(max(Double(above.count) / (Double(days) * budget), 1))
    }

    static func circular(_ minutes: Int) -> Int { ((minutes % 1440) + 2160) % 1440 - 720 }
}
