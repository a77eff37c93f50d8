import Foundation

/// How the learned quiet would have done on a resident's own history, before it is
/// trusted with their carers' nights.
public struct SilenceTrial: Hashable, Sendable {
    /// The alarms it would have raised on the days it was tried on (false ones: the
    /// resident lived them).
    public var alarms: [SilenceAlarm]
    /// The days it was tried on.
    public var days: Int
    /// The alarms the fixed rule raised on those days (a day out that lasted past 12 h, say).
    public var baseline: Int

    /// Whether it may be used: tried on at least ``LearnedSilence/trialDays`` days, it
    /// raised no more alarms than the fixed rule it would replace, but for one a fortnight.
    public var isPassed: Bool { days >= LearnedSilence.trialDays && alarms.count <= baseline + days / 14 }
}

extension SilenceTrial {
    /// What the carers are told of it: what the home learned, and whether it uses it
    /// (`wasUsed`: whether it was used until now).
    public func summary(wasUsed: Bool = false) -> String {
        let count = alarms.count == 1 ? "1 alarm" : "\(alarms.count) alarms"
        if isPassed {
            return "The resident's own quiets are watched from now on: tried on \(days) of their recent days, what the home learned "
                + "would have raised \(count) (the fixed rule \(baseline))."
        }
        if days < LearnedSilence.trialDays {
            return "What the home learned of the resident's quiets is not used yet: it is first tried on a week of their days after the first "
                + "week (\(days) so far). The flat's own rules hold."
        }
        let example = alarms.first.map { ", such as \"\($0.reason)\"" } ?? ""
        return "What the home learned of the resident's quiets is \(wasUsed ? "no longer used" : "not used yet"): tried on \(days) of their recent days, "
            + "it would have raised \(count)\(example) (the fixed rule \(baseline)). The flat's own rules hold."
    }
}

extension LearnedSilence {
    /// The fewest days a learned quiet is tried on before it is used: a week (on the
    /// real homes, 4 days of trial after a week let through a detector that cried wolf
    /// twice in the next 8 days), so it is used from the resident's third week on.
    public static let trialDays = 7

    /// Tries the learned quiet on the later half of `days` (the resident's history,
    /// oldest first; `events` their activations): each day's quiets — until the next
    /// activation, past midnight if need be — judged by what was learned from the days
    /// before it, as the live agent would have done then, beside the fixed rule. Until it
    /// passes, the fixed rule holds.
    public static func trial(events: [ActivityEvent], days: [ActivityDay], calendar: Calendar) -> SilenceTrial {
        let recorded = days.filter { !$0.isEmpty }
        let first = max(recorded.count / 2, trialDays)
        var alarms: [SilenceAlarm] = [], tried = 0, baseline = 0
        for day in recorded.dropFirst(first) {
            let start = events.partitioningIndex { $0.time >= day.start }
            let end = events.partitioningIndex { $0.time >= day.end }
            guard end > start else { continue }
            let learned = LearnedSilence(training: Array(events[..<start]), calendar: calendar)
            tried += 1
            // A quiet that begins that day is judged until the next activation, past midnight if need be.
            let history = Array(events[..<end]), next = end < events.count ? events[end].time : day.end
            alarms += DetectorEvaluation.alarms(learned, events: history, from: start, end: next)
            baseline += DetectorEvaluation.alarms(FixedSilence(calendar: calendar), events: history, from: start, end: next).count
        }
        return SilenceTrial(alarms: alarms, days: tried, baseline: baseline)
    }
}

/// The learned quiet once it has passed its trial on the resident's history (see
/// ``LearnedSilence/trial(events:days:calendar:)``), else the fixed rule: what the home
/// agent runs (``ActivityProfile``, which tries it off the cooperative threads).
public struct ProvenSilence: SilenceDetector {
    public var name: String { "learned quiet once proven (ours)" }
    /// What is used.
    public let detector: any SilenceDetector
    /// The trial.
    public let trial: SilenceTrial

    /// Learns from `events` (activations, oldest first) over `days`, and tries what it learned.
    public init(training events: [ActivityEvent], days: [ActivityDay], calendar: Calendar) {
        trial = LearnedSilence.trial(events: events, days: days, calendar: calendar)
        detector = trial.isPassed ? LearnedSilence(training: events, calendar: calendar) : FixedSilence(calendar: calendar)
    }

    public func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm? { detector.alarm(after: recent) }

    public func alarms(in events: [ActivityEvent], from start: Int, end: Date) -> [SilenceAlarm] {
        detector.alarms(in: events, from: start, end: end)
    }
}
