import Foundation

/// Whether a resident's activity conforms now: the flat's inactivity rules against the
/// last activity, and the alarms still open.
public struct ActivityCondition: Hashable, Sendable {
    /// Whether the resident counts as inactive: an inactivity alarm is open, or the quiet
    /// has lasted the flat's continuous limit.
    public var isInactive: Bool
    /// The newest resident activity, if any.
    public var lastActivity: Date?
    /// How long it has been quiet since.
    public var quiet: TimeInterval?
    /// The flat's continuous-inactivity limit, if it has one.
    public var continuousLimit: TimeInterval?
    /// Open alarms of the flat.
    public var openAlarms: Int
    /// Open warnings of the flat.
    public var openWarnings: Int
}

/// A flat's recent days for carers: each day's hourly activity and the detectors'
/// verdicts (the thesis's score and band, the routine profile), and the last alarm or
/// warning about the resident's activity.
public struct FlatActivity: Sendable {
    /// The days, oldest first; the last is today so far.
    public var days: [ActivityReport.Row]
    /// The newest activity alarm or warning (inactivity, an unusual day), if any.
    public var lastAlarm: HomeMessage?
}

extension HomeService {
    /// Whether the resident of `id` is active or inactive now.
    public func activityCondition(flat id: FlatID) async throws(HomeError) -> ActivityCondition {
        let flat = try await store.flat(id)
        let now = clock.now
        let last = try await store.lastActivity(flat: id)
        let quiet = last.map { now.timeIntervalSince($0) }
        let limit = flat.inactivity.continuousPeriod?.seconds
        let open = try await store.messages(flat: id, states: [.open], from: nil, to: nil)
        let overLimit = quiet.flatMap { quiet in limit.map { quiet >= $0 } } ?? false
        return ActivityCondition(
            isInactive: overLimit || open.contains { $0.key.hasPrefix(Self.inactivityKeyPrefix) }, lastActivity: last, quiet: quiet,
            continuousLimit: limit, openAlarms: open.filter { $0.severity == .alarm }.count,
            openWarnings: open.filter { $0.severity == .warning }.count)
    }

    /// The last `days` days of the flat (today included) as the activity detectors see
    /// them: the thesis's HMM and the routine profile learned from the complete days shown.
    public func activity(flat id: FlatID, days: Int) async throws(HomeError) -> FlatActivity {
        let flat = try await store.flat(id)
        let calendar = flat.calendar, now = clock.now
        let start = calendar.date(byAdding: .day, value: -(max(1, days) - 1), to: calendar.startOfDay(for: now)) ?? now
        let events = ActivityEvent.activations(try await store.activity(flat: id, from: start, to: now), in: flat)
        let report = ActivityReport(events: events, from: start, to: now, calendar: calendar, trainingDays: max(1, days - 1))
        let messages = try await store.messages(flat: id, states: nil, from: start, to: nil)
        let lastAlarm = messages.first { message in
            (message.severity == .alarm || message.severity == .warning) && Self.activityKeyPrefixes.contains { message.key.hasPrefix($0) }
        }
        return FlatActivity(days: report.rows, lastAlarm: lastAlarm)
    }

    /// The key prefix of the home agent's inactivity alarms.
    static let inactivityKeyPrefix = "inactivity:"
    /// Key prefixes of messages about the resident's activity: inactivity, reviewed days.
    static let activityKeyPrefixes = [inactivityKeyPrefix, "review:"]
}
