import Foundation

/// What a home agent has learned of its resident's days: the learned-quiet detector and
/// the routine profile, learned again each night from the last four weeks in the store.
actor ActivityProfile {
    let store: any HomeStore
    private var learnedUntil: Date?
    private var lastTry: Date?
    private var silence: LearnedSilence?
    private var routine: RoutineProfile?

    /// How many days back the detectors learn from.
    static let learningDays = 28
    /// With fewer days of activity than this, the detectors are not used.
    static let minimumDays = 7

    init(store: any HomeStore) { self.store = store }

    /// The detectors for `flat` at `now`, learned from the days before today (`nil` while
    /// the store holds too few days of activity); the routine profile from the days before
    /// yesterday, so that yesterday can be judged against them.
    func detectors(for flat: Flat, at now: Date) async throws -> (silence: LearnedSilence?, routine: RoutineProfile?) {
        let calendar = flat.calendar, midnight = calendar.startOfDay(for: now)
        // Learned once a day; while there is too little history, tried again every hour.
        if learnedUntil != midnight, lastTry.map({ now.timeIntervalSince($0) >= 3600 || now < $0 }) ?? true {
            lastTry = now
            let start = calendar.date(byAdding: .day, value: -(Self.learningDays + 1), to: midnight) ?? midnight
            let yesterday = calendar.date(byAdding: .day, value: -1, to: midnight) ?? midnight
            let events = ActivityEvent.activations(try await store.activity(flat: flat.id, from: start, to: midnight), in: flat)
            let days = ActivityDay.days(events, from: start, to: yesterday.addingTimeInterval(-1), calendar: calendar).filter { $0.start < yesterday }
            let recent = events.filter { $0.time >= (calendar.date(byAdding: .day, value: -Self.learningDays, to: midnight) ?? start) }
            let enough = days.filter { !$0.isEmpty }.count >= Self.minimumDays
            silence = enough ? LearnedSilence(training: recent, calendar: calendar) : nil
            routine = enough ? RoutineProfile(training: days) : nil
            if enough { learnedUntil = midnight }
        }
        return (silence, routine)
    }
}
