import Foundation
import SADECore
import SADENotification

/// The BDI agent that watches over one flat's resident (SPEC §2.5): its goals are the
/// carers' worries, its plans what the home does about them.
///
/// - maintain **resident safe**: a smoke, gas, water or fall detector that fires is an
///   alarm at once;
/// - maintain **resident active**: a quiet longer than the flat's continuous period, or
///   a time window of the day without activity, is an alarm;
/// - maintain **batteries fine**: a weak battery is a warning, an empty one an alarm;
/// - maintain **devices working**: a sensor stuck on while the resident is active
///   elsewhere, or silent for a day though it reports daily, is a warning (a device
///   fault, not the resident's activity or inactivity);
/// - maintain **days reviewed**: after midnight, the day that ended is judged with the
///   routine profile learned from the weeks before; an unusual day is a warning that
///   says why ("no activity in the kitchen 16:00–21:00; usually 26 on weekdays");
/// - perform **watch the clock**: every minute, check the inactivity rules — the
///   flat's, and the quiet this resident's history calls unusual (``LearnedSilence``) —
///   and let information and warnings whose time is up expire; at start, report the
///   batteries that ran down while nobody watched; every hour, check the sensors. The
///   learned quiet is used only once it has passed its trial on the resident's own
///   history; the carers are told what it learned, and whether it is used.
///
/// The home service tells the agent what a batch of events means with
/// ``SADECore/Agent/perceive(_:)``; alarms go out through ``HomeAlarms``.
public enum HomeAgent {
    /// The agent's name for a flat: `home-<id>`.
    public static func name(of flat: FlatID) -> String { "home-\(flat)" }

    /// Every how often the agent checks the clock.
    public static let checkInterval: Duration = .seconds(60)

    /// A home agent for `flat` on `platform`; `clock` reads the platform's time as dates,
    /// `lastActivity` is when the resident was last active (or the watch begins).
    public static func make(
        flat: Flat, on platform: Environment, alarms: HomeAlarms, clock: OutboxClock, lastActivity: Date
    ) -> Agent {
        let watch = FlatWatch(flat: flat.id, alarms: alarms, clock: clock, profile: ActivityProfile(store: alarms.store))
        return Agent(name(of: flat.id), on: platform, runBDICycleOnStart: true) {
            Belief(.hazards, [])
            Belief(.batteryReports, [])
            Belief(.inactivity, [])
            Belief(.lastActivity, lastActivity)
            Belief(.batteriesReviewed, false)
            Belief(.today, flat.calendar.startOfDay(for: clock.now))
            Belief(.unreviewedDays, [])
            Belief(.deviceFaults, [])
            Goal.maintain("resident safe", .isEmpty(.hazards)) {
                Plan("raise a safety alarm", context: .isEmpty(.hazards).negated) { RaiseSafetyAlarms(watch: watch) }
            }
            Goal.maintain("resident active", .isEmpty(.inactivity)) {
                Plan("alert the carers to inactivity", context: .isEmpty(.inactivity).negated) { RaiseInactivityAlarms(watch: watch) }
            }
            Goal.maintain("batteries fine", .isEmpty(.batteryReports)) {
                Plan("report the batteries", context: .isEmpty(.batteryReports).negated) { ReportBatteries(watch: watch) }
            }
            Goal.maintain("devices working", .isEmpty(.deviceFaults)) {
                Plan("tell the carers of a device fault", context: .isEmpty(.deviceFaults).negated) { ReportDeviceFaults(watch: watch) }
            }
            Goal.maintain("days reviewed", .isEmpty(.unreviewedDays)) {
                Plan("review the day with the activity profile", context: .isEmpty(.unreviewedDays).negated) { ReviewTheDay(watch: watch) }
            }
            Goal("watch the clock") {
                Plan("check every minute") { WatchTheClock(watch: watch, interval: checkInterval) }
            }
        }
    }
}

/// What a home agent's actions share: the flat, the way to alarm, the clock, what it learned.
struct FlatWatch: Sendable {
    let flat: FlatID
    let alarms: HomeAlarms
    let clock: OutboxClock
    let profile: ActivityProfile

    /// The flat as the store has it now (carers and rules may have changed).
    func current() async throws -> Flat { try await alarms.store.flat(flat) }
}
