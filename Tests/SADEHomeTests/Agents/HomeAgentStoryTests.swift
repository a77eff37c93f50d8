import Foundation
import SADECore
@testable import SADEHome
import SADENotification
import SADETestTiming
import Testing

@Suite("Home agent: the carers' stories on a manual clock", .timeLimit(.minutes(3)), .timed)
struct HomeAgentStoryTests {
    @Test("a fall is an alarm at once to every carer; unconfirmed it escalates; confirmed it stops escalating")
    func fall() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        let daughter = home.app.subscribe(for: "daughter")

        try await home.service.ingest([StateEvent(device: home.device("fall_detector").id, value: 1, battery: 90, time: HomeFixture.at(30))], flat: home.flat.id)
        let alarm = try #require(await first(messages) { $0.homeMessage?.state == .open }?.homeMessage)
        #expect(alarm.severity == .alarm)
        #expect(alarm.title == "A fall in the bedroom")
        #expect(alarm.device == home.device("fall_detector").id)
        let notice = try #require(await first(daughter) { _ in true })
        #expect(notice.title == "Flat 1: A fall in the bedroom")
        #expect(Set(notice.users) == ["nurse1", "daughter"])

        while await home.desk.escalatingCount == 0 { await Task.yield() }  // the escalation counts from now
        home.clock.advance(by: .seconds(300))  // five minutes unconfirmed: the carers are reminded
        let reminder = try #require(await first(daughter) { $0.title.hasPrefix("Escalated:") })
        #expect(reminder.title == "Escalated: Flat 1: A fall in the bedroom")

        let confirmed = try await home.service.confirm(message: alarm.id, by: "nurse1")
        #expect(confirmed.state == .confirmed && confirmed.confirmedBy == "nurse1")
        #expect(await home.desk.escalatingCount == 0)
        #expect(try await home.outbox.acknowledgement(of: notice.id)?.worker == "nurse1")
        let escalated = try await home.outbox.escalations(of: notice.id).count
        home.clock.advance(by: .seconds(900))
        await home.clock.waitForSleepers(1)
        #expect(try await home.outbox.escalations(of: notice.id).count == escalated, "no reminder after the confirmation")
    }

    @Test("""
        a message stored without its notification (its node died before queuing it) is notified as the flat's agent starts; \
        once notified, it is not notified again
        """)
    func unsentNotificationSentAtStart() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        await home.service.stopAgents()
        let (stored, _) = try await home.store.raise(
            HomeMessageDraft(flat: home.flat.id, severity: .alarm, title: "Smoke in the kitchen", text: "The smoke detector fired.", key: "smoke"),
            at: HomeFixture.at(10))
        let notice = try #require(stored.notice)
        #expect(try await home.outbox.notification(notice) == nil, "as the dead node left it")
        let daughter = home.app.subscribe(for: "daughter")
        try await home.service.startAgents()
        #expect(try await home.outbox.notification(notice) != nil)
        let sent = try #require(await first(daughter) { _ in true })
        #expect(sent.id == notice && sent.title == "Flat 1: Smoke in the kitchen")
        #expect(try await home.service.alarms.notifyUnsent(in: home.flat) == 0, "nothing left to send")
    }

    @Test("a detector's alarm is raised once while it is open, however often the smoke comes back; once confirmed, a new episode raises a new one")
    func smokeEpisodes() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        let smoke = home.device("kitchen_smoke").id
        try await home.service.ingest([StateEvent(device: smoke, value: 1, time: HomeFixture.at(10))], flat: home.flat.id)
        let episode = try #require(await first(messages) { $0.homeMessage != nil }?.homeMessage)
        #expect(episode.title == "Smoke in the kitchen")
        try await home.service.ingest([StateEvent(device: smoke, value: 1, time: HomeFixture.at(20))], flat: home.flat.id)
        try await home.service.ingest(
            [StateEvent(device: smoke, value: 0, time: HomeFixture.at(30)), StateEvent(device: smoke, value: 1, time: HomeFixture.at(40))],
            flat: home.flat.id)
        try await home.service.ingest([StateEvent(device: smoke, value: 0, time: HomeFixture.at(50))], flat: home.flat.id)
        while await home.service.agent(of: home.flat.id)?.beliefs[.hazards]?.isEmpty == false { await Task.yield() }  // the agent handled them
        #expect(try await home.store.messages(flat: home.flat.id, states: nil, from: nil, to: nil).count == 1, "nobody woken twice")
        _ = try await home.service.confirm(message: episode.id, by: "nurse1")
        let confirmed = try #require(await first(messages) { $0.homeMessage?.state == .confirmed }?.homeMessage)
        #expect(confirmed.id == episode.id)
        try await home.service.ingest([StateEvent(device: smoke, value: 1, time: HomeFixture.at(60))], flat: home.flat.id)
        let second = try #require(await first(messages) { $0.homeMessage?.state == .open }?.homeMessage)
        #expect(second.id != episode.id && second.title == "Smoke in the kitchen")
    }

    @Test("twelve hours without activity is an alarm, raised once for that quiet even after it is confirmed")
    func twelveHoursQuiet() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        try await home.service.ingest([StateEvent(device: home.device("kitchen_motion").id, value: 1, battery: 80, time: HomeFixture.at(50))], flat: home.flat.id)
        await home.clock.waitForSleepers(1)  // the watch checked once at start and waits for its next minute
        home.clock.advance(by: .seconds(12 * 3600 + 60))
        let alarm = try #require(await first(messages) { $0.homeMessage?.state == .open }?.homeMessage)
        #expect(alarm.severity == .alarm)
        #expect(alarm.key.hasPrefix("inactivity:continuous:"))
        #expect(alarm.text == "No activity for 12 h, since 2026-03-02 00:00.")
        _ = try await home.service.confirm(message: alarm.id, by: "daughter")
        home.clock.advance(by: .seconds(120))
        await home.clock.waitForSleepers(1)
        home.clock.advance(by: .seconds(60))
        await home.clock.waitForSleepers(1)
        let all = try await home.store.messages(flat: home.flat.id, states: nil, from: nil, to: nil)
        #expect(all.count == 1, "the same quiet is not raised again: \(all.map(\.key))")
        let check = InactivityCheck(flat: home.flat, store: home.store)
        #expect(try await check.breaches(at: HomeFixture.at(13 * 3600), lastActivity: HomeFixture.at(50)).isEmpty, "confirmed: not raised again")
        let later = try await check.breaches(at: HomeFixture.at(26 * 3600), lastActivity: HomeFixture.at(13 * 3600))
        #expect(later.map(\.key) == ["inactivity:continuous:\(Int64(13 * 3600 + 1_772_409_600) * 1000)"], "a new quiet is a new alarm")
    }

    @Test("a window rule: no activity between 07:00 and 10:00 is an alarm at 10:00")
    func morningWindow() async throws {
        let rules = InactivityRules(continuousPeriod: nil, windows: [try #require(ActivityWindow(start: "07:00", end: "10:00"))])
        let home = try await HomeFixture(rules: rules)
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        await home.clock.waitForSleepers(1)  // the watch checked once at start and waits for its next minute
        home.clock.advance(by: .seconds(6 * 3600))
        await home.clock.waitForSleepers(1)  // checked at 06:00, waiting again
        try await home.service.ingest([StateEvent(device: home.device("bedroom_motion").id, value: 1, battery: 80, time: HomeFixture.at(6 * 3600))], flat: home.flat.id)
        home.clock.advance(by: .seconds(4 * 3600 + 30))
        let alarm = try #require(await first(messages) { $0.homeMessage?.state == .open }?.homeMessage)
        #expect(alarm.key == "inactivity:window:2026-03-02:07:00–10:00")
        #expect(alarm.text == "No activity between 07:00–10:00 today.")
        let check = InactivityCheck(flat: home.flat, store: home.store)
        #expect(try await check.breaches(at: HomeFixture.at(10 * 3600 + 60), lastActivity: HomeFixture.at(6 * 3600)).isEmpty, "raised once")
        let active = try await HomeFixture(rules: rules)
        defer { Task { await active.stop() } }
        active.clock.advance(by: .seconds(8 * 3600))
        try await active.service.ingest([StateEvent(device: active.device("kitchen_motion").id, value: 1, time: HomeFixture.at(8 * 3600))], flat: active.flat.id)
        let quiet = InactivityCheck(flat: active.flat, store: active.store)
        #expect(try await quiet.breaches(at: HomeFixture.at(10 * 3600 + 60), lastActivity: HomeFixture.at(8 * 3600)).isEmpty,
                "activity at 08:00 satisfies the window")
    }

    @Test("a weak battery is a warning, an empty one an alarm; each raised once")
    func batteries() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        let window = home.device("bedroom_window").id
        try await home.service.ingest([StateEvent(device: window, value: 1, battery: 60, time: HomeFixture.at(10))], flat: home.flat.id)
        try await home.service.ingest([StateEvent(device: window, value: 0, battery: 18, time: HomeFixture.at(20))], flat: home.flat.id)
        let warning = try #require(await first(messages) { $0.homeMessage != nil }?.homeMessage)
        #expect(warning.severity == .warning && warning.title == "Weak battery: Bedroom window")
        #expect(warning.expiresAt != nil, "warnings go by themselves")
        try await home.service.ingest([StateEvent(device: window, value: 1, battery: 17, time: HomeFixture.at(30))], flat: home.flat.id)
        try await home.service.ingest([StateEvent(device: window, value: 0, battery: 4, time: HomeFixture.at(40))], flat: home.flat.id)
        let alarm = try #require(await first(messages) { $0.homeMessage != nil }?.homeMessage)
        #expect(alarm.severity == .alarm && alarm.title == "Empty battery: Bedroom window")
        #expect(alarm.expiresAt == nil, "an alarm stays until a person confirms it")
        let all = try await home.store.messages(flat: home.flat.id, states: nil, from: nil, to: nil)
        #expect(all.count == 2)
    }

    @Test("events for a device of another flat or from the future are refused whole, naming the field")
    func badBatches() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let motion = home.device("kitchen_motion").id
        await #expect(throws: HomeError.invalidValue(field: "events[1].device_id", reason: "no device 999 in flat \(home.flat.id)")) {
            try await home.service.ingest(
                [StateEvent(device: motion, value: 1, time: HomeFixture.at(1)), StateEvent(device: 999, value: 1, time: HomeFixture.at(2))],
                flat: home.flat.id)
        }
        await #expect(throws: HomeError.self) {
            try await home.service.ingest([StateEvent(device: motion, value: 1, time: HomeFixture.at(3600))], flat: home.flat.id)
        }
        #expect(try await home.store.history(device: motion, from: HomeFixture.at(0), to: HomeFixture.at(7200), limit: nil).isEmpty)
    }
}
