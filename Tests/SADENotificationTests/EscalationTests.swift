import Foundation
import SADECore
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Acknowledgement and escalation", .timeLimit(.minutes(3)), .timed)
struct EscalationTests {
    static let policy = EscalationPolicy.nurseThenDoctorThenMail(
        nurses: ["nurse1"], doctors: ["doctor1"], mailingList: ["icu@hospital.test"], doctorAfter: .seconds(300), mailAfter: .seconds(900))

    @Test("an unacknowledged alarm goes to the nurse, then the doctor after 5 minutes, then the sector list", arguments: OutboxBackend.allCases)
    func escalatesStepByStep(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let hub = AppNotificationHub()
        let mail = SwitchableChannel(name: "email", failing: false)
        let outbox = try await backend.outbox(channels: [hub, mail], clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        var nurse = hub.subscribe(for: "nurse1").makeAsyncIterator()
        var doctor = hub.subscribe(for: "doctor1").makeAsyncIterator()

        let alarm = Notice(recipients: [], severity: .alarm, title: "Bed 7: NEWS2 8", body: "b", subject: "p-7")
        try await desk.raise(alarm, policy: Self.policy)
        #expect(await nurse.next()?.id == alarm.id)

        await clock.waitForSleepers(1 + backend.idleSleepers)
        clock.advance(by: .seconds(299))
        #expect(try await outbox.escalations(of: alarm.id).count == 1, "not before five minutes")
        clock.advance(by: .seconds(1))
        let escalated = try #require(await doctor.next())
        #expect(escalated.title == "Escalated: Bed 7: NEWS2 8")
        #expect(escalated.recipients == [.user("doctor1")])

        await clock.waitForSleepers(1 + backend.idleSleepers)
        clock.advance(by: .seconds(600))
        let mailed = await next(&events) { if case .delivered(_, "email") = $0 { true } else { false } }
        #expect(mail.delivered.map(\.id) == [mailed.flatMap { if case .delivered(let id, _) = $0 { id } else { nil } }])
        let steps = try await outbox.escalations(of: alarm.id)
        #expect(steps.map(\.step) == [0, 1, 2])
        #expect(steps.map(\.at) == [0, 300, 900].map { time.origin.addingTimeInterval($0) })
        #expect(steps[2].recipients == [.email("icu@hospital.test")])
        await outbox.stop()
    }

    @Test("the steps of several alerts are read in one go, each alert's in order; an alert without any is absent", arguments: OutboxBackend.allCases)
    func stepsOfSeveralAlerts(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let outbox = try await backend.outbox(channels: [AppNotificationHub()], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        let first = Notice(recipients: [], severity: .alarm, title: "Bed 7: NEWS2 8", body: "b", subject: "p-7")
        let second = Notice(recipients: [], severity: .warning, title: "Bed 8: SpO2 90", body: "b", subject: "p-8")
        try await desk.raise(first, policy: Self.policy)
        await clock.waitForSleepers(1 + backend.idleSleepers)
        clock.advance(by: .seconds(300))  // the first goes to the doctor
        try await until { try await outbox.escalations(of: first.id).count == 2 }
        try await desk.raise(second, policy: Self.policy)
        let unknown = UUID()
        let steps = try await outbox.escalations(of: [second.id, unknown, first.id])
        #expect(Set(steps.keys) == [first.id, second.id])
        #expect(steps[first.id]?.map(\.step) == [0, 1] && steps[second.id]?.map(\.step) == [0])
        let alone = try await outbox.escalations(of: first.id)
        #expect(steps[first.id] == alone, "as read one by one")
        #expect(try await outbox.escalations(of: []).isEmpty)
        await outbox.stop()
    }

    @Test("a new alert tells the step it took as the outbox keeps it, with no read; a duplicate leaves its steps to a read", arguments: OutboxBackend.allCases)
    func stepsTakenWhenRaised(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let outbox = try await backend.outbox(channels: [AppNotificationHub()], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        clock.advance(by: .milliseconds(1_234))  // a time with a fraction of a second
        let alarm = Notice(recipients: [], severity: .alarm, title: "Bed 7: NEWS2 8", body: "b", subject: "p-7", deduplicationKey: "p-7-news2")
        let raised = try await desk.raiseAlert(alarm, policy: Self.policy)
        #expect(raised.notice.id == alarm.id)
        #expect(raised.stepsTaken?.map(\.step) == [0])
        #expect(raised.stepsTaken == (try await outbox.escalations(of: alarm.id)), "what a read gives")
        let quiet = Notice(recipients: [], severity: .warning, title: "Bed 8: SpO2 90", body: "b", subject: "p-8")
        let later = EscalationPolicy([.init(after: .seconds(300), notify: [.user("doctor1")])])
        #expect(try await desk.raiseAlert(quiet, policy: later).stepsTaken == [], "no step at once")
        let again = Notice(recipients: [], severity: .alarm, title: "Bed 7: NEWS2 9", body: "b", subject: "p-7", deduplicationKey: "p-7-news2")
        let duplicate = try await desk.raiseAlert(again, policy: Self.policy)
        #expect(duplicate.notice.id == alarm.id && duplicate.stepsTaken == nil)
        let info = Notice(recipients: [.user("nurse1")], severity: .information, title: "Bed 9 discharged", body: "b")
        #expect(try await desk.raiseAlert(info, policy: Self.policy).stepsTaken == [], "information is just sent")
        await outbox.stop()
    }

    @Test("acknowledging stops the escalation; the first acknowledgement counts", arguments: OutboxBackend.allCases)
    func acknowledgementStops(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let hub = AppNotificationHub()
        let outbox = try await backend.outbox(channels: [hub], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        let alarm = Notice(recipients: [], severity: .alarm, title: "SpO2 85", body: "b")
        try await desk.raise(alarm, policy: Self.policy)
        #expect(try await outbox.openAlerts().map(\.id) == [alarm.id])

        await clock.waitForSleepers(1 + backend.idleSleepers)
        clock.advance(by: .seconds(120))
        #expect(try await desk.acknowledge(alarm.id, by: "nurse1"))
        #expect(try await !desk.acknowledge(alarm.id, by: "doctor1"))
        #expect(try await outbox.acknowledgement(of: alarm.id)?.worker == "nurse1")
        #expect(try await outbox.acknowledgement(of: alarm.id)?.at == time.origin.addingTimeInterval(120))
        #expect(try await outbox.openAlerts().isEmpty)
        #expect(await desk.escalatingCount == 0)
        #expect(clock.sleeperCount <= backend.idleSleepers, "the escalation no longer waits for its next step (a shared outbox's look may)")
        clock.advance(by: .seconds(3600))
        #expect(try await outbox.escalations(of: alarm.id).map(\.step) == [0])
        await #expect(throws: NotificationError.unknownNotification(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)) {
            try await desk.acknowledge(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, by: "x")
        }
        await outbox.stop()
    }

    @Test("acknowledging the notice the doctor received stops the alert's escalation", arguments: OutboxBackend.allCases)
    func acknowledgingAnEscalationNotice(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let hub = AppNotificationHub()
        let mail = SwitchableChannel(name: "email", failing: false)
        let outbox = try await backend.outbox(channels: [hub, mail], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        var doctor = hub.subscribe(for: "doctor1").makeAsyncIterator()
        let alarm = Notice(recipients: [], severity: .alarm, title: "RR 30", body: "b")
        try await desk.raise(alarm, policy: Self.policy)
        await clock.waitForSleepers(1 + backend.idleSleepers)
        clock.advance(by: .seconds(300))
        let escalated = try #require(await doctor.next())
        #expect(try await desk.acknowledge(escalated.id, by: "doctor1"))
        #expect(try await outbox.acknowledgement(of: alarm.id)?.worker == "doctor1")
        #expect(await desk.escalatingCount == 0)
        #expect(clock.sleeperCount <= backend.idleSleepers)
        clock.advance(by: .seconds(3600))
        #expect(mail.delivered.isEmpty, "the mailing list is not bothered")
        await outbox.stop()
    }

    @Test("after a restart, open alerts go on escalating where they stood", arguments: OutboxBackend.allCases)
    func escalationResumedAfterRestart(_ backend: OutboxBackend) async throws {
        let place = try await backend.place()
        let (firstClock, firstTime) = manualTime()
        let hub = AppNotificationHub()
        let first = try await backend.outbox(at: place, channels: [hub], clock: firstTime)
        await first.start()
        var doctor = hub.subscribe(for: "doctor1").makeAsyncIterator()
        let alarm = Notice(recipients: [], severity: .alarm, title: "SBP 85", body: "b")
        try await AlertDesk(outbox: first).raise(alarm, policy: Self.policy)
        await firstClock.waitForSleepers(1 + backend.idleSleepers)
        firstClock.advance(by: .seconds(300))  // the doctor step is taken …
        _ = await doctor.next()
        #expect(try await first.escalations(of: alarm.id).map(\.step) == [0, 1])
        await first.stop()  // … then the process goes away

        let (secondClock, laterTime) = manualTime(origin: firstTime.origin.addingTimeInterval(600))
        let mail = SwitchableChannel(name: "email", failing: false)
        let second = try await backend.outbox(at: place, channels: [AppNotificationHub(), mail], clock: laterTime)
        var resumedEvents = await second.events().makeAsyncIterator()
        await second.start()
        let desk = AlertDesk(outbox: second)
        #expect(try await desk.resume() == 1)
        await secondClock.waitForSleepers(1 + backend.idleSleepers)
        secondClock.advance(by: .seconds(300))  // 900 s after raising: the mailing list
        _ = await next(&resumedEvents, where: { if case .delivered(_, "email") = $0 { true } else { false } })
        #expect(try await second.escalations(of: alarm.id).map(\.step) == [0, 1, 2])
        #expect(mail.delivered.first?.recipients == [.email("icu@hospital.test")])
        await second.stop()
    }

    @Test("raising the same problem again while it escalates starts no second chain", arguments: OutboxBackend.allCases)
    func reraisingAnEscalatingAlert(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let outbox = try await backend.outbox(channels: [AppNotificationHub()], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        let later = EscalationPolicy([.init(after: .seconds(300), notify: [.user("doctor1")])])  // nobody at once: no delivery
        let first = Notice(recipients: [], severity: .alarm, title: "HR 150", body: "b", deduplicationKey: "p-2-hr")
        #expect(try await desk.raise(first, policy: later).id == first.id)
        let again = Notice(recipients: [], severity: .alarm, title: "HR 152", body: "b", deduplicationKey: "p-2-hr")
        #expect(try await desk.raise(again, policy: later).id == first.id, "the escalating alert stands for it")
        #expect(try await desk.raise(first, policy: later).id == first.id, "the very same notice again is no error")
        #expect(await desk.escalatingCount == 1)
        await clock.waitForSleepers(1 + backend.idleSleepers)
        #expect(clock.sleeperCount == 1 + backend.idleSleepers, "one chain waits for its step")
        await outbox.stop()
    }
}
