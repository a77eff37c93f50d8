import Foundation
import SADECore
@testable import SADENotification
import SADETestSupport
import Synchronization
import SADETestTiming
import Testing

/// A channel shared by several nodes' outboxes in a test: records every delivery, in
/// order, and tells a waiting test about each.
final class RecordingChannel: NotificationChannel {
    let name: String
    private let state = Mutex<[UUID]>([])
    let deliveries: AsyncStream<UUID>
    private let continuation: AsyncStream<UUID>.Continuation

    init(name: String = "test") {
        self.name = name
        (deliveries, continuation) = AsyncStream.makeStream(of: UUID.self)
    }

    func accepts(_ notification: Notice) -> Bool { true }

    func deliver(_ notification: Notice) async throws {
        state.withLock { $0.append(notification.id) }
        continuation.yield(notification.id)
    }

    var delivered: [UUID] { state.withLock { $0 } }
}

/// A channel whose deliveries never end until their task is cancelled: a node stuck
/// in an attempt, or one that died in it.
final class StuckChannel: NotificationChannel {
    let name = "test"
    private let started: AsyncStream<UUID>.Continuation
    let attempts: AsyncStream<UUID>

    init() {
        (attempts, started) = AsyncStream.makeStream(of: UUID.self)
    }

    func accepts(_ notification: Notice) -> Bool { true }

    func deliver(_ notification: Notice) async throws {
        started.yield(notification.id)
        try await Task.sleep(for: .seconds(365 * 86_400))  // ends only by cancellation
    }
}

/// Returns once `condition` holds, giving way to other work between looks (or when the
/// test is cancelled at its time limit: the expectations that follow then fail).
func until(_ condition: () async throws -> Bool) async rethrows {
    while try await !condition(), !Task.isCancelled { await Task.yield() }
}

@Suite("One outbox in PostgreSQL shared by several nodes", .serialized, .timeLimit(.minutes(3)), .timed)
struct SharedOutboxTests {
    @Test("two nodes dispatching from one database deliver every notice once, whichever node accepted it")
    func eachDeliveryOnce() async throws {
        let place = try await OutboxBackend.postgres.place()
        let channel = RecordingChannel()
        let quickLooks = NotificationOutbox.Configuration(pollInterval: .milliseconds(20))
        let first = try await OutboxBackend.postgres.outbox(at: place, channels: [channel], configuration: quickLooks, clock: .system)
        let second = try await OutboxBackend.postgres.outbox(at: place, channels: [channel], configuration: quickLooks, clock: .system)
        await first.start()
        await second.start()
        var sent: [UUID] = []
        for index in 0..<40 {
            let notice = Notice(recipients: [.user("nurse\(index % 3)")], severity: .information, title: "reading \(index)", body: "b")
            sent.append(try await (index.isMultiple(of: 2) ? first : second).send(notice).id)
        }
        var arrivals = channel.deliveries.makeAsyncIterator()
        for _ in sent { _ = await arrivals.next() }
        await first.stop()
        await second.stop()
        #expect(channel.delivered.count == sent.count)
        #expect(Set(channel.delivered) == Set(sent), "every notice delivered, none twice")
        for id in sent { #expect(try await first.attempts(of: id).count == 1) }
        #expect(try await second.pendingCount() == 0)
    }

    @Test("two outboxes on one database with different channels (the monitoring's, the issue track's e-mail) each take only their own deliveries")
    func eachTakesItsOwnChannels() async throws {
        let place = try await OutboxBackend.postgres.place()
        let (app, email) = (RecordingChannel(name: "app"), RecordingChannel(name: "email"))
        let quickLooks = NotificationOutbox.Configuration(pollInterval: .milliseconds(20))
        let monitoring = try await OutboxBackend.postgres.outbox(at: place, channels: [app], configuration: quickLooks, clock: .system)
        let issueTrack = try await OutboxBackend.postgres.outbox(at: place, channels: [email], configuration: quickLooks, clock: .system)
        let mail = try await issueTrack.send(Notice(recipients: [.email("tony@acme.example")], severity: .warning, title: "issue #3", body: "b"))
        await monitoring.start()
        let alert = try await monitoring.send(Notice(recipients: [.user("nurse1")], severity: .alarm, title: "HR 150", body: "b"))
        var arrivals = app.deliveries.makeAsyncIterator()
        #expect(await arrivals.next() == alert.id)
        let passes = await monitoring.dispatchPasses
        await until { await monitoring.dispatchPasses >= passes + 3 }  // it looked again, and again
        #expect(try await monitoring.attempts(of: mail.id).isEmpty, "the e-mail is not the monitoring outbox's to try")
        #expect(try await issueTrack.deliveries(of: mail.id).map(\.state) == [.pending])

        await issueTrack.start()
        var mails = email.deliveries.makeAsyncIterator()
        #expect(await mails.next() == mail.id)
        await issueTrack.stop()
        await monitoring.stop()
        #expect(app.delivered == [alert.id] && email.delivered == [mail.id])
    }

    @Test("what a dead node held is delivered by another once the hold runs out, not before")
    func deadNodesHoldRunsOut() async throws {
        let place = try await OutboxBackend.postgres.place()
        let (deadClock, deadTime) = manualTime()
        let (clock, time) = manualTime()
        let stuck = StuckChannel()
        let hold = NotificationOutbox.Configuration(hold: .seconds(60), pollInterval: .seconds(5))
        let dying = try await OutboxBackend.postgres.outbox(at: place, channels: [stuck], configuration: hold, clock: deadTime)
        await dying.start()
        let notice = Notice(recipients: [.user("nurse1")], severity: .alarm, title: "HR 150", body: "b")
        try await dying.send(notice)
        var started = stuck.attempts.makeAsyncIterator()
        #expect(await started.next() == notice.id, "the first node holds the delivery, and never finishes it")
        _ = deadClock

        let channel = RecordingChannel()
        let survivor = try await OutboxBackend.postgres.outbox(at: place, channels: [channel], configuration: hold, clock: time)
        var outcomes = await survivor.events().makeAsyncIterator()
        await survivor.start()
        await clock.waitForSleepers(1)  // the survivor looked, found it held, and waits
        clock.advance(by: .seconds(55))
        await clock.waitForSleepers(1)
        #expect(channel.delivered.isEmpty, "held for 60 s")
        clock.advance(by: .seconds(5))
        #expect(await outcomes.next() == .delivered(notice.id, channel: "test"))
        #expect(try await survivor.deliveries(of: notice.id).map(\.state) == [.delivered])
        #expect(try await survivor.attempts(of: notice.id).map(\.succeeded) == [true])
        await survivor.stop()
        await dying.stop()
        #expect(channel.delivered == [notice.id])
    }

    @Test("notices with one deduplication key sent on two nodes at once are stored once")
    func deduplicationAcrossNodes() async throws {
        let place = try await OutboxBackend.postgres.place()
        let (_, time) = manualTime()
        let first = try await OutboxBackend.postgres.outbox(at: place, channels: [RecordingChannel()], clock: time)
        let second = try await OutboxBackend.postgres.outbox(at: place, channels: [RecordingChannel()], clock: time)
        let stored = try await withThrowingTaskGroup(of: UUID.self) { group in
            for index in 0..<12 {
                let notice = Notice(recipients: [.user("nurse1")], severity: .alarm, title: "SpO2 \(80 + index)", body: "b", deduplicationKey: "p-9-spo2")
                group.addTask { try await (index.isMultiple(of: 2) ? first : second).send(notice).id }
            }
            return try await group.reduce(into: Set<UUID>()) { $0.insert($1) }
        }
        #expect(stored.count == 1, "one notice stands for all twelve")
        #expect(try await first.pendingCount() == 1)
    }

    @Test("an escalation step is taken once across nodes, and an acknowledgement on either stops it on both")
    func escalationAcrossNodes() async throws {
        let place = try await OutboxBackend.postgres.place()
        let (clockA, timeA) = manualTime()
        let (clockB, timeB) = manualTime()
        let hubA = AppNotificationHub(), hubB = AppNotificationHub()
        let nodeA = try await OutboxBackend.postgres.outbox(at: place, channels: [hubA], clock: timeA)
        let nodeB = try await OutboxBackend.postgres.outbox(at: place, channels: [hubB], clock: timeB)
        await nodeA.start()
        await nodeB.start()
        let deskA = AlertDesk(outbox: nodeA), deskB = AlertDesk(outbox: nodeB)
        var doctorOnA = hubA.subscribe(for: "doctor1").makeAsyncIterator()
        let alarm = Notice(recipients: [], severity: .alarm, title: "Bed 3: NEWS2 9", body: "b")
        try await deskA.raise(alarm, policy: EscalationTests.policy)
        #expect(try await deskB.resume() == 1, "the other node escalates the alert too, in case the first dies")

        await clockA.waitForSleepers(2)  // A's step timer and its dispatcher's look
        clockA.advance(by: .seconds(300))
        let escalated = try #require(await doctorOnA.next())
        #expect(escalated.title == "Escalated: Bed 3: NEWS2 9")
        await clockB.waitForSleepers(2)
        clockB.advance(by: .seconds(300))  // B's timer fires for the same step: already taken, so on to the next
        await clockB.waitForSleepers(2)  // B's timer for the mailing list, and its dispatcher's look
        #expect(await deskB.isEscalating(alarm.id))
        #expect(try await nodeB.escalations(of: alarm.id).map(\.step) == [0, 1])

        #expect(try await deskB.acknowledge(escalated.id, by: "doctor1"), "acknowledged on the other node")
        await clockA.waitForSleepers(2)
        clockA.advance(by: .seconds(600))  // A's timer fires for the mailing list: acknowledged, nothing sent
        await until { await !deskA.isEscalating(alarm.id) }
        #expect(try await nodeA.escalations(of: alarm.id).map(\.step) == [0, 1])
        #expect(try await nodeA.acknowledgement(of: alarm.id)?.worker == "doctor1")
        await nodeA.stop()
        await nodeB.stop()
    }
}
