import Foundation
import SADECore
import SADENotification

/// Raises an alarm for each hazard perceived (resident safe).
struct RaiseSafetyAlarms: Action {
    let watch: FlatWatch

    func runAction(_ context: ActionContext) async throws {
        let hazards = await context.agent.take(.hazards)
        guard !hazards.isEmpty else { return }
        let flat = try await watch.current()
        for hazard in hazards {
            let what = Self.words[hazard.kind] ?? "\(hazard.kind) detected"
            try await watch.alarms.raise(
                HomeMessageDraft(
                    flat: flat.id, device: hazard.device, severity: .alarm, title: "\(what) in the \(hazard.room.lowercased())",
                    text: "The \(hazard.kind) detector in the \(hazard.room.lowercased()) fired at \(Self.clock(hazard.time, flat)).",
                    key: HomeAgent.hazardKey(hazard.device)),  // one open alarm per detector: a new episode while it is open wakes nobody twice
                flat: flat, at: watch.clock.now)
        }
    }

    static let words = ["smoke": "Smoke", "gas": "Gas", "water": "Water on the floor", "fall": "A fall"]

    static func clock(_ date: Date, _ flat: Flat) -> String {
        let parts = flat.calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// Warns of weak batteries and alarms on empty ones (batteries fine).
struct ReportBatteries: Action {
    let watch: FlatWatch

    func runAction(_ context: ActionContext) async throws {
        let reports = await context.agent.take(.batteryReports)
        guard !reports.isEmpty else { return }
        let flat = try await watch.current()
        for report in reports {
            let empty = report.state == .empty
            try await watch.alarms.raise(
                HomeMessageDraft(
                    flat: flat.id, device: report.device, severity: empty ? .alarm : .warning,
                    title: "\(empty ? "Empty" : "Weak") battery: \(report.name)",
                    text: "\(report.name) reports \(report.percent) % battery\(empty ? "; it may stop reporting" : "; replace it soon").",
                    key: "battery:\(report.device):\(report.state.rawValue)"),
                flat: flat, at: watch.clock.now)
        }
    }
}

/// Raises an alarm for each inactivity rule broken (resident active).
struct RaiseInactivityAlarms: Action {
    let watch: FlatWatch

    func runAction(_ context: ActionContext) async throws {
        let breaches = await context.agent.take(.inactivity)
        guard !breaches.isEmpty else { return }
        let flat = try await watch.current()
        for breach in breaches {
            try await watch.alarms.raise(
                HomeMessageDraft(flat: flat.id, severity: .alarm, title: "No activity", text: breach.text, key: breach.key),
                flat: flat, at: watch.clock.now)
        }
    }
}

/// Every `interval`: checks the inactivity rules against the last activity and lets
/// messages whose time is up expire.
struct WatchTheClock: Action {
    let watch: FlatWatch
    let interval: Duration

    var schedule: ActionSchedule { .every(interval) }

    func runAction(_ context: ActionContext) async throws {
        let now = watch.clock.now
        for message in try await watch.alarms.store.expireMessages(at: now) { watch.alarms.events?.publish(.message(message)) }
        let flat = try await watch.current()
        if await context.belief(.batteriesReviewed) != true {  // at start: batteries that ran down while nobody watched
            let reports = try await watch.alarms.store.states(flat: flat.id).compactMap { state -> BatteryReport? in
                guard let percent = state.battery, let latest = state.latest, BatteryState(percent: percent) != .ok else { return nil }
                return BatteryReport(device: state.device.id, name: state.device.name, state: BatteryState(percent: percent), percent: percent, time: latest.time)
            }
            await context.agent.perceive(HomeFacts(batteries: reports))
            await context.setBelief(.batteriesReviewed, to: true)
        }
        let today = flat.calendar.startOfDay(for: now)
        if let known = await context.belief(.today), known < today {  // a day ended: review it (only the last, after a long stop)
            let ended = flat.calendar.date(byAdding: .day, value: -1, to: today) ?? known
            await context.setBelief(.today, to: today)
            await context.setBelief(.unreviewedDays, to: (await context.belief(.unreviewedDays) ?? []) + [ended])
        }
        if now.timeIntervalSince(await context.belief(.devicesChecked) ?? .distantPast) >= 3600 {
            await context.setBelief(.devicesChecked, to: now)
            let since = now.addingTimeInterval(-DeviceFaults.lookBack)
            let events = try await watch.alarms.store.activity(flat: flat.id, from: since, to: now.addingTimeInterval(1))
            // A fault told once is not told again, confirmed or expired: the store remembers every message.
            let told = Set(try await watch.alarms.store.messages(flat: flat.id, states: nil, from: since, to: nil).map(\.key))
            let faults = DeviceFaults.find(in: events, flat: flat, at: now).filter { fault in
                !told.contains(fault.key) && !(fault.isOngoing && told.contains { $0.hasPrefix(fault.keyPrefix) })
            }
            if !faults.isEmpty { await context.setBelief(.deviceFaults, to: (await context.belief(.deviceFaults) ?? []) + faults) }
        }
        let lastActivity = await context.belief(.lastActivity) ?? now
        let silence = try await watch.profile.detectors(for: flat, at: now).silence
        if let trial = await watch.profile.takeFreshTrial() { try await tell(trial, flat: flat, at: now) }
        let breaches = try await InactivityCheck(flat: flat, store: watch.alarms.store, silence: silence).breaches(at: now, lastActivity: lastActivity)
        if !breaches.isEmpty { await context.agent.perceive(breaches) }
    }
}

extension WatchTheClock {
    /// The key prefix of the messages that tell the carers whether the learned quiet is used.
    static let trialKey = "profile:learned-quiet:"

    /// Tells the carers the verdict of the learned quiet's trial if it is not the one the
    /// store says they were told last (so a restart, or another node, does not tell it again).
    func tell(_ trial: SilenceTrial, flat: Flat, at now: Date) async throws {
        // The verdicts of the last learning window's time (one older is told again, once).
        let recent = now.addingTimeInterval(-Double(ActivityProfile.learningDays + 7) * 86400)
        let told = try await watch.alarms.store.messages(flat: flat.id, states: nil, from: recent, to: nil).first { $0.key.hasPrefix(Self.trialKey) }
        let wasUsed = told.map { $0.key.hasPrefix(Self.trialKey + "used:") }
        guard wasUsed != trial.isPassed else { return }
        try await watch.alarms.raise(
            HomeMessageDraft(
                flat: flat.id, severity: .information, title: "What the home learned", text: trial.summary(wasUsed: wasUsed == true),
                key: "\(Self.trialKey)\(trial.isPassed ? "used" : "not-used"):\(InactivityCheck.day(now, flat))", lifetime: .seconds(24 * 3600)),
            flat: flat, at: now)
    }
}

/// Tells the carers of sensors that seem broken (devices working).
struct ReportDeviceFaults: Action {
    let watch: FlatWatch

    func runAction(_ context: ActionContext) async throws {
        let faults = await context.agent.take(.deviceFaults)
        guard !faults.isEmpty else { return }
        let flat = try await watch.current()
        for fault in faults {
            try await watch.alarms.raise(
                HomeMessageDraft(
                    flat: flat.id, device: fault.device, severity: .warning, title: fault.kind == .stuck ? "A sensor seems stuck" : "A sensor is silent",
                    text: fault.text, key: fault.key),
                flat: flat, at: watch.clock.now)
        }
    }
}

/// Judges each day that ended with the routine profile; an unusual one is a warning
/// that says why (days reviewed).
struct ReviewTheDay: Action {
    let watch: FlatWatch

    func runAction(_ context: ActionContext) async throws {
        let days = await context.agent.take(.unreviewedDays)
        guard !days.isEmpty else { return }
        let flat = try await watch.current()
        guard let routine = try await watch.profile.detectors(for: flat, at: watch.clock.now).routine else { return }
        for start in days {
            let end = flat.calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86400)
            let lead = start.addingTimeInterval(-ActivityDay.outAfter * 48)  // to see whether the day began out of the flat
            let events = ActivityEvent.activations(try await watch.alarms.store.activity(flat: flat.id, from: lead, to: end), in: flat)
            guard let day = ActivityDay.days(events, from: start, to: end.addingTimeInterval(-1), calendar: flat.calendar).first else { continue }
            let verdict = routine.judge(day)
            guard !verdict.isNormal, let reason = verdict.reason else { continue }
            try await watch.alarms.raise(
                HomeMessageDraft(flat: flat.id, severity: .warning, title: "An unusual day", text: "\(day.label): \(reason).", key: "review:\(day.label)"),
                flat: flat, at: watch.clock.now)
        }
    }
}

extension Agent {
    /// Adds inactivity breaches to the agent's beliefs.
    func perceive(_ breaches: [InactivityBreach]) {
        setBelief(.inactivity, to: (beliefs[.inactivity] ?? []) + breaches)
    }
}
