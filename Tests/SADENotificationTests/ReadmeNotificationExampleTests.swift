import Foundation
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("README: notifications", .timeLimit(.minutes(3)), .timed)
struct ReadmeNotificationExampleTests {
    @Test("the README's outbox and escalation example runs against local servers")
    func readmeExample() async throws {
        let smtp = try await TestServer.smtp()
        defer { smtp.process.terminate() }
        let hook = try await TestServer.webhook(secret: "hook-secret")
        defer { hook.process.terminate() }
        let directory = try TestServer.freshDirectory().path
        let hub = AppNotificationHub()

        let outbox = try NotificationOutbox(
            directory: directory,
            channels: [
                hub,
                EmailChannel(SMTPConfiguration(host: "127.0.0.1", port: smtp.port, sender: "sade@hospital.org")),
                WebhookChannel(url: "http://127.0.0.1:\(hook.port)/hooks/sade", secret: "hook-secret"),
            ])
        var events = await outbox.events().makeAsyncIterator()
        await outbox.start()
        var nurse = hub.subscribe(for: "nurse1").makeAsyncIterator()

        let desk = AlertDesk(outbox: outbox)
        let alarm = Notice(recipients: [.email("icu@hospital.org")], severity: .alarm, title: "Bed 7: NEWS2 8", body: "…",
                           subject: "p-7", deduplicationKey: "p-7-news2")
        try await desk.raise(alarm, policy: .nurseThenDoctorThenMail(
            nurses: ["nurse1"], doctors: ["doctor1"], mailingList: ["icu@hospital.org"]))
        #expect(await nurse.next()?.id == alarm.id)
        var delivered: Set<String> = []
        while delivered.count < 3, let event = await events.next() {
            if case .delivered(alarm.id, let channel) = event { delivered.insert(channel) }
        }
        #expect(delivered == ["app", "email", "webhook"])
        #expect(try await desk.acknowledge(alarm.id, by: "nurse1"))
        #expect(try smtp.received().count == 1)
        #expect(try hook.received().count == 1)
        await outbox.stop()
    }
}
