import Foundation
import SADEIssueTrack
import SADEMonitoring
import SADENotification
import SADETestSupport
import SADETestTiming
import Testing
@testable import SADEServer

/// iMobile §IV with people: the rules choose whom to ask, the employee decides on their
/// phone. Tony, Maria and Robert have accounts (usernames = employee ids) whose browsers
/// subscribe to the push service stand-in, which decrypts what it gets.
@Suite("The person in the loop: employees decide on their phones", .serialized, .timeLimit(.minutes(3)), .timed)
struct IssuePeopleTests {
    /// How long an employee has to answer (manual time: the tests move the clock past it).
    static let deadline: Duration = .seconds(120)

    /// The company, the people's accounts and their phones' subscriptions; Julia offers
    /// nothing asked here.
    struct Office {
        let ward: AdminWard
        let tokens: [String: String]
        /// Each employee's phone: the stand-in's subscriber.
        let phones: [String: String]
        let service: TestServer
        let outbox: NotificationOutbox

        /// The pushes `employee`'s phone got so far, oldest first.
        func pushes(to employee: String) throws -> [[String: Any]] {
            try service.received().filter { $0["subscriber"] as? String == phones[employee] }
        }

        /// Waits until `employee`'s phone has more than `count` pushes; the newest.
        func push(to employee: String, after count: Int, events: inout AsyncStream<OutboxEvent>.Iterator) async throws -> [String: Any] {
            while try pushes(to: employee).count <= count {
                guard await events.next() != nil else { throw CancellationError() }
            }
            return try pushes(to: employee)[count]
        }
    }

    static func office(_ harness: ServerHarness, service: TestServer) async throws -> Office {
        let ward = try await AdminWard.seed(in: harness)
        try await IssueTrackRoutesTests.company(harness, admin: ward.admin)
        var tokens: [String: String] = [:], phones: [String: String] = [:]
        let browsers = try service.pushSubscribers()
        for (employee, browser) in zip(["tony", "maria", "robert"], browsers) {
            try await harness.createAccount(employee, role: .nurse)
            tokens[employee] = try await harness.login(employee)
            phones[employee] = browser.name
            let subscribed = try await harness.request(.post, "/api/v1/push/subscriptions", token: tokens[employee], json: BrowserSubscription(browser))
            try #require(subscribed.status == .created, "\(subscribed.text)")
        }
        return Office(ward: ward, tokens: tokens, phones: phones, service: service, outbox: harness.system.outbox)
    }

    static func withOffice(_ body: @Sendable (ServerHarness, Office) async throws -> Void) async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let service = try await TestServer.pushService(subscribers: 3, authority: authority)
        defer { service.process.terminate() }
        let push = PushConfiguration(
            key: VAPIDKey(contact: "mailto:ops@acme.test"), policy: EndpointPolicy(allowsPrivateAddresses: true),
            trustedCAFile: authority.certificateAuthority)
        try await ServerHarness.run(issueAnswers: deadline, push: push) { harness in
            try await body(harness, try await office(harness, service: service))
        }
    }

    /// Registers a critical infrastructure issue as Robert (through a nurse's login); its number.
    static func register(_ harness: ServerHarness, token: String) async throws -> Int64 {
        let response = try await harness.request(.post, "/api/v1/issues", token: token, json: IssueBody(
            title: "Core switch down", description: "nobody can work", priority: "critical",
            deadline: harness.system.now().addingTimeInterval(20 * 3600), service: "infrastructure", reporter: "robert"))
        try #require(response.status == .accepted, "\(response.text)")
        return try #require((response.object?["id"] as? NSNumber)?.int64Value, "\(response.text)")
    }

    /// The push's buttons, by action.
    static func actions(of push: [String: Any]) -> [String: String] {
        let actions = (push["payload"] as? [String: Any])?["actions"] as? [[String: Any]] ?? []
        return Dictionary(actions.compactMap { action in (action["action"] as? String).map { ($0, action["token"] as? String ?? "") } }) { first, _ in first }
    }

    @Test("Tony is asked on his phone and takes the issue from the lock screen; Robert is pushed when it is taken and when it is solved")
    func tonyTakesIt() async throws {
        try await Self.withOffice { harness, office in
            var events = await office.outbox.events().makeAsyncIterator()
            _ = try await harness.request(.put, "/api/v1/company/employees/maria/connection", token: office.ward.admin, json: ["connected": false])
            let id = try await Self.register(harness, token: office.ward.nurse1)

            let question = try await office.push(to: "tony", after: 0, events: &events)
            let payload = try #require(question["payload"] as? [String: Any])
            #expect(payload["title"] as? String == "Can you take issue #\(id)?")
            #expect((payload["body"] as? String)?.contains("Core switch down") == true, "\(payload)")
            #expect(payload["url"] as? String == "/#/issues")
            #expect(question["urgency"] as? String == "normal", "a question wakes the phone")
            let ttl = Int(question["ttl"] as? String ?? "") ?? -1
            #expect((0...Int(Self.deadline.seconds)).contains(ttl), "kept no longer than the question is open: TTL \(ttl)")
            let buttons = Self.actions(of: question)
            #expect(Set(buttons.keys) == ["take", "decline"], "\(buttons)")

            // The Issues page shows the question while it is open.
            let asking = try await harness.request(.get, "/api/v1/issues/\(id)", token: office.ward.nurse1)
            let round = try #require(asking.object?["round"] as? [String: Any], "\(asking.text)")
            #expect(round["state"] as? String == "asking")
            #expect((round["question"] as? [String: Any])?["employee"] as? String == "tony")
            #expect((round["question"] as? [String: Any])?["id"] as? String == payload["notice"] as? String, "the push's notice is the question")
            let notHis = try await harness.request(.post, "/api/v1/issues/\(id)/answer", token: office.ward.nurse1, json: ["take": true])
            #expect(notHis.status == .forbidden, "only Tony (or an admin) answers: \(notHis.text)")

            let pressed = try await harness.request(.post, "/api/v1/push/actions", json: ["token": buttons["take"] ?? ""])
            #expect(pressed.status == .ok, "\(pressed.text)")
            let decline = try await harness.request(.post, "/api/v1/push/actions", json: ["token": buttons["decline"] ?? ""])
            #expect(decline.status == .conflict, "answered already: \(decline.text)")
            let round1 = try #require(try await harness.server.issueTrack?.finishedRound(of: id))
            #expect(round1.takenBy == "tony")
            let taken = try await harness.request(.get, "/api/v1/issues/\(id)", token: office.tokens["tony"])
            #expect(taken.object?["assignee"] as? String == "tony" && taken.object?["status"] as? String == "in-progress", "\(taken.text)")
            let audit = try await harness.request(.get, "/api/v1/audit?actor=tony", token: office.ward.admin)
            #expect(audit.text.contains("take it for tony"), "\(audit.text)")

            let told = try await office.push(to: "robert", after: 0, events: &events)
            #expect((told["payload"] as? [String: Any])?["title"] as? String == "Tony took your issue #\(id)")
            let solved = try await harness.request(
                .post, "/api/v1/issues/\(id)/resolution", token: office.ward.admin, json: ResolutionBody(solved: true, note: "switch replaced"))
            #expect(solved.status == .ok, "\(solved.text)")
            let result = try await office.push(to: "robert", after: 1, events: &events)
            let resultPayload = try #require(result["payload"] as? [String: Any])
            #expect(resultPayload["title"] as? String == "Issue #\(id) solved")
            #expect((resultPayload["body"] as? String)?.contains("switch replaced") == true, "\(resultPayload)")
            #expect(try office.pushes(to: "maria").isEmpty, "Maria, out of the office, is asked nothing")
        }
    }

    @Test("Maria says Can't on her phone, Tony lets the deadline pass, and everyone offering the service is e-mailed")
    func declinedThenSilentThenEmailed() async throws {
        try await Self.withOffice { harness, office in
            var events = await office.outbox.events().makeAsyncIterator()
            let id = try await Self.register(harness, token: office.ward.nurse1)

            // Both are free: the rules choose Maria first (by name).
            let toMaria = try await office.push(to: "maria", after: 0, events: &events)
            let cant = try await harness.request(.post, "/api/v1/push/actions", json: ["token": Self.actions(of: toMaria)["decline"] ?? ""])
            #expect(cant.status == .ok, "\(cant.text)")
            #expect((cant.object?["message"] as? String)?.contains("someone else") == true, "\(cant.text)")

            let toTony = try await office.push(to: "tony", after: 0, events: &events)
            let asking = try await harness.request(.get, "/api/v1/issues/\(id)", token: office.tokens["tony"])
            let question = try #require((asking.object?["round"] as? [String: Any])?["question"] as? [String: Any], "\(asking.text)")
            #expect(question["employee"] as? String == "tony")
            let stale = try await harness.request(.post, "/api/v1/push/actions", json: ["token": Self.actions(of: toMaria)["take"] ?? ""])
            #expect(stale.status == .conflict, "Maria's question is closed: \(stale.text)")

            harness.clock.advance(by: Self.deadline + .seconds(1))
            let round = try #require(try await harness.server.issueTrack?.finishedRound(of: id))
            #expect(round.declined == ["maria": .decline, "tony": .noAnswer], "\(round)")
            guard case .emailed(let addresses, _) = round.result else {
                Issue.record("nobody took it, so everyone offering the service is e-mailed: \(round.result)")
                return
            }
            #expect(Set(addresses) == ["maria@acme.example", "tony@acme.example"])
            #expect(round.unreachable.isEmpty, "declining is not being unreachable: \(round.unreachable)")

            // Tony's unanswered question is replaced on his lock screen (same topic), its buttons gone.
            let replaced = try await office.push(to: "tony", after: 1, events: &events)
            #expect((replaced["payload"] as? [String: Any])?["title"] as? String == "Issue #\(id): no answer in time")
            #expect(replaced["topic"] as? String == toTony["topic"] as? String)
            #expect(Self.actions(of: replaced)["take"] == nil)
            let late = try await harness.request(.post, "/api/v1/push/actions", json: ["token": Self.actions(of: toTony)["take"] ?? ""])
            #expect(late.status == .conflict, "\(late.text)")
            let view = try await harness.request(.get, "/api/v1/issues/\(id)", token: office.ward.admin)
            let declined = try #require((view.object?["round"] as? [String: Any])?["declined"] as? [[String: String]], "\(view.text)")
            #expect(declined == [["employee": "maria", "reason": "decline"], ["employee": "tony", "reason": "no-answer"]])
        }
    }
}
