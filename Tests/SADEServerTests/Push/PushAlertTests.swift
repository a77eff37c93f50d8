import Foundation
import SADEHealth
import SADEHome
import SADEMonitoring
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing

@Suite("An alert on the nurse's phone: Web Push from the monitoring server", .serialized, .timeLimit(.minutes(3)), .timed)
struct PushAlertTests {
    @Test("""
        a nurse's browser subscribes through the API; her patient's alert reaches its push service, naming no patient; \
        Acknowledge on the lock screen acknowledges it once, as her, in the audit trail
        """)
    func alertReachesThePhone() async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let service = try await TestServer.pushService(subscribers: 1, authority: authority)
        defer { service.process.terminate() }
        let browser = try #require(try service.pushSubscribers().first)
        let push = PushConfiguration(
            key: VAPIDKey(contact: "mailto:ops@hospital.test"), policy: EndpointPolicy(allowsPrivateAddresses: true),
            trustedCAFile: authority.certificateAuthority)
        try await ServerHarness.run(push: push) { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await harness.system.health.save(HealthCareWorker(id: "nurse1", name: "Nina", role: .nurse, sectors: ["covid-ward"], onDuty: true))
            try await harness.system.staffChanged()
            let key = try await harness.request(.get, "/api/v1/push/key")
            #expect(key.object?["publicKey"] as? String == push.key.publicKey)
            let subscribed = try await harness.request(
                .post, "/api/v1/push/subscriptions", token: ward.nurse1,
                json: BrowserSubscription(browser))
            try #require(subscribed.status == .created, "\(subscribed.text)")

            let events = await harness.system.outbox.events()
            let posted = try await harness.request(
                .post, "/api/v1/patients/patient-01/observations", token: ward.admin, json: AlertFlowTests.deteriorated(at: harness.system.now()))
            try #require(posted.status == .created, "\(posted.text)")
            await harness.system.pipeline.settle()
            for await event in events { if case .delivered(_, "push") = event { break } }

            let alerts = try await harness.request(.get, "/api/v1/alerts?status=all&patient=patient-01", token: ward.nurse1)
            let alert = try #require((alerts.array?.first as? [String: Any]), "\(alerts.text)")
            let pushes = try service.received()
            try #require(pushes.count == 1)
            let payload = try #require(pushes[0]["payload"] as? [String: Any])
            #expect(payload["notice"] as? String == alert["id"] as? String)
            #expect(payload["title"] as? String == "NEWS2 12 (high)", "the alert's title without the patient's id")
            #expect(pushes[0]["urgency"] as? String == (alert["severity"] as? String == "alarm" ? "high" : "normal"))
            let text = "\(payload["title"] ?? "") \(payload["body"] ?? "")"
            #expect(!text.contains("Paul") && !text.contains("patient-01"), "the lock screen names no patient: \(text)")
            #expect(text.contains("bed 3") || text.contains("Bed 3"), "it names the bed: \(text)")

            // The lock screen's buttons: Acknowledge with its one-time token, and Open.
            let actions = try #require(payload["actions"] as? [[String: Any]])
            #expect(actions.compactMap { $0["action"] as? String } == ["acknowledge", "open"])
            let token = try #require(actions.first?["token"] as? String)
            var forged = Array(token)
            forged[forged.count / 3] = forged[forged.count / 3] == "A" ? "B" : "A"
            let refused = try await harness.request(.post, "/api/v1/push/actions", json: ["token": String(forged)])
            #expect(refused.status == .unauthorized, "\(refused.text)")
            let pressed = try await harness.request(.post, "/api/v1/push/actions", json: ["token": token])
            #expect(pressed.status == .ok, "\(pressed.text)")
            #expect((pressed.object?["message"] as? String)?.hasPrefix("Acknowledged") == true)
            let after = try await harness.request(.get, "/api/v1/alerts/\(alert["id"] as? String ?? "")", token: ward.nurse1)
            #expect(after.object?["acknowledgedBy"] as? String == "nurse1")
            let again = try await harness.request(.post, "/api/v1/push/actions", json: ["token": token])
            #expect(again.status == .conflict, "a token is good once: \(again.text)")
            let audit = try await harness.request(.get, "/api/v1/audit?actor=nurse1&patient=patient-01", token: ward.admin)
            #expect(audit.text.contains("acknowledged from a notification"), "\(audit.text)")

            // Sessions ended (a lost phone): the buttons of earlier pushes stop working.
            let before = try #require(harness.system.pushActions).issue("acknowledge", notice: UUID(), account: "nurse1", now: harness.system.now())
            harness.clock.advance(by: .seconds(5))
            let nurse = try #require(try await harness.system.accounts.account(username: "nurse1"))
            try await harness.system.accounts.endSessions(of: nurse.id, at: harness.system.now())
            let lost = try await harness.request(.post, "/api/v1/push/actions", json: ["token": before])
            #expect(lost.status == .unauthorized && lost.text.contains("credentials"), "\(lost.text)")

            // A token's life is 30 minutes.
            let late = try #require(harness.system.pushActions).issue("acknowledge", notice: UUID(), account: "nurse1", now: harness.system.now())
            harness.clock.advance(by: .seconds(31 * 60))
            let expired = try await harness.request(.post, "/api/v1/push/actions", json: ["token": late])
            #expect(expired.status == .unauthorized && expired.text.contains("expired"), "\(expired.text)")
        }
    }
}

extension PushAlertTests {
    @Test("a flat's smoke alarm reaches its carer's phone with Confirm (the resident's relative's without); pressing it confirms the message as her, once")
    func homeAlarmConfirmedFromThePhone() async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let service = try await TestServer.pushService(subscribers: 2, authority: authority)
        defer { service.process.terminate() }
        let browsers = try service.pushSubscribers()
        let (browser, relativesPhone) = (browsers[0], browsers[1])
        let push = PushConfiguration(
            key: VAPIDKey(contact: "mailto:ops@hospital.test"), policy: EndpointPolicy(allowsPrivateAddresses: true),
            trustedCAFile: authority.certificateAuthority)
        try await ServerHarness.run(push: push) { harness in
            let ward = try await AdminWard.seed(in: harness)
            let subscribed = try await harness.request(.post, "/api/v1/push/subscriptions", token: ward.nurse1, json: BrowserSubscription(browser))
            try #require(subscribed.status == .created, "\(subscribed.text)")
            let relative = try await harness.request(.post, "/api/v1/push/subscriptions", token: ward.relative, json: BrowserSubscription(relativesPhone))
            try #require(relative.status == .created, "\(relative.text)")
            let (flat, _, smoke) = try await HomePagesAPITests.flat(harness, ward: ward)
            let events = await harness.system.outbox.events()
            let now = harness.system.now()
            try await harness.system.home.ingest([StateEvent(device: smoke, value: 0, time: now), StateEvent(device: smoke, value: 1, time: now)], flat: flat.id)
            for await event in events { if case .delivered(_, "push") = event { break } }

            let pushes = try service.received()
            try #require(pushes.count == 2, "the carer's phone and the relative's")
            let toRelative = try #require(pushes.first { $0["subscriber"] as? String == relativesPhone.name }?["payload"] as? [String: Any])
            #expect((toRelative["actions"] as? [[String: Any]])?.compactMap { $0["action"] as? String } == ["open"], "a relative only looks")
            let payload = try #require(pushes.first { $0["subscriber"] as? String == browser.name }?["payload"] as? [String: Any])
            #expect(payload["url"] as? String == "/#/homes/\(flat.id)/messages")
            let actions = try #require(payload["actions"] as? [[String: Any]])
            #expect(actions.compactMap { $0["action"] as? String } == ["confirm", "open"])
            let token = try #require(actions.first?["token"] as? String)
            let pressed = try await harness.request(.post, "/api/v1/push/actions", json: ["token": token])
            #expect(pressed.status == .ok, "\(pressed.text)")
            #expect((pressed.object?["message"] as? String)?.hasPrefix("Confirmed") == true, "\(pressed.text)")
            let messages = try await harness.request(.get, "/api/v1/homes/\(flat.id)/messages?state=all", token: ward.nurse1)
            let message = try #require((messages.array as? [[String: Any]])?.first { $0["class"] as? String == "alarm" }, "\(messages.text)")
            #expect(message["state"] as? String == "confirmed" && message["confirmed_by"] as? String == "nurse1", "\(message)")
            let again = try await harness.request(.post, "/api/v1/push/actions", json: ["token": token])
            #expect(again.status == .conflict, "\(again.text)")
            let audit = try await harness.request(.get, "/api/v1/audit?actor=nurse1", token: ward.admin)
            #expect(audit.text.contains("confirmed from a notification"), "\(audit.text)")
        }
    }
}

/// A push subscription as a browser's `toJSON()` gives it.
struct BrowserSubscription: Encodable, Sendable {
    struct Keys: Encodable, Sendable {
        let p256dh: String
        let auth: String
    }

    let endpoint: String
    let device: String
    let keys: Keys

    init(_ browser: (name: String, endpoint: String, p256dh: String, auth: String)) {
        endpoint = browser.endpoint
        device = "Nina's phone"
        keys = Keys(p256dh: browser.p256dh, auth: browser.auth)
    }
}
