import Crypto
import Foundation
@testable import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Web Push: RFC 8291 encryption, RFC 8292 VAPID, the channel against a push service", .serialized, .timeLimit(.minutes(3)), .timed)
struct WebPushTests {
    /// RFC 8291, Appendix A.
    enum Example {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
            + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test("the RFC 8291 example is reproduced byte for byte")
    func rfc8291AppendixA() throws {
        let keys = try WebPushSubscription.Keys(p256dh: Example.receiverPublic, auth: Example.auth)
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: try #require(Base64URL.decode(Example.senderPrivate)))
        let body = try WebPushEncryption.encrypt(
            Array(Example.plaintext.utf8), to: keys, salt: Base64URL.decode(Example.salt), senderKey: sender)
        #expect(Base64URL.encode(body) == Example.body)
    }

    @Test("keys must be a 65-byte P-256 point and a 16-byte secret; a message over 4,096 bytes is refused")
    func validation() throws {
        let point = try #require(Base64URL.decode(Example.receiverPublic))
        let secret = try #require(Base64URL.decode(Example.auth))
        #expect(throws: WebPushError.invalidPublicKey) { try WebPushSubscription.Keys(p256dh: Array(point.dropLast()), auth: secret) }
        #expect(throws: WebPushError.invalidPublicKey) { try WebPushSubscription.Keys(p256dh: [2] + point.dropFirst(), auth: secret) }
        var offCurve = point
        offCurve[64] ^= 1
        #expect(throws: WebPushError.invalidPublicKey) { try WebPushSubscription.Keys(p256dh: offCurve, auth: secret) }
        #expect(throws: WebPushError.invalidAuthSecret) { try WebPushSubscription.Keys(p256dh: point, auth: secret + [0]) }
        #expect(throws: WebPushError.invalidPublicKey) { try WebPushSubscription.Keys(p256dh: "not base64!", auth: Example.auth) }
        let keys = try WebPushSubscription.Keys(p256dh: point, auth: secret)
        let largest = WebPushEncryption.maximumPlaintext
        #expect(try WebPushEncryption.encrypt([UInt8](repeating: 65, count: largest), to: keys).count == 4096)
        #expect(throws: WebPushError.payloadTooLarge(bytes: 4097, limit: 4096)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 65, count: largest + 1), to: keys)
        }
    }

    @Test("endpoints must be https and public unless private ones are allowed")
    func endpoints() throws {
        let strict = EndpointPolicy()
        #expect(throws: WebPushError.endpointNotHTTPS("http://push.example/x")) { try strict.check("http://push.example/x") }
        #expect(throws: WebPushError.endpointNotHTTPS("https://user:pw@93.184.216.34/x")) { try strict.check("https://user:pw@93.184.216.34/x") }
        for host in ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "[::1]", "[fe80::1]", "[fd00::1]", "[::ffff:10.0.0.1]", "[64:ff9b::a00:1]", "[2002:a00:1::]", "[::10.0.0.1]", "[fec0::1]", "localhost"] {
            #expect(throws: WebPushError.self, "\(host)") { try strict.check("https://\(host)/push") }
        }
        try strict.check("https://93.184.216.34/push/abc")
        try strict.check("https://[2606:4700::1111]:8443/push")
        try EndpointPolicy(allowsPrivateAddresses: true).check("https://127.0.0.1:9999/push")
        #expect(throws: WebPushError.endpointNotResolved(host: "push.invalid")) { try strict.check("https://push.invalid/x") }
    }

    @Test("the VAPID key is made once, readable by its owner only, and read back the same")
    func vapidKeyFile() throws {
        let directory = try TestServer.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try VAPIDKey.inDirectory(directory.path, contact: "mailto:ops@hospital.test")
        let again = try VAPIDKey.inDirectory(directory.path, contact: "mailto:ops@hospital.test")
        #expect(made.publicKey == again.publicKey)
        #expect(Base64URL.decode(made.publicKey)?.count == 65)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(VAPIDKey.fileName).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(throws: WebPushError.self) { try VAPIDKey.create(at: directory.appendingPathComponent(VAPIDKey.fileName).path, contact: "x") }
    }

    @Test("subscriptions are kept per account; the same endpoint again is one subscription", arguments: OutboxBackend.allCases)
    func subscriptionRecords(_ backend: OutboxBackend) async throws {
        let records = try await backend.pushSubscriptions()
        let keys = try WebPushSubscription.Keys(p256dh: Example.receiverPublic, auth: Example.auth)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await records.save(.init(account: "nurse1", endpoint: "https://push.example/a", keys: keys, device: "phone", createdAt: start))
        try await records.save(.init(account: "nurse1", endpoint: "https://push.example/b", keys: keys, device: "tablet", createdAt: start + 60))
        try await records.save(.init(account: "nurse2", endpoint: "https://push.example/c", keys: keys, device: "phone", createdAt: start + 120))
        #expect(try await records.subscriptions(of: "nurse1").map(\.device) == ["phone", "tablet"])
        #expect(try await records.subscriptions(of: "nurse1").first == .init(
            account: "nurse1", endpoint: "https://push.example/a", keys: keys, device: "phone", createdAt: start))
        // The tablet's browser is logged in as nurse2 now: its subscription moves.
        try await records.save(.init(account: "nurse2", endpoint: "https://push.example/b", keys: keys, device: "ward tablet", createdAt: start + 180))
        #expect(try await records.subscriptions(of: "nurse1").map(\.endpoint) == ["https://push.example/a"])
        #expect(try await records.subscriptions(of: "nurse2").map(\.device) == ["phone", "ward tablet"])
        #expect(try await records.remove(id: WebPushSubscription.id(of: "https://push.example/a")))
        #expect(try await !records.remove(id: WebPushSubscription.id(of: "https://push.example/a")))
        #expect(try await records.subscriptions(of: "nurse1").isEmpty)
        #expect(try await records.removeAll(of: "nurse2") == 2)
        #expect(try await records.subscriptions(of: "nurse2").isEmpty)
    }

    @Test("the lock screen's text leaves out the subject and is cut to fit a push, in bytes")
    func lockScreenText() throws {
        let notice = Notice(
            recipients: [.user("n1")], severity: .alarm, title: "NEWS2 12 (high): p-7", body: "p-7 NEWS2 12, red flag\nWhere: ICU, bed 7",
            subject: "p-7")
        let message = WebPushMessage(notice: notice)
        #expect(message.title == "NEWS2 12 (high)")
        #expect(message.body == "NEWS2 12, red flag\nWhere: ICU, bed 7")
        let long = WebPushMessage(notice: Notice(recipients: [], severity: .warning, title: "t", body: String(repeating: "€", count: 5000)))
        #expect(long.body.utf8.count <= WebPushMessage.bodyLimit && long.body.hasSuffix("…"))
        let keys = try WebPushSubscription.Keys(p256dh: Example.receiverPublic, auth: Example.auth)
        #expect(try WebPushEncryption.encrypt(long.encoded(), to: keys).count <= 4096)
    }

    @Test("Retry-After is read as seconds or as an HTTP date")
    func retryAfter() {
        #expect(WebPushChannel.retryAfter("7") == .seconds(7))
        #expect(WebPushChannel.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == .seconds(0))
        #expect(WebPushChannel.retryAfter("soon") == nil)
    }

    // MARK: Against the push service stand-in

    @Test("an alarm reaches the push service signed, encrypted for the browser alone, urgent, with its topic and actions")
    func alarmPushed() async throws {
        try await withPushService(subscribers: 2) { service, records, channel in
            let browsers = try service.pushSubscribers()
            for (index, browser) in browsers.enumerated() {
                try await records.save(WebPushSubscription(
                    account: "nurse1", endpoint: browser.endpoint, keys: try .init(p256dh: browser.p256dh, auth: browser.auth),
                    device: "phone \(index)", createdAt: Date()))
            }
            let alarm = Notice(
                recipients: [.user("nurse1"), .email("ward@hospital.test")], severity: .alarm, title: "SpO₂ 84 % — bed 7, ward A",
                body: "Oxygen saturation fell below 85 %.", deduplicationKey: "alert:p7:spo2")
            try await channel.deliver(alarm)
            let pushes = try service.received()
            try #require(pushes.count == 2)
            #expect(Set(pushes.compactMap { $0["subscriber"] as? String }) == ["s1", "s2"])
            for push in pushes {
                #expect(push["urgency"] as? String == "high")
                #expect(push["ttl"] as? String == "43200")
                #expect(push["contentEncoding"] as? String == "aes128gcm")
                #expect(push["topic"] as? String == WebPushMessage.topic(of: alarm))
                #expect((push["topic"] as? String)?.count == 32)
                #expect(push["vapidKey"] as? String == channel.key.publicKey)
                let payload = try #require(push["payload"] as? [String: Any])
                #expect(payload["title"] as? String == "SpO₂ 84 % — bed 7, ward A")
                #expect(payload["notice"] as? String == alarm.id.uuidString)
                #expect(payload["severity"] as? String == "alarm")
                let actions = try #require(payload["actions"] as? [[String: Any]])
                #expect(actions.compactMap { $0["action"] as? String } == ["acknowledge", "open"])
                #expect(actions.first?["token"] as? String == "token-for-nurse1")
            }
        } decoration: { _, account in ("/#alerts", [.init(action: "acknowledge", title: "Acknowledge", token: "token-for-\(account)"), .init(action: "open", title: "Open")]) }
    }

    @Test("a gone subscription (404, 410) is removed; a throttled one is retried after Retry-After, the others not pushed twice")
    func goneAndThrottled() async throws {
        try await withPushService(subscribers: 3) { service, records, channel in
            let browsers = try service.pushSubscribers()
            for browser in browsers {
                try await records.save(WebPushSubscription(
                    account: "nurse1", endpoint: browser.endpoint, keys: try .init(p256dh: browser.p256dh, auth: browser.auth), device: browser.name,
                    createdAt: Date()))
            }
            try service.answerPushes(to: "s1", with: [(410, nil)])
            try service.answerPushes(to: "s2", with: [(429, "1")])
            let outbox = NotificationOutbox(
                store: try SQLiteOutboxStore(directory: nil), channels: [channel],
                configuration: .init(maxAttempts: 4, initialBackoff: .milliseconds(50), jitter: 0))
            let events = await outbox.events()
            await outbox.start()
            let notice = try await outbox.send(Notice(recipients: [.user("nurse1")], severity: .warning, title: "NEWS2 6 — bed 3", body: "b"))
            var failedAt: Date?, retryAt: Date?
            for await event in events {
                if case .failed(_, _, _, let error, let at) = event {
                    #expect(error.contains("429"))
                    failedAt = Date()
                    retryAt = at
                }
                if case .delivered(let id, _) = event, id == notice.id { break }
            }
            await outbox.stop()
            let waited = try #require(retryAt).timeIntervalSince(try #require(failedAt))
            #expect(waited > 0.5, "the retry waits for Retry-After, not the 50 ms backoff")
            #expect(try await records.subscriptions(of: "nurse1").map(\.device) == ["s2", "s3"])
            let pushes = try service.received().compactMap { $0["subscriber"] as? String }
            #expect(pushes.sorted() == ["s2", "s3"], "s3 took it once; s2 after its retry; s1 is gone")
        }
    }

    @Test("a push the service could not take survives a restart of the outbox and goes out after it")
    func survivesRestart() async throws {
        try await withPushService(subscribers: 1) { service, records, channel in
            let browser = try #require(try service.pushSubscribers().first)
            try await records.save(WebPushSubscription(
                account: "carer1", endpoint: browser.endpoint, keys: try .init(p256dh: browser.p256dh, auth: browser.auth), device: "phone",
                createdAt: Date()))
            try service.answerPushes(to: "s1", with: [(503, nil)])
            let directory = try TestServer.freshDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let configuration = NotificationOutbox.Configuration(initialBackoff: .milliseconds(50), jitter: 0)
            let first = NotificationOutbox(store: try SQLiteOutboxStore(directory: directory.path), channels: [channel], configuration: configuration)
            let events = await first.events()
            await first.start()
            let notice = try await first.send(Notice(recipients: [.user("carer1")], severity: .alarm, title: "Fall suspected — flat 2", body: "b"))
            for await event in events { if case .failed = event { break } }
            await first.stop()
            #expect(try service.received().isEmpty)

            let second = NotificationOutbox(store: try SQLiteOutboxStore(directory: directory.path), channels: [channel], configuration: configuration)
            let later = await second.events()
            await second.start()
            for await event in later { if case .delivered(let id, _) = event, id == notice.id { break } }
            await second.stop()
            let pushes = try service.received()
            #expect(pushes.count == 1)
            #expect((pushes.first?["payload"] as? [String: Any])?["notice"] as? String == notice.id.uuidString)
        }
    }

    /// Runs `body` with a push service stand-in, a subscription store and a channel
    /// trusting the stand-in's CA.
    private func withPushService(
        subscribers: Int, _ body: (TestServer, any PushSubscriptionRecords, WebPushChannel) async throws -> Void,
        decoration: @escaping WebPushChannel.Decoration = { _, _ in ("/", []) }
    ) async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let service = try await TestServer.pushService(subscribers: subscribers, authority: authority)
        defer { service.process.terminate() }
        let records = try SQLiteOutboxStore(directory: nil).pushSubscriptions
        let channel = WebPushChannel(
            subscriptions: records, key: VAPIDKey(contact: "mailto:ops@hospital.test"), policy: EndpointPolicy(allowsPrivateAddresses: true),
            trustedCAFile: authority.certificateAuthority, decoration: decoration)
        do {
            try await body(service, records, channel)
        } catch {
            await channel.shutdown()
            throw error
        }
        await channel.shutdown()
    }
}
