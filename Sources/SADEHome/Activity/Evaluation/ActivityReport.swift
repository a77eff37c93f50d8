import Foundation

/// A resident's days as each detector sees them, the detectors learned from the first days.
public struct ActivityReport: Sendable {
    /// One day.
    public struct Row: Hashable, Sendable, Codable {
        /// `2026-01-05`.
        public var day: String
        /// Whether the detectors learned from it.
        public var isTraining: Bool
        /// Hours with at least 5 activations (the thesis's active hours).
        public var activeHours: Int
        /// Activations in each of the day's 24 hours.
        public var hourly: [Int]
        /// ln P(O | λ), the thesis's HMM's forward log-likelihood of the day.
        public var logLikelihood: Double
        /// The day's log probability along the best day's path.
        public var score: Double
        /// The thesis's normal band, [low, high].
        public var band: [Double]?
        /// The thesis's verdict: `normal` or `abnormal`.
        public var thesis: String
        /// The routine profile's verdict.
        public var routine: String
        /// Why the routine profile flagged it.
        public var routineReason: String?
        /// Alarms the learned-quiet detector raised that day.
        public var quietAlarms: Int
        /// The first one's reason.
        public var firstQuietAlarm: String?
    }

    /// The days, oldest first.
    public let rows: [Row]

    /// Profiles `events` (activations, oldest first) from the day of `start` to the day of
    /// `end`, the detectors learned from the first `trainingDays` days (all, if fewer).
    public init(events: [ActivityEvent], from start: Date, to end: Date, calendar: Calendar, trainingDays: Int) {
        let days = ActivityDay.days(events, from: start, to: end, calendar: calendar)
        let learning = Array(days.prefix(min(trainingDays, days.count)))
        let learningEvents = Array(events.prefix { $0.time < (learning.last?.end ?? start) })
        let thesis = ThesisDayDetector(training: learning), routine = RoutineProfile(training: learning)
        let silence = LearnedSilence(training: learningEvents, calendar: calendar)
        let alarms = DetectorEvaluation.alarms(silence, events: events, from: 0, end: days.last?.end ?? end)
        rows = days.enumerated().map { index, day in
            let observations = day.activeHours()
            let verdict = thesis.judge(day), profile = routine.judge(day)
            let quiet = alarms.filter { day.start <= $0.time && $0.time < day.end }
            return Row(
                day: day.label, isTraining: index < learning.count, activeHours: observations.filter { $0 }.count, hourly: day.hourly,
                logLikelihood: thesis.model?.model.logLikelihood(observations) ?? 0, score: verdict.score,
                band: verdict.low.flatMap { low in verdict.high.map { [low, $0] } }, thesis: verdict.isNormal ? "normal" : "abnormal",
                routine: profile.isNormal ? "normal" : "unusual", routineReason: profile.reason, quietAlarms: quiet.count, firstQuietAlarm: quiet.first?.reason)
        }
    }
}
