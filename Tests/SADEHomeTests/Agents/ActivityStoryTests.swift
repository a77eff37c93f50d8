import Foundation
import SADECore
import SADENotification
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("Home agent and the activity profile: a resident's own quiets, the nightly review", .timeLimit(.minutes(3)), .timed)
struct ActivityStoryTests {
    /// Eight weeks of a synthetic resident's ordinary days, ending the day before the fixture's epoch
    /// (Monday 2 March 2026), then that Monday until 10:00, when the resident stops moving.
    static let data = SyntheticResident(days: 57, trainingDays: 57, seed: 21).generate()
    static let stop = HomeFixture.at(10 * 3600)

    @Test("""
        after weeks of history, a morning quiet unusual for this resident is an alarm within two hours that says since when \
        and by when they are usually up again; after midnight the day is reviewed and found unusual, with the reason
        """)
    func learnedQuietAndReview() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        var plan = SyntheticFlat.plan(name: "Flat 2")
        plan.carers = ["nurse1"]
        plan.inactivity = InactivityRules(continuousPeriod: nil)  // only the learned quiet speaks
        let flat = try await home.service.createFlat(plan)
        let messages = home.service.events.subscribe(flats: [flat.id])
        await home.clock.waitForSleepers(2)  // both agents checked at 00:00 and wait for their next minute
        let history = SyntheticData(lines: Self.data.lines.filter { $0.time <= Self.stop }, truth: Self.data.truth, start: Self.data.start, calendar: Self.data.calendar)
        _ = try await CASASImport(store: home.store, map: SyntheticFlat.map).run(history.casas(), flat: flat.id)

        home.clock.advance(by: .seconds(10 * 3600))  // 10:00: the agent learns the resident's quiets from the weeks before
        await home.clock.waitForSleepers(2)
        var alarm: HomeMessage?
        for _ in 0..<48 where alarm == nil {  // five minutes at a time, for up to four hours
            home.clock.advance(by: .seconds(300))
            await home.clock.waitForSleepers(2)
            alarm = try await home.store.messages(flat: flat.id, states: [.open], from: nil, to: nil).first { $0.key.hasPrefix("inactivity:learned:") }
        }
        let raised = try #require(alarm, "no alarm within four hours")
        #expect(raised.severity == .alarm && raised.title == "No activity")
        #expect(raised.raisedAt.timeIntervalSince(Self.stop) <= 2 * 3600, "\(raised.raisedAt.timeIntervalSince(Self.stop) / 60) min after the stop")
        #expect(raised.text.hasPrefix("No activity since ") && raised.text.contains("usually active again by"), "\(raised.text)")
        #expect(try #require(await first(messages) { $0.homeMessage?.id == raised.id }).homeMessage?.text == raised.text)
        // The learned quiet passed its trial on those weeks before it was used, and the carers were told so.
        let told = try await home.store.messages(flat: flat.id, states: nil, from: nil, to: nil).filter { $0.key.hasPrefix("profile:learned-quiet:") }
        #expect(told.map(\.severity) == [.information] && told.first?.text.hasPrefix("The resident's own quiets are watched from now on") == true, "\(told.map(\.text))")

        home.clock.advance(by: .seconds(14 * 3600))  // past midnight: Monday is reviewed
        let review = try #require(
            await home.clock.ticking(by: .seconds(60), whileAsleep: 2) {
                await first(messages) { $0.homeMessage?.key == "review:2026-03-02" }?.homeMessage
            })
        #expect(review.severity == .warning && review.title == "An unusual day")
        #expect(review.text.hasPrefix("2026-03-02: no activity"), "\(review.text)")
    }

    @Test("the trial's verdict is told to the carers when it changes, as the store has it: not again after a restart, and a step back is \"no longer used\"")
    func verdicts() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let watch = FlatWatch(
            flat: home.flat.id, alarms: home.service.alarms, clock: OutboxClock(clock: home.platform.clock, origin: HomeFixture.epoch),
            profile: ActivityProfile(store: home.store))
        let action = WatchTheClock(watch: watch, interval: .seconds(60))
        let passed = SilenceTrial(alarms: [], days: 7, baseline: 0)
        let alarm = SilenceAlarm(time: HomeFixture.at(3600), since: HomeFixture.at(0), reason: "No activity since 00:00 in the kitchen")
        let failed = SilenceTrial(alarms: [alarm], days: 7, baseline: 0)
        func told() async throws -> [String] {
            try await home.store.messages(flat: home.flat.id, states: nil, from: nil, to: nil).filter { $0.key.hasPrefix(WatchTheClock.trialKey) }.map(\.text)
        }
        try await action.tell(passed, flat: home.flat, at: HomeFixture.at(60))
        try await action.tell(passed, flat: home.flat, at: HomeFixture.at(86400 + 60))  // the next night, or after a restart: the same verdict
        #expect(try await told().count == 1)
        try await action.tell(failed, flat: home.flat, at: HomeFixture.at(2 * 86400 + 60))
        let texts = try await told()
        #expect(texts.count == 2 && texts.first?.hasPrefix("What the home learned of the resident's quiets is no longer used: tried on 7") == true, "\(texts)")
        #expect(texts.first?.contains("such as \"No activity since 00:00 in the kitchen\"") == true)
    }
}
