import Foundation

/// Applies a flat's ``InactivityRules`` at a moment: which rules the resident's quiet
/// breaks that have not been raised already (the store remembers every message, so a
/// confirmed alarm is not raised again for the same quiet, even after a restart).
struct InactivityCheck {
    let flat: Flat
    let store: any HomeStore
    /// The resident's learned quiets, once there is enough history.
    var silence: LearnedSilence? = nil

    /// How long after a window closes it is still checked (a watch that was down longer
    /// does not raise alarms for old mornings).
    static let windowGrace: TimeInterval = 3600

    /// How much further back than the learned quiet's window the readings are marked
    /// from (a seat pressed, a leaving the window does not reach; ``ActivityEvent/markingHolds(_:)``).
    static let leadIn: TimeInterval = 36 * 3600

    func breaches(at now: Date, lastActivity: Date) async throws -> [InactivityBreach] {
        var breaches: [InactivityBreach] = []
        let windows = flat.inactivity.windows.map { ($0, $0.interval(onDayOf: now, in: flat.calendar)) }
        let recentStart = min(lastActivity, now).addingTimeInterval(-LearnedSilence.memory)  // what came before the quiet
        let since = min(lastActivity, recentStart, windows.map(\.1.start).min() ?? lastActivity)
        let raised = Set(try await store.messages(flat: flat.id, states: nil, from: since, to: nil).map(\.key))
        if let period = flat.inactivity.continuousPeriod, now.timeIntervalSince(lastActivity) >= period.seconds {
            let key = "inactivity:continuous:\(Int64(lastActivity.timeIntervalSince1970 * 1000))"
            if !raised.contains(key) {
                let hours = period.seconds / 3600
                breaches.append(InactivityBreach(
                    key: key,
                    text: "No activity for \(hours.formatted(.number.precision(.fractionLength(0...1)))) h, since \(Self.stamp(lastActivity, flat))."))
            }
        }
        if let silence {
            // Read from further back, so that a seat pressed or a door opened before the window is known in it.
            let read = ActivityEvent.activations(
                try await store.activity(flat: flat.id, from: recentStart.addingTimeInterval(-Self.leadIn), to: now.addingTimeInterval(1)), in: flat)
            let recent = read[read.partitioningIndex { $0.time >= recentStart }...]
            if let alarm = silence.alarm(after: recent), alarm.time <= now {
                let key = "inactivity:learned:\(Int64(alarm.since.timeIntervalSince1970 * 1000))"
                if !raised.contains(key) { breaches.append(InactivityBreach(key: key, text: alarm.reason)) }
            }
        }
        for (window, interval) in windows {
            guard now >= interval.end, now.timeIntervalSince(interval.end) < Self.windowGrace else { continue }
            let key = "inactivity:window:\(Self.day(now, flat)):\(window)"
            guard !raised.contains(key), try await store.activity(flat: flat.id, from: interval.start, to: interval.end).allSatisfy({ !$0.isOn })
            else { continue }
            breaches.append(InactivityBreach(key: key, text: "No activity between \(window) today."))
        }
        return breaches
    }

    static func stamp(_ date: Date, _ flat: Flat) -> String {
        let parts = flat.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }

    static func day(_ date: Date, _ flat: Flat) -> String { String(stamp(date, flat).prefix(10)) }
}
