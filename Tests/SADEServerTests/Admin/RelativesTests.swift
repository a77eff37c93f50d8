import Foundation
import SADEHealth
import SADEHome
import SADEMonitoring
import SADETestTiming
import Testing

/// Relatives (SADE4Health's improvement #2, H.O.M.E.R.'s carers): an account of role
/// `relative` linked by an admin or by the patient to patients; it reads their latest
/// vital signs, alerts and flat, read only, and gets the flat's alarms.
@Suite("Relatives: a daughter sees her father's vital signs and flat and gets his alarms", .timeLimit(.minutes(3)), .timed)
struct RelativesTests {
    @Test("an admin makes a relative's account linked to a patient; links are checked and only relatives have them")
    func linkedByAnAdmin() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let made = try await harness.request(.post, "/api/v1/users", token: ward.admin, json: UserBody(
                username: "dora", name: "Dora Daughter", role: "relative", password: "long-enough-1", relativeOf: ["patient-01"]))
            #expect(made.status == .created, "\(made.text)")
            #expect(made.object?["relativeOf"] as? [String] == ["patient-01"], "\(made.text)")

            let unknown = try await harness.request(.post, "/api/v1/users", token: ward.admin, json: UserBody(
                username: "ghost", name: "Ghost", role: "relative", password: "long-enough-1", relativeOf: ["patient-99"]))
            #expect(unknown.status == .badRequest && unknown.text.contains("relativeOf"), "\(unknown.text)")
            let nurse = try await harness.request(.post, "/api/v1/users", token: ward.admin, json: UserBody(
                username: "nora", name: "Nora", role: "nurse", password: "long-enough-1", relativeOf: ["patient-01"]))
            #expect(nurse.status == .badRequest && nurse.text.contains("relativeOf"), "only a relative links to patients: \(nurse.text)")
            let tooMany = try await harness.request(.post, "/api/v1/users", token: ward.admin, json: UserBody(
                username: "many", name: "Many", role: "relative", password: "long-enough-1",
                relativeOf: Array(repeating: "patient-01", count: UserAdministration.mostRelativeLinks + 1)))
            #expect(tooMany.status == .badRequest, "\(tooMany.text)")

            let id = try #require(made.id)
            let moved = try await harness.request(.put, "/api/v1/users/\(id)", token: ward.admin, json: ["relativeOf": ["patient-02"]])
            #expect(moved.status == .ok && moved.object?["relativeOf"] as? [String] == ["patient-02"], "\(moved.text)")
            let dora = try await harness.login("dora", password: "long-enough-1")
            #expect(try await harness.request(.get, "/api/v1/patients/patient-02", token: dora).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01", token: dora).status == .forbidden, "unlinked at once")
        }
    }

    @Test("what a relative sees of their patient and flat, and what they are refused; the flat's alarm reaches them")
    func seesReadsOnlyAndGetsAlarms() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let (flat, _, smoke) = try await HomePagesAPITests.flat(harness, ward: ward)
            let posted = try await harness.request(
                .post, "/api/v1/patients/patient-01/observations", token: ward.admin,
                json: AlertFlowTests.deteriorated(at: harness.system.now().addingTimeInterval(-60)))
            try #require(posted.status == .created, "\(posted.text)")
            await harness.system.pipeline.settle()

            // Their patient: the overview (latest vital signs, NEWS2, open alerts) and alerts; nobody else.
            let patients = try await harness.request(.get, "/api/v1/patients", token: ward.relative)
            let listed = (patients.array as? [[String: Any]])?.compactMap { ($0["patient"] as? [String: Any])?["id"] as? String }
            #expect(listed == ["patient-01"], "\(patients.text.prefix(300))")
            let overview = try await harness.request(.get, "/api/v1/patients/patient-01", token: ward.relative)
            #expect(overview.status == .ok && ((overview.object?["overview"] as? [String: Any])?["vitals"] as? [String: Any])?.isEmpty == false, "\(overview.text.prefix(300))")
            let alerts = try await harness.request(.get, "/api/v1/alerts?status=all", token: ward.relative)
            let alert = try #require((alerts.array as? [[String: Any]])?.first, "\(alerts.text.prefix(300))")
            #expect(alert["patient"] as? String == "patient-01")
            let alertID = try #require(alert["id"] as? String)
            #expect(try await harness.request(.get, "/api/v1/alerts/\(alertID)", token: ward.relative).status == .ok)

            // Read only, and only the latest: no history, no FHIR, no writing, no acknowledging.
            for (method, path) in [
                ("GET", "/api/v1/patients/patient-01/observations"), ("GET", "/api/v1/patients/patient-01/fhir"),
                ("GET", "/api/v1/patients/patient-01/thresholds"), ("GET", "/api/v1/patients/patient-02"),
                ("POST", "/api/v1/alerts/\(alertID)/acknowledge"), ("GET", "/api/v1/patients/patient-01/export"),
                ("GET", "/api/v1/company"), ("GET", "/api/v1/users"), ("GET", "/api/v1/homes/1/activity"),
            ] {
                let answer = try await harness.request(.init(method)!, path, token: ward.relative)
                #expect(answer.status == .forbidden, "\(method) \(path) as a relative: \(answer.status.code) \(answer.text.prefix(200))")
            }
            let write = try await harness.request(
                .post, "/api/v1/patients/patient-01/observations", token: ward.relative, json: AlertFlowTests.deteriorated(at: harness.system.now()))
            #expect(write.status == .forbidden, "\(write.text)")

            // The flat: tile, floor plan and messages, but no confirming; its smoke alarm reaches the relative too.
            let homes = try await harness.request(.get, "/api/v1/homes", token: ward.relative)
            #expect((homes.array as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.int64Value } == [flat.id], "\(homes.text.prefix(300))")
            #expect(try await harness.request(.get, "/api/v1/homes/\(flat.id)", token: ward.relative).status == .ok)
            let messages = harness.system.home.events.subscribe(flats: [flat.id])
            let now = harness.system.now()
            try await harness.system.home.ingest([StateEvent(device: smoke, value: 0, time: now), StateEvent(device: smoke, value: 1, time: now)], flat: flat.id)
            var raised: HomeMessage?
            for await event in messages { if case .message(let message) = event { raised = message; break } }
            let message = try #require(raised)
            let path = "/api/v1/homes/\(flat.id)/messages/\(message.id)"
            let seen = try #require(try await harness.request(.get, path, token: ward.relative).object, "the relative reads the message")
            let steps = try #require((seen["escalation"] as? [String: Any])?["steps"] as? [[String: Any]], "\(seen)")
            #expect(steps.first?["recipients"] as? [String] == ["user:nurse1", "user:rel1"], "carers, then the resident's relatives: \(steps)")
            #expect(try await harness.request(.post, "\(path)/confirm", token: ward.relative).status == .forbidden, "a relative only looks")
            #expect(try await harness.request(.post, "\(path)/confirm", token: ward.nurse1).status == .ok)
        }
    }

    @Test("an admin links relatives to a patient, all or nothing; the patient sees them and withdraws links but makes none; erasure unlinks")
    func linkedByAdminWithdrawnByThePatient() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await harness.system.accounts.create(
                UserAccount(username: "sam", name: "Sam Son", role: .relative), password: ServerHarness.password)
            try await harness.system.accounts.create(
                UserAccount(username: "tess", name: "Tess Stranger", role: .relative), password: ServerHarness.password)
            let path = "/api/v1/patients/patient-01/relatives"
            let before = try await harness.request(.get, path, token: ward.patient)
            #expect((before.array as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["rel1"], "\(before.text)")

            let notRelative = try await harness.request(.put, path, token: ward.admin, json: ["usernames": ["sam", "nurse1"]])
            #expect(notRelative.status == .badRequest && notRelative.text.contains("nurse1"), "\(notRelative.text)")
            #expect((try await harness.request(.get, path, token: ward.patient).array)?.count == 1, "nothing changed")
            let linked = try await harness.request(.put, path, token: ward.admin, json: ["usernames": ["rel1", "SAM"]])
            #expect((linked.array as? [[String: Any]])?.compactMap { $0["username"] as? String }.sorted() == ["rel1", "sam"], "\(linked.text)")

            // The patient (anyone may register one) reaches out to nobody: naming an account not linked is refused, unread.
            let reaching = try await harness.request(.put, path, token: ward.patient, json: ["usernames": ["sam", "tess"]])
            #expect(reaching.status == .forbidden && !reaching.text.contains("Tess"), "\(reaching.text)")
            let control = try await harness.request(.put, path, token: ward.admin, json: ["usernames": ["sam\u{0}"]])
            #expect(control.status == .badRequest, "\(control.text)")
            let withdrawn = try await harness.request(.put, path, token: ward.patient, json: ["usernames": ["sam"]])
            #expect((withdrawn.array as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["sam"], "\(withdrawn.text)")
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01", token: ward.relative).status == .forbidden, "rel1 unlinked")
            let sam = try await harness.login("sam")
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01", token: sam).status == .ok)
            let audit = try await harness.request(.get, "/api/v1/audit?patient=patient-01", token: ward.admin)
            #expect(audit.text.contains("relatives: sam"), "\(audit.text.prefix(500))")

            #expect(try await harness.request(.put, "/api/v1/patients/patient-02/relatives", token: ward.patient, json: ["usernames": ["sam"]]).status == .forbidden)
            #expect(try await harness.request(.get, path, token: sam).status == .forbidden, "a relative does not manage the links")

            let erased = try await harness.request(.delete, "/api/v1/patients/patient-01", token: ward.admin)
            #expect(erased.status == .ok, "\(erased.text.prefix(300))")
            let account = try #require(try await harness.system.accounts.account(username: "sam"))
            #expect(account.relativeOf.isEmpty, "an erased patient's relatives keep their accounts, not the link")
        }
    }
}

/// The body of `POST /users` for these tests.
struct UserBody: Encodable, Sendable {
    let username: String
    let name: String
    let role: String
    let password: String
    let relativeOf: [String]
}
