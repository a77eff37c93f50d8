import Foundation
import SADECore
@testable import SADENotification
import SADETestSupport
import Synchronization
import SADETestTiming
import Testing

/// A channel whose deliveries fail until told otherwise, keeping what it delivered.
final class SwitchableChannel: NotificationChannel {
    let name: String
    private let state: Mutex<(failing: Bool, permanent: Bool, delivered: [Notice])>

    init(name: String = "test", failing: Bool = true, permanent: Bool = false) {
        self.name = name
        state = Mutex((failing, permanent, []))
    }

    /// Like the real channels: one named `email` takes only notices with e-mail recipients.
    func accepts(_ notification: Notice) -> Bool { name != "email" || !notification.emailAddresses.isEmpty }

    func deliver(_ notification: Notice) async throws {
        let refusal: ChannelError? = state.withLock { state in
            if state.failing { return ChannelError(channel: name, reason: "down", isPermanent: state.permanent) }
            state.delivered.append(notification)
            return nil
        }
        if let refusal { throw refusal }
    }

    func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
    var delivered: [Notice] { state.withLock { $0.delivered } }
}

/// Test time: a manual clock and the date it starts at.
func manualTime(origin: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> (ManualClock, OutboxClock) {
    let clock = ManualClock()
    return (clock, OutboxClock(clock: PlatformClock(clock), origin: origin))
}

/// Reads an outbox's events until one matches.
func next(_ events: inout AsyncStream<OutboxEvent>.Iterator, where predicate: (OutboxEvent) -> Bool) async -> OutboxEvent? {
    while let event = await events.next() {
        if predicate(event) { return event }
    }
    return nil
}

@Suite("Durable outbox", .serialized, .timeLimit(.minutes(3)), .timed)
struct OutboxTests {
    static let quick = NotificationOutbox.Configuration(maxAttempts: 4, initialBackoff: .seconds(10), maximumBackoff: .seconds(60), jitter: 0)

    @Test("SMTP server down: retried with backoff, delivered exactly as queued once it is back", arguments: OutboxBackend.allCases)
    func smtpDownThenBack(_ backend: OutboxBackend) async throws {
        let reserved = try ReservedPort()  // refuses connections until the server below takes it over
        let port = reserved.port
        let (clock, time) = manualTime()
        let email = EmailChannel(SMTPConfiguration(host: "127.0.0.1", port: port, sender: "sade@hospital.test", timeout: .seconds(10)))
        let outbox = try await backend.outbox(channels: [email], configuration: Self.quick, clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        let alarm = Notice(recipients: [.email("icu@hospital.test")], severity: .alarm, title: "Bed 4: NEWS2 7", body: "Escalate now.\n.dot")
        try await outbox.send(alarm)

        guard case .failed(_, _, 1, _, let retryAt)? = await next(&events, where: { if case .failed = $0 { true } else { false } }) else {
            Issue.record("expected a failed attempt")
            return
        }
        #expect(retryAt == time.origin.addingTimeInterval(10))
        let server = try await TestServer.smtp(on: reserved)
        defer { server.process.terminate() }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))

        #expect(await next(&events, where: { if case .delivered = $0 { true } else { false } }) == .delivered(alarm.id, channel: "email"))
        let mails = try server.received()
        try #require(mails.count == 1)
        #expect((mails[0]["data"] as? String)?.contains("Escalate now.\r\n.dot\r\n") == true)
        let attempts = try await outbox.attempts(of: alarm.id)
        #expect(attempts.map(\.succeeded) == [false, true])
        #expect(try await outbox.deliveries(of: alarm.id).map(\.state) == [.delivered])
        await outbox.stop()
    }

    @Test("after a restart, undelivered notifications are resumed from the database", arguments: OutboxBackend.allCases)
    func resumedAfterRestart(_ backend: OutboxBackend) async throws {
        let place = try await backend.place()
        let (firstClock, firstTime) = manualTime()
        let broken = SwitchableChannel(failing: true)
        let first = try await backend.outbox(at: place, channels: [broken], configuration: Self.quick, clock: firstTime)
        var events = await first.events().makeAsyncIterator()
        await first.start()
        let notification = Notice(recipients: [.user("nurse1")], severity: .warning, title: "SpO2 91", body: "Check the patient")
        try await first.send(notification)
        _ = await next(&events, where: { if case .failed = $0 { true } else { false } })
        await first.stop()
        _ = firstClock

        let working = SwitchableChannel(failing: false)
        let (_, laterTime) = manualTime(origin: firstTime.origin.addingTimeInterval(3600))
        let second = try await backend.outbox(at: place, channels: [working], configuration: Self.quick, clock: laterTime)
        var resumed = await second.events().makeAsyncIterator()
        await second.start()
        #expect(await next(&resumed, where: { _ in true }) == .delivered(notification.id, channel: "test"))
        #expect(working.delivered == [notification])
        #expect(try await second.attempts(of: notification.id).map(\.succeeded) == [false, true])
        await second.stop()
    }

    @Test("after the configured number of attempts a delivery is dead, reported and kept", arguments: OutboxBackend.allCases)
    func deadLetter(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let broken = SwitchableChannel(failing: true)
        let outbox = try await backend.outbox(channels: [broken], configuration: Self.quick, clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        let notification = Notice(recipients: [.user("nurse1")], severity: .alarm, title: "t", body: "b")
        try await outbox.send(notification)

        for attempt in 1...3 {
            guard case .failed(_, _, attempt, _, _)? = await next(&events, where: { _ in true }) else {
                Issue.record("expected failed attempt \(attempt)")
                return
            }
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(60))
        }
        guard case .dead(let id, "test", let error)? = await next(&events, where: { _ in true }) else {
            Issue.record("expected a dead letter")
            return
        }
        #expect(id == notification.id)
        #expect(error.contains("down"))
        #expect(try await outbox.deadLetters().map(\.notificationID) == [notification.id])
        #expect(try await outbox.attempts(of: notification.id).count == 4)
        #expect(try await outbox.pendingCount() == 0)
        await outbox.stop()
    }

    @Test("a permanent refusal is dead at once; a duplicate of an open alert is not queued again", arguments: OutboxBackend.allCases)
    func permanentFailureAndDeduplication(_ backend: OutboxBackend) async throws {
        let (_, time) = manualTime()
        let refusing = SwitchableChannel(failing: true, permanent: true)
        let outbox = try await backend.outbox(channels: [refusing], configuration: Self.quick, clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        let first = Notice(recipients: [.user("n")], severity: .alarm, title: "HR 140", body: "b", deduplicationKey: "p1-hr")
        try await outbox.send(first)
        guard case .dead? = await next(&events, where: { _ in true }) else {
            Issue.record("expected a dead letter at once")
            return
        }
        let again = Notice(recipients: [.user("n")], severity: .alarm, title: "HR 141", body: "b", deduplicationKey: "p1-hr")
        #expect(try await outbox.send(again).id == again.id, "a dead alert reached nobody: it stands for nothing")
        await outbox.stop()
    }

    @Test("an alert that reached someone stands for its duplicates until acknowledged", arguments: OutboxBackend.allCases)
    func deduplicationOfOpenAlerts(_ backend: OutboxBackend) async throws {
        let (_, time) = manualTime()
        let working = SwitchableChannel(failing: false)
        let outbox = try await backend.outbox(channels: [working], configuration: Self.quick, clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        let first = Notice(recipients: [.user("n")], severity: .alarm, title: "HR 140", body: "b", deduplicationKey: "p1-hr")
        try await outbox.send(first)
        _ = await next(&events, where: { if case .delivered = $0 { true } else { false } })
        let again = Notice(recipients: [.user("n")], severity: .alarm, title: "HR 141", body: "b", deduplicationKey: "p1-hr")
        #expect(try await outbox.send(again).id == first.id, "the open alert stands for the duplicate")
        #expect(try await outbox.notification(again.id) == nil)
        try await outbox.acknowledge(first.id, by: "nurse1")
        #expect(try await outbox.send(again).id == again.id, "after acknowledgement a new episode is a new alert")
        await outbox.stop()
    }

    @Test("while a retry is due later the dispatcher waits: it does not spin", arguments: OutboxBackend.allCases)
    func dispatcherWaits(_ backend: OutboxBackend) async throws {
        let (clock, time) = manualTime()
        let broken = SwitchableChannel(failing: true)
        let outbox = try await backend.outbox(channels: [broken], configuration: Self.quick, clock: time)
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        try await outbox.send(Notice(recipients: [.user("n")], severity: .information, title: "t", body: "b"))
        _ = await next(&events, where: { if case .failed = $0 { true } else { false } })
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))  // the retry timer fires: the second attempt fails too
        _ = await next(&events, where: { if case .failed(_, _, 2, _, _) = $0 { true } else { false } })
        #expect(await Self.dispatcherSettles(outbox, clock: clock), "no pass of the dispatch loop without news")
        await outbox.stop()
        await outbox.start()  // restarted: still waits
        #expect(await Self.dispatcherSettles(outbox, clock: clock))
        await outbox.stop()
    }

    /// Whether the dispatcher comes to wait on its timer and makes no pass through 200
    /// turns of the executor, within a few tries (the news of the last attempt may wake
    /// it once more; a dispatcher that spins never settles).
    static func dispatcherSettles(_ outbox: NotificationOutbox, clock: ManualClock) async -> Bool {
        for _ in 0..<5 {
            await clock.waitForSleepers(1)
            let passes = await outbox.dispatchPasses
            for _ in 0..<200 { await Task.yield() }
            if await outbox.dispatchPasses == passes { return true }
        }
        return false
    }
}
