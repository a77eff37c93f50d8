import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Audit trail of the API", .timeLimit(.minutes(5)), .timed)
struct AuditRouteTests {
    /// The entries of the trail, oldest first.
    static func entries(_ harness: ServerHarness, _ query: AuditQuery = AuditQuery(limit: 1000)) async throws -> [AuditEvent] {
        try await harness.system.audit.entries(query).reversed().map(\.event)
    }

    @Test("every call is an entry: who, what, which patient, when, from where, how it ended")
    func everyCallIsAnEntry() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let logins = try await Self.entries(harness, AuditQuery(action: .login, limit: 100))
            #expect(Set(logins.map(\.actor)) == ["admin", "nurse1", "nurse2", "doctor1", "pat1", "rel1"])
            #expect(logins.allSatisfy { $0.status == 200 && $0.address == "127.0.0.1" && $0.role != nil && $0.patient == nil })
            let seeded = try await harness.system.audit.records.head().sequence

            #expect(try await harness.request(.post, "/api/v1/auth/login", json: ["username": "nurse1", "password": "guess"]).status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01", token: ward.nurse1).status == .ok)
            let foreign = try await harness.request(.get, "/api/v1/patients/patient-02/observations", token: ward.nurse1)
            #expect(foreign.status == .forbidden)
            let now = harness.system.now()
            #expect(try await harness.request(.post, "/api/v1/patients/patient-01/observations", token: ward.device, json: [Observation("heartRate", 71, at: now)]).status == .created)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01/fhir", token: ward.admin).status == .ok)
            let nurse2 = try #require(try await harness.system.accounts.account(username: "nurse2"))
            #expect(try await harness.request(.put, "/api/v1/users/\(nurse2.id)", token: ward.admin, json: ["role": "admin"]).status == .ok)
            #expect(try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.nurse1, json: ["onDuty": true]).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients").status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/patients", token: "not-a-token").status == .unauthorized)
            #expect(try await harness.request(.get, "/health").status == .ok)

            let recorded = try await Self.entries(harness, AuditQuery(limit: 1000)).dropFirst(Int(seeded))
            let summary = recorded.map { "\($0.actor ?? "-") \($0.role?.rawValue ?? "-") \($0.action.rawValue) \($0.patient?.rawValue ?? "-") \($0.target) \($0.status)" }
            let device = try #require(try await harness.system.devices.token(secret: ward.device)).account.username
            #expect(
                summary == [
                    "nurse1 - login-failed - POST /api/v1/auth/login 401",
                    "nurse1 nurse read patient-01 GET /api/v1/patients/patient-01 200",
                    "nurse1 nurse read patient-02 GET /api/v1/patients/patient-02/observations 403",
                    "\(device) device change patient-01 POST /api/v1/patients/patient-01/observations 201",
                    "admin admin export patient-01 GET /api/v1/patients/patient-01/fhir 200",
                    "admin admin access-change - PUT /api/v1/users/\(nurse2.id) 200",
                    "nurse1 nurse access-change - PUT /api/v1/staff/nurse1 200",
                    "- - read - GET /api/v1/patients 401",
                    "- - read - GET /api/v1/patients 401",
                ])
            #expect(recorded.allSatisfy { $0.address == "127.0.0.1" && $0.at == harness.system.now() })
            let details = recorded.compactMap(\.detail)
            #expect(details == ["account nurse2: role nurse → admin; worker nurse2 → none", "worker nurse1: on duty"])
            #expect(!recorded.contains { $0.detail?.contains("71") == true }, "no readings in the trail")
            let verification = try await harness.system.audit.verify()
            #expect(verification.entries == Int(seeded) + 9 && verification.firstBreak == nil)
        }
    }

    @Test("""
        paths the router reads alike are audited alike (empty segments, a trailing slash); control characters are kept visible \
        and the chain stays whole; a login refused by its account's back-off is a failed login
        """)
    func hostileRequests() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let seeded = try await harness.system.audit.records.head().sequence
            #expect(try await harness.request(.get, "//api/v1/patients/patient-01", token: ward.nurse1).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-01/fhir/", token: ward.nurse1).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/a%00b").status == .unauthorized)
            #expect(try await harness.request(.post, "/api/v1/auth/login", raw: #"{"username": "x\u0000y", "password": "p"}"#).status == .unauthorized)
            for _ in 0..<6 { _ = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "doctor1", "password": "guess"]) }
            let refused = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "doctor1", "password": "guess"])
            #expect(refused.status == .tooManyRequests)

            let recorded = try await Self.entries(harness).dropFirst(Int(seeded))
            #expect(recorded.count == 11, "\(recorded.map(\.target))")
            let first = Array(recorded.prefix(4))
            #expect(first.map(\.target) == [
                "GET /api/v1/patients/patient-01", "GET /api/v1/patients/patient-01/fhir", "GET /api/v1/patients/a%00b", "POST /api/v1/auth/login",
            ])
            #expect(first.map(\.action) == [.read, .export, .read, .loginFailed])
            #expect(first[2].patient == PatientID(rawValue: "a\\u{0}b") && first[3].actor == "x\\u{0}y")
            #expect(recorded.last?.action == .loginFailed && recorded.last?.status == 429 && recorded.last?.actor == "doctor1")
            let verification = try await harness.system.audit.verify()
            #expect(verification.firstBreak == nil && verification.entries == Int(seeded) + 11)
        }
    }

    @Test("a password reset and a device token issued and revoked are access changes, naming the account or token")
    func accessChanges() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let nurse1 = try #require(try await harness.system.accounts.account(username: "nurse1"))
            #expect(try await harness.request(.post, "/api/v1/users/\(nurse1.id)/password", token: ward.admin, json: ["password": "another-pass-1"]).status == .noContent)
            let issued = try await harness.request(.post, "/api/v1/patients/patient-02/devices", token: ward.admin, json: ["label": "pump"])
            let tokenID = try #require((issued.object?["token"] as? [String: Any])?["id"] as? String)
            #expect(try await harness.request(.delete, "/api/v1/patients/patient-02/devices/\(tokenID)", token: ward.admin).status == .noContent)
            let changes = try await Self.entries(harness, AuditQuery(action: .accessChange))
            #expect(changes.map(\.detail) == [
                "account nurse1: password changed, sessions ended", "device token \(tokenID) issued", "device token \(tokenID) revoked",
            ])
            #expect(changes.map(\.patient) == [nil, "patient-02", "patient-02"])
        }
    }

    @Test("only admins read the trail: 401 anonymous, 403 for every other role")
    func adminOnly() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await ward.expectAdminOnly(harness, .get, "/api/v1/audit")
            try await ward.expectAdminOnly(harness, .get, "/api/v1/audit/verification")
            let refused = try await Self.entries(harness, AuditQuery(actor: "pat1"))
            #expect(refused.contains { $0.target == "GET /api/v1/audit" && $0.status == 403 }, "reading the trail is audited too")
        }
    }

    @Test("GET /audit filters and pages; bad parameters are 400 naming the parameter; the chain check is reported")
    func listing() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            for _ in 0..<3 { _ = try await harness.request(.get, "/api/v1/patients/patient-01", token: ward.doctor1) }
            let filtered = try await harness.request(.get, "/api/v1/audit?actor=doctor1&patient=patient-01&action=read", token: ward.admin)
            let rows = try #require(filtered.object?["entries"] as? [[String: Any]])
            #expect(rows.count == 3 && rows.allSatisfy { $0["target"] as? String == "GET /api/v1/patients/patient-01" && $0["role"] as? String == "doctor" })
            #expect(filtered.object?["next"] == nil || filtered.object?["next"] is NSNull)

            var sequences: [Int] = []
            var path = "/api/v1/audit?limit=2"
            while true {
                let page = try await harness.request(.get, path, token: ward.admin)
                sequences += try #require(page.object?["entries"] as? [[String: Any]]).compactMap { $0["sequence"] as? Int }
                guard let next = page.object?["next"] as? Int else { break }
                path = "/api/v1/audit?limit=2&before=\(next)"
            }
            #expect(sequences == Array((1...sequences.count).reversed()), "pages join up, newest first")
            let whole = try await harness.request(.get, "/api/v1/audit?actor=DOCTOR1&action=read&limit=3", token: ward.admin)
            #expect((whole.object?["entries"] as? [Any])?.count == 3, "usernames regardless of case")
            #expect(whole.object?["next"] == nil, "a page holding the last entry has no next, even when full")
            #expect(sequences.count >= 9)

            let later = harness.system.now().addingTimeInterval(60)
            let none = try await harness.request(.get, "/api/v1/audit?since=\(later.formatted(.iso8601))", token: ward.admin)
            #expect((none.object?["entries"] as? [Any])?.isEmpty == true)
            for (query, parameter) in [
                ("action=peek", "action"), ("limit=0", "limit"), ("limit=501", "limit"), ("before=x", "before"), ("since=yesterday", "since"),
                ("actor=", "actor"),
            ] {
                let bad = try await harness.request(.get, "/api/v1/audit?\(query)", token: ward.admin)
                #expect(bad.status == .badRequest && bad.errorCode == "invalid-parameter", "\(query)")
                #expect(bad.errorMessage?.hasPrefix("\(parameter):") == true, "\(query): \(bad.errorMessage ?? "")")
            }
            let check = try await harness.request(.get, "/api/v1/audit/verification", token: ward.admin)
            #expect(check.object?["intact"] as? Bool == true)
            #expect((check.object?["entries"] as? Int).map { $0 >= 9 } == true)
            #expect(check.object?["entries"] as? Int == check.object?["headSequence"] as? Int)
        }
    }
}
