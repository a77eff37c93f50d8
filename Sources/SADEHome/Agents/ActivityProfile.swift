import Foundation

/// What a home agent has learned of its resident's days: the learned-quiet detector and
/// the routine profile, learned again each night from the last four weeks in the store.
///
/// The learned quiet is used only once it has shown, on the resident's own history, that
/// it would not have cried wolf (``LearnedSilence/trial(events:days:calendar:)``); until
/// then the flat's fixed rules hold alone.
actor ActivityProfile {
    let store: any HomeStore
    private var learnedUntil: Date?
    private var lastTry: Date?
    private var silence: LearnedSilence?
    private var routine: RoutineProfile?
    /// The trial of the last learning, until it is taken to tell the carers.
    private var freshTrial: SilenceTrial?

    /// How many days back the detectors learn from.
    static let learningDays = 28
    /// With fewer days of activity than this, the detectors are not used.
    static let minimumDays = 7

    init(store: any HomeStore) { self.store = store }

    /// The detectors for `flat` at `now`, learned from the days before today (`nil` while
    /// the store holds too few days of activity, and the learned quiet `nil` while it has
    /// not passed its trial); the routine profile from the days before yesterday, so that
    /// yesterday can be judged against them.
    func detectors(for flat: Flat, at now: Date) async throws -> (silence: LearnedSilence?, routine: RoutineProfile?) {
        let calendar = flat.calendar, midnight = calendar.startOfDay(for: now)
        // Learned once a day; while there is too little history, tried again every hour.
        if learnedUntil != midnight, lastTry.map({ now.timeIntervalSince($0) >= 3600 || now < $0 }) ?? true {
            lastTry = now
            let start = calendar.date(byAdding: .day, value: -(Self.learningDays + 1), to: midnight) ?? midnight
            let yesterday = calendar.date(byAdding: .day, value: -1, to: midnight) ?? midnight
            let events = ActivityEvent.activations(try await store.activity(flat: flat.id, from: start, to: midnight), in: flat)
            let days = ActivityDay.days(events, from: start, to: midnight.addingTimeInterval(-1), calendar: calendar)
            let recentStart = calendar.date(byAdding: .day, value: -Self.learningDays, to: midnight) ?? start
            let recent = events.filter { $0.time >= recentStart }
            let enough = days.filter { !$0.isEmpty && $0.start < yesterday }.count >= Self.minimumDays
            routine = enough ? RoutineProfile(training: days.filter { $0.start < yesterday }) : nil
            if !enough { silence = nil }
            if enough {
                let recentDays = days.filter { $0.start >= recentStart }
                let (learned, result) = await Self.offThePool {
                    (LearnedSilence(training: recent, calendar: calendar), LearnedSilence.trial(events: recent, days: recentDays, calendar: calendar))
                }
                silence = result.isPassed ? learned : nil  // until now, what was learned the night before served
                freshTrial = result
                learnedUntil = midnight
            }
        }
        return (silence, routine)
    }

    /// The trial of the newest learning, once (for the carers: what the home learned, and
    /// why it does or does not use it).
    func takeFreshTrial() -> SilenceTrial? {
        defer { freshTrial = nil }
        return freshTrial
    }

    /// `work`'s result, worked out on a thread of its own: learning and trying a month of
    /// quiets takes long enough (seconds in a debug build) that on the cooperative threads
    /// it would hold up the server's requests.
    static func offThePool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "sade-activity-profile"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
