import Foundation
import SADEIssueTrack
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("The e-mail fallback against a real SMTP server (aiosmtpd)", .serialized, .timeLimit(.minutes(3)), .timed)
struct EmailFallbackTests {
    @Test("nobody connected offers the service: one mail to everyone offering it, with the issue and whom to call")
    func mailsEveryoneOfferingTheService() async throws {
        let server = try await TestServer.smtp()
        let office = try await Office(mail: EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: server.port, sender: "issues@acme.example", timeout: .seconds(10))))
        let robert = try await office.reporter()
        let round = try await robert.register(Office.issue(.high, dueInHours: 30, service: "prototyping", title: "Demo prototype"))
        await office.outbox.stop()
        await server.stop()

        #expect(round.result == .emailed(to: ["julia@acme.example", "pedro@acme.example"], delivery: .delivered))
        let mails = try server.received()
        try #require(mails.count == 1)
        #expect(mails[0]["mail_from"] as? String == "issues@acme.example")
        #expect(mails[0]["rcpt_tos"] as? [String] == ["julia@acme.example", "pedro@acme.example"])
        let data = try #require(mails[0]["data"] as? String)
        #expect(data.contains("Subject: [WARNING] Issue #3 \"Demo prototype\" needs someone for prototyping"))
        #expect(data.contains("No colleague offering prototyping is connected"))
        #expect(data.contains("robert@acme.example"))
    }

    @Test("everyone asked refuses: the mail names them and goes to everyone offering the service, away or not")
    func mailsWhenEveryoneRefuses() async throws {
        let server = try await TestServer.smtp()
        let office = try await Office(mail: EmailChannel(SMTPConfiguration(host: "127.0.0.1", port: server.port, sender: "issues@acme.example")))
        let robert = try await office.reporter()
        _ = try await office.colleague("maria")  // busy with a critical issue due tomorrow
        _ = try await office.colleague("tony", connected: false)
        let round = try await robert.register(Office.issue(.critical, dueInHours: 3))
        await office.outbox.stop()
        await server.stop()

        #expect(round.refusals.keys.sorted() == ["maria", "tony"])
        #expect(round.result == .emailed(to: ["maria@acme.example", "pedro@acme.example", "tony@acme.example"], delivery: .delivered))
        let data = try #require(try server.received().first?["data"] as? String)
        #expect(data.contains("Subject: [ALARM] Issue #3 \"Core switch down\""))
        #expect(data.contains("None of the colleagues asked (maria, tony) could take it."))
    }

    @Test("the mail server is down: the round says the outbox retries, with the error")
    func mailServerDown() async throws {
        let refused = try ReservedPort()
        defer { withExtendedLifetime(refused) {} }
        let office = try await Office(mail: EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: refused.port, sender: "issues@acme.example", timeout: .seconds(5))))
        let robert = try await office.reporter()
        let round = try await robert.register(Office.issue(.critical, dueInHours: 3, service: "prototyping"))
        await office.outbox.stop()
        guard case .emailed(let addresses, .retrying(let error)) = round.result else {
            Testing.Issue.record("expected a retried e-mail, got \(round.result)")
            return
        }
        #expect(addresses == ["julia@acme.example", "pedro@acme.example"])
        #expect(!error.isEmpty)
        #expect(try await office.outbox.pendingCount() == 1)
    }
}
