import Foundation
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("E-mail and webhook channels against real servers", .serialized, .timeLimit(.minutes(3)), .timed)
struct ChannelTests {
    @Test("an e-mail reaches a real SMTP server with its headers, every recipient and a dot-stuffed body")
    func emailDelivered() async throws {
        let server = try await TestServer.smtp(user: "sade", password: "s3cret")
        defer { server.process.terminate() }
        let channel = EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: server.port, username: "sade", password: "s3cret", sender: "sade@hospital.test"))
        let notification = Notice(
            recipients: [.email("nurse@hospital.test"), .email("doctor@hospital.test"), .user("nurse1")], severity: .alarm,
            title: "SpO₂ 84 % — bed 7", body: "Oxygen saturation fell.\n.hidden line starts with a dot\n..two dots\nend", subject: "p-7")

        try await channel.deliver(notification)

        let mails = try server.received()
        try #require(mails.count == 1)
        #expect(mails[0]["mail_from"] as? String == "sade@hospital.test")
        #expect(mails[0]["rcpt_tos"] as? [String] == ["nurse@hospital.test", "doctor@hospital.test"])
        let data = try #require(mails[0]["data"] as? String)
        #expect(data.contains("To: <nurse@hospital.test>, <doctor@hospital.test>\r\n"))
        #expect(data.contains("From: SADE <sade@hospital.test>\r\n"))
        #expect(data.contains("Subject: =?UTF-8?B?\(Data("[ALARM] SpO₂ 84 % — bed 7".utf8).base64EncodedString())?=\r\n"))
        #expect(data.contains("Message-ID: <\(notification.id.uuidString.lowercased())@sade>\r\n"))
        #expect(data.contains("Content-Type: text/plain; charset=utf-8\r\n"))
        #expect(data.contains("X-SADE-Severity: alarm\r\n"))
        #expect(data.contains("\r\n\r\nOxygen saturation fell.\r\n.hidden line starts with a dot\r\n..two dots\r\nend\r\n\r\nAbout: p-7"))
    }

    @Test("STARTTLS upgrades the connection before authenticating; a server that demands it refuses plain text")
    func emailOverStartTLS() async throws {
        let server = try await TestServer.smtp(user: "sade", password: "s3cret", startTLS: true)
        defer { server.process.terminate() }
        let secure = EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: server.port, security: .startTLS(verifyCertificate: false), username: "sade", password: "s3cret",
            sender: "sade@hospital.test"))
        try await secure.deliver(Notice(recipients: [.email("icu@hospital.test")], severity: .warning, title: "TLS", body: "over TLS"))
        #expect((try server.received().first?["data"] as? String)?.contains("over TLS") == true)

        let plain = EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: server.port, username: "sade", password: "s3cret", sender: "sade@hospital.test"))
        await #expect(throws: ChannelError.self) {
            try await plain.deliver(Notice(recipients: [.email("icu@hospital.test")], severity: .warning, title: "plain", body: "b"))
        }
        #expect(try server.received().count == 1)
    }

    @Test("nothing in a notice can inject headers or SMTP commands; very long lines go as base64")
    func hostileContent() async throws {
        let server = try await TestServer.smtp()
        defer { server.process.terminate() }
        let channel = EmailChannel(SMTPConfiguration(host: "127.0.0.1", port: server.port, sender: "sade@hospital.test"))
        do {
            try await channel.deliver(Notice(recipients: [.email("a@b.test>\r\nRCPT TO:<evil@x.test")], severity: .alarm, title: "t", body: "b"))
            Issue.record("a recipient with CR LF must be refused")
        } catch let error as ChannelError {
            #expect(error.isPermanent)
        }
        let longLine = String(repeating: "ABCDEFGHIJ", count: 150)
        try await channel.deliver(Notice(
            recipients: [.email("ward@hospital.test")], severity: .warning, title: "Hi\r\nBcc: evil@x.test", body: "first\n" + longLine,
            subject: "p\r\nX-Injected: yes"))
        let mails = try server.received()
        try #require(mails.count == 1)
        #expect(mails[0]["rcpt_tos"] as? [String] == ["ward@hospital.test"])
        let data = try #require(mails[0]["data"] as? String)
        let head = String(data[..<(data.range(of: "\r\n\r\n")?.lowerBound ?? data.endIndex)])
        #expect(!head.contains("Bcc:") && !head.contains("X-Injected"))
        #expect(head.contains("Content-Transfer-Encoding: base64"))
        let encoded = String(data[(data.range(of: "\r\n\r\n")!.upperBound)...]).replacingOccurrences(of: "\r\n", with: "")
        let decoded = String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self)
        #expect(decoded.hasPrefix("first\r\n" + longLine))
        #expect(data.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 998 })
    }

    @Test("wrong SMTP credentials are a permanent failure with the server's reply")
    func emailWrongPassword() async throws {
        let server = try await TestServer.smtp(user: "sade", password: "s3cret")
        defer { server.process.terminate() }
        let channel = EmailChannel(SMTPConfiguration(
            host: "127.0.0.1", port: server.port, username: "sade", password: "wrong", sender: "sade@hospital.test"))
        do {
            try await channel.deliver(Notice(recipients: [.email("a@b.test")], severity: .information, title: "t", body: "b"))
            Issue.record("delivery must fail")
        } catch let error as ChannelError {
            #expect(error.isPermanent)
            #expect(error.reason.contains("535"))
        }
        #expect(try server.received().isEmpty)
    }

    @Test("an SMTP server that is down is a transient failure")
    func emailServerDown() async throws {
        let refused = try ReservedPort()
        defer { withExtendedLifetime(refused) {} }
        let channel = EmailChannel(SMTPConfiguration(host: "127.0.0.1", port: refused.port, sender: "sade@hospital.test"))
        do {
            try await channel.deliver(Notice(recipients: [.email("a@b.test")], severity: .information, title: "t", body: "b"))
            Issue.record("delivery must fail")
        } catch let error as ChannelError {
            #expect(!error.isPermanent)
            #expect(error.reason.contains("cannot connect"))
        }
    }

    @Test("a webhook receiver verifies the HMAC signature and gets the notification as JSON")
    func webhookSigned() async throws {
        let server = try await TestServer.webhook(secret: "hook-secret")
        defer { server.process.terminate() }
        let channel = WebhookChannel(url: "http://127.0.0.1:\(server.port)/alerts", secret: "hook-secret")
        let notification = Notice(recipients: [.user("nurse1")], severity: .warning, title: "RR 25", body: "Respiratory rate high", subject: "p-3")

        try await channel.deliver(notification)

        let posts = try server.received()
        try #require(posts.count == 1)
        #expect(posts[0]["id"] as? String == notification.id.uuidString)
        #expect(posts[0]["severity"] as? String == "warning")
        #expect(posts[0]["title"] as? String == "RR 25")
    }

    @Test("a webhook with the wrong secret is refused (401, permanent); a 503 is transient")
    func webhookRefusals() async throws {
        let strict = try await TestServer.webhook(secret: "right")
        defer { strict.process.terminate() }
        do {
            try await WebhookChannel(url: "http://127.0.0.1:\(strict.port)/", secret: "wrong")
                .deliver(Notice(recipients: [], severity: .information, title: "t", body: "b"))
            Issue.record("delivery must fail")
        } catch let error as ChannelError {
            #expect(error.isPermanent)
            #expect(error.reason.contains("401"))
        }
        #expect(try strict.received().isEmpty)

        let busy = try await TestServer.webhook(secret: nil, status: 503)
        defer { busy.process.terminate() }
        do {
            try await WebhookChannel(url: "http://127.0.0.1:\(busy.port)/").deliver(Notice(recipients: [], severity: .information, title: "t", body: "b"))
            Issue.record("delivery must fail")
        } catch let error as ChannelError {
            #expect(!error.isPermanent)
        }
    }

    @Test("the signature helper agrees with itself and refuses tampering")
    func signatureRoundTrip() {
        let body = Array("{\"a\":1}".utf8)
        let signature = WebhookSignature.sign(body, timestamp: 1_700_000_000, secret: "k")
        #expect(WebhookSignature.verify(signature, body: body, timestamp: 1_700_000_000, secret: "k"))
        #expect(!WebhookSignature.verify(signature, body: body, timestamp: 1_700_000_001, secret: "k"))
        #expect(!WebhookSignature.verify(signature, body: Array("{\"a\":2}".utf8), timestamp: 1_700_000_000, secret: "k"))
        #expect(!WebhookSignature.verify("sha256=zz", body: body, timestamp: 1_700_000_000, secret: "k"))
    }
}
