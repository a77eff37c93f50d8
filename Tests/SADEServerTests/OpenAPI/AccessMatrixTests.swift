import Foundation
import HTTPTypes
import SADEHealth
import SADEHome
import SADEMonitoring
import SADENotification
import SADETestTiming
import Testing
@testable import SADEServer

/// Every operation of the served OpenAPI document, asked by every role about records of
/// another sector or another person (security issue 26, part 7): anonymous callers get
/// 401, a role that may never do the operation 403, a role that may do it but not to
/// this target 403 too (the server never hides such a record behind a 404), the admin
/// its documented answer; every status is one the document lists for the operation.
@Suite("Every operation × every role × another sector's patient", .timeLimit(.minutes(3)), .timed)
struct AccessMatrixTests {
    /// Who asks: nobody, `pat1` (patient-01's account), patient-01's device token,
    /// `nurse1` and `doctor1` (COVID ward), `rel1` (patient-01's relative), the admin.
    enum Role: String, CaseIterable, Sendable { case anonymous, patient, device, nurse, doctor, relative, admin }

    /// The status each role gets, in ``Role`` order; `nil`: not asked.
    struct Expected: Sendable {
        let statuses: [Int?]

        init(_ anonymous: Int?, _ patient: Int?, _ device: Int?, _ nurse: Int?, _ doctor: Int?, _ relative: Int?, _ admin: Int?) {
            statuses = [anonymous, patient, device, nurse, doctor, relative, admin]
        }

        subscript(role: Role) -> Int? { statuses[Role.allCases.firstIndex(of: role)!] }
    }

    /// The matrix. Path parameters name ``AccessFixture``'s targets: patient-02 (ICU), its
    /// device token, alert and flat, nurse2 and their account, hospital h1, sector icu,
    /// another wearable user's data item, an issue, the monitoring platform's AlertAgent.
    static let matrix: [String: Expected] = [
        // Operation                                                anon  pat   dev   nurse doctor rel   admin
        "GET /health":                                         .init(200,  200,  200,  200,  200,  200,  200),
        "GET /metrics":                                        .init(200,  200,  200,  200,  200,  200,  200),
        "GET /openapi.json":                                   .init(200,  200,  200,  200,  200,  200,  200),
        "POST /api/v1/auth/login":                             .init(200,  200,  200,  200,  200,  200,  200),
        "GET /api/v1/auth/me":                                 .init(401,  200,  200,  200,  200,  200,  200),
        "GET /api/v1/patients":                                .init(401,  200,  200,  200,  200,  200,  200),
        "POST /api/v1/patients":                               .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/patients/{id}":                           .init(401,  403,  403,  403,  403,  403,  200),
        "PUT /api/v1/patients/{id}":                           .init(401,  403,  403,  403,  403,  403,  200),
        // The admin's erasure is refused while patient-02 is the resident of the fixture's flat.
        "DELETE /api/v1/patients/{id}":                        .init(401,  403,  403,  403,  403,  403,  409),
        "POST /api/v1/patients/{id}/admit":                    .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/patients/{id}/discharge":                .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/patients/{id}/thresholds":                .init(401,  403,  403,  403,  403,  403,  200),
        "PUT /api/v1/patients/{id}/thresholds":                .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/patients/{id}/observations":              .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/patients/{id}/observations":              .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/patients/{id}/devices":                  .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/patients/{id}/devices":                   .init(401,  403,  403,  403,  403,  403,  200),
        "DELETE /api/v1/patients/{id}/devices/{tokenID}":      .init(401,  403,  403,  403,  403,  403,  204),
        "GET /api/v1/patients/{id}/fhir":                      .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/patients/{id}/export":                    .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/patients/{id}/relatives":                 .init(401,  403,  403,  403,  403,  403,  200),
        "PUT /api/v1/patients/{id}/relatives":                 .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/fhir":                                   .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/alerts":                                  .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/alerts/{id}":                             .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/alerts/{id}/acknowledge":                .init(401,  403,  403,  403,  403,  403,  200),
        // A live stream that never ends when allowed, and no `patient` parameter to aim it at another sector.
        "GET /api/v1/events":                                  .init(401,  nil,  403,  nil,  nil,  nil,  nil),
        "POST /api/v1/events/tickets":                         .init(401,  201,  403,  201,  201,  201,  201),
        "GET /api/v1/users":                                   .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/users":                                  .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/users/{id}":                              .init(401,  403,  403,  403,  403,  403,  200),
        "PUT /api/v1/users/{id}":                              .init(401,  403,  403,  403,  403,  403,  200),
        "DELETE /api/v1/users/{id}":                           .init(401,  403,  403,  403,  403,  403,  204),
        "POST /api/v1/users/{id}/password":                    .init(401,  403,  403,  403,  403,  403,  204),
        "GET /api/v1/hospitals":                               .init(401,  403,  403,  200,  200,  403,  200),
        "POST /api/v1/hospitals":                              .init(401,  403,  403,  403,  403,  403,  201),
        "PUT /api/v1/hospitals/{id}":                          .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/hospitals/{id}/sectors":                  .init(401,  403,  403,  200,  200,  403,  200),
        "GET /api/v1/sectors":                                 .init(401,  403,  403,  200,  200,  403,  200),
        "POST /api/v1/sectors":                                .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/sectors/{id}":                            .init(401,  403,  403,  200,  200,  403,  200),
        "PUT /api/v1/sectors/{id}":                            .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/staff":                                   .init(401,  403,  403,  200,  200,  403,  200),
        "GET /api/v1/staff/{id}":                              .init(401,  403,  403,  200,  200,  403,  200),
        "PUT /api/v1/staff/{id}":                              .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/audit":                                   .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/audit/verification":                      .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/company":                                 .init(401,  403,  403,  200,  200,  403,  200),
        "POST /api/v1/company/services":                       .init(401,  403,  403,  403,  403,  403,  201),
        "PUT /api/v1/company/employees/{id}":                  .init(401,  403,  403,  403,  403,  403,  200),
        "PUT /api/v1/company/employees/{id}/connection":       .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/issues":                                  .init(401,  403,  403,  200,  200,  403,  200),
        "POST /api/v1/issues":                                 .init(401,  403,  403,  202,  202,  403,  202),
        "GET /api/v1/issues/{id}":                             .init(401,  403,  403,  200,  200,  403,  200),
        // Nobody is being asked about the fixture's issue (its round ran by rule): 409 for staff.
        "POST /api/v1/issues/{id}/answer":                     .init(401,  403,  403,  409,  409,  403,  409),
        "POST /api/v1/issues/{id}/resolution":                 .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/homes":                                   .init(401,  200,  200,  200,  200,  200,  200),
        "POST /api/v1/homes":                                  .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/homes/{id}":                              .init(401,  403,  403,  403,  403,  403,  200),
        "PATCH /api/v1/homes/{id}":                            .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/homes/{id}/events":                      .init(401,  403,  403,  403,  403,  403,  201),
        "GET /api/v1/homes/{id}/messages":                     .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/homes/{id}/messages/{message}":           .init(401,  403,  403,  403,  403,  403,  200),
        "POST /api/v1/homes/{id}/messages/{message}/confirm":  .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/homes/{id}/activity":                     .init(401,  403,  403,  403,  403,  403,  200),
        "POST /Api/User/register":                             .init(201,  201,  201,  201,  201,  201,  201),
        "POST /Api/User/login":                                .init(200,  200,  200,  200,  200,  200,  200),
        "PUT /Api/User/changeProject/{id}":                    .init(401,  403,  403,  403,  403,  403,  204),
        "POST /Api/DataItem":                                  .init(401,  201,  403,  201,  201,  403,  201),
        "GET /Api/DataItem":                                   .init(401,  200,  200,  200,  200,  200,  200),
        "GET /Api/DataItem/{id}":                              .init(401,  403,  403,  403,  403,  403,  200),
        "DELETE /Api/DataItem/{id}":                           .init(401,  403,  403,  403,  403,  403,  204),
        "GET /Api/DataItem/getProjectDataWithUser/{id}":       .init(401,  403,  403,  403,  403,  403,  200),
        "GET /Api/DataItem/getProjectData/{id}":               .init(401,  403,  403,  403,  403,  403,  200),
        "GET /Api/Project":                                    .init(401,  200,  403,  200,  200,  403,  200),
        "POST /Api/Project":                                   .init(401,  403,  403,  403,  403,  403,  201),
        "PUT /Api/Project/assign":                             .init(401,  403,  403,  403,  403,  403,  204),
        "GET /Api/Project/{id}":                               .init(401,  200,  403,  200,  200,  403,  200),
        "GET /Api/General/hour":                               .init(200,  200,  200,  200,  200,  200,  200),
        "GET /api/v1/platforms":                               .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/platforms/{platform}/agents":             .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/platforms/{platform}/agents/{agent}":     .init(401,  403,  403,  403,  403,  403,  200),
        // Live streams that never end when allowed.
        "GET /api/v1/platforms/{platform}/agents/{agent}/events": .init(401,  403,  403,  403,  403,  403,  nil),
        "GET /api/v1/platforms/{platform}/messages":           .init(401,  403,  403,  403,  403,  403,  nil),
        "POST /api/v1/platforms/{platform}/messages":          .init(401,  403,  403,  403,  403,  403,  200),
        "GET /api/v1/push/key":                                .init(200,  200,  200,  200,  200,  200,  200),
        "POST /api/v1/push/subscriptions":                     .init(401,  201,  403,  201,  201,  201,  201),
        "GET /api/v1/push/subscriptions":                      .init(401,  200,  403,  200,  200,  200,  200),
        // nurse2's phone: its owner's, or an admin's (a lost phone), to remove.
        "DELETE /api/v1/push/subscriptions/{id}":              .init(401,  403,  403,  403,  403,  403,  204),
        // The token is the credential, whoever sends it: one that is not the server's is refused alike.
        "POST /api/v1/push/actions":                           .init(401,  401,  401,  401,  401,  401,  401),
    ]

    /// The query of an operation's request.
    static let queries: [String: String] = [
        "GET /api/v1/patients": "?sector=icu",
        "GET /api/v1/alerts": "?status=all&patient=patient-02",
        "GET /api/v1/staff": "?sector=icu",
        "GET /api/v1/homes/{id}/messages": "?state=all",
    ]

    /// The body every role sends, valid for the admin; `{…}` are ``AccessFixture/fill(_:role:)``'s.
    static let bodies: [String: String] = [
        "POST /api/v1/auth/login": #"{"username": "nurse2", "password": "correct-horse"}"#,
        "POST /api/v1/patients": #"{"id": "patient-09", "name": "Ines", "sector": "icu", "bed": "7"}"#,
        "PUT /api/v1/patients/{id}": #"{"onRespirator": true}"#,
        "POST /api/v1/patients/{id}/admit": #"{"sector": "icu", "bed": "2"}"#,
        "PUT /api/v1/patients/{id}/thresholds": #"{"heartRate": {"lower": 45, "upper": 95}}"#,
        "POST /api/v1/patients/{id}/observations": #"[{"type": "heartRate", "value": 80, "start": "{now}"}]"#,
        "POST /api/v1/patients/{id}/devices": #"{"label": "monitor 3"}"#,
        "POST /api/v1/fhir": "{fhir}",
        "POST /api/v1/users": #"{"username": "nurse9", "name": "Nia", "role": "nurse", "password": "long-enough", "sectors": ["icu"]}"#,
        "PUT /api/v1/users/{id}": #"{"email": "noor@example.org"}"#,
        "POST /api/v1/users/{id}/password": #"{"password": "another-long-one"}"#,
        "POST /api/v1/hospitals": #"{"id": "h9", "name": "North"}"#,
        "PUT /api/v1/hospitals/{id}": #"{"address": "1 Main Road"}"#,
        "POST /api/v1/sectors": #"{"id": "er", "hospital": "h1", "name": "ER"}"#,
        "PUT /api/v1/sectors/{id}": #"{"name": "Intensive care"}"#,
        "PUT /api/v1/staff/{id}": #"{"onDuty": true}"#,
        "POST /api/v1/company/services": #"{"name": "plumbing", "description": "Pipes"}"#,
        "PUT /api/v1/company/employees/{id}":
            #"{"name": "Robert", "birthDate": "1985-07-02T00:00:00Z", "email": "robert@acme.example", "phone": "", "services": []}"#,
        "PUT /api/v1/company/employees/{id}/connection": #"{"connected": false}"#,
        "POST /api/v1/issues": #"""
            {"title": "Printer jam", "description": "", "priority": "low", "deadline": "{deadline}", "service": "infrastructure",
             "reporter": "robert"}
            """#,
        "POST /api/v1/issues/{id}/answer": #"{"take": true}"#,
        "PUT /api/v1/patients/{id}/relatives": #"{"usernames": ["rel1"]}"#,
        "POST /api/v1/issues/{id}/resolution": #"{"solved": true, "note": "replaced"}"#,
        "POST /api/v1/homes": AccessFixture.flat,
        "PATCH /api/v1/homes/{id}": #"{"name": "Flat 10"}"#,
        "POST /api/v1/homes/{id}/events": #"{"events": [{"device_id": {homeDevice}, "value": 0, "time": "{now}"}]}"#,
        "POST /Api/User/register": #"{"username": "reg-{role}", "password": "correct-horse", "name": "Reg"}"#,
        "POST /Api/User/login": #"{"username": "nurse2", "password": "correct-horse"}"#,
        "POST /Api/DataItem": #"{"heartBpm": "81", "temperature": "36.80", "device": "ESP32"}"#,
        "POST /Api/Project": #"{"name": "Study", "description": "A study"}"#,
        "PUT /Api/Project/assign": #"{"username": "ana", "projectId": {project}}"#,
        "POST /api/v1/push/actions": #"{"token": "eyJ4IjoiYWNrbm93bGVkZ2UifQ.c2lnbmF0dXJl"}"#,
        "POST /api/v1/push/subscriptions": #"{"endpoint": "https://93.184.216.34/push/{role}", "keys": {"p256dh": "\#(pushKey)", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}, "device": "phone"}"#,
        "POST /api/v1/platforms/{platform}/messages": #"{"receiver": "AlertAgent", "performative": "query-ref", "content": "(mind)", "timeout": 0.1}"#,
    ]

    /// A subscriber's public key (RFC 8291's example).
    static let pushKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

    /// Roles whose right depends on what the body names, so that a malformed body is
    /// rightly a 400 before their 403: a worker may import observations of their own sectors;
    /// a notification's button carries its credential in the body.
    static let bodyNamesTarget: [String: Set<Role>] = ["POST /api/v1/fhir": [.nurse, .doctor], "POST /api/v1/push/actions": Set(Role.allCases)]

    @Test("the matrix has a row for every operation the document lists or the router serves, and none other")
    func coversEveryOperation() async throws {
        try await ServerHarness.run { harness in
            let document = try #require(try await harness.request(.get, "/openapi.json").object)
            let documented = OpenAPIChecks.operations(of: document)
            let served = OpenAPIChecks.routes(of: harness.server.makeRouter())
            let rows = Set(Self.matrix.keys.map(Self.normalized))
            let missing = documented.union(served).subtracting(rows).sorted()
            #expect(missing.isEmpty, "operations with no row in the access matrix (add one):\n\(missing.joined(separator: "\n"))")
            let stale = rows.subtracting(documented.union(served)).sorted()
            #expect(stale.isEmpty, "rows of operations neither documented nor served:\n\(stale.joined(separator: "\n"))")
            let undocumented = rows.intersection(served).subtracting(documented).sorted()
            #expect(undocumented.isEmpty, "served, in the matrix, but not in the document:\n\(undocumented.joined(separator: "\n"))")
            for (operation, expected) in Self.matrix where Self.operation(operation, in: document).map(Self.needsLogin) ?? true {
                #expect(expected[.anonymous] == 401, "\(operation) needs a login: anonymous must be 401 in the matrix")
            }
        }
    }

    @Test("each role gets its status from the matrix, a documented one, even with a malformed body", arguments: matrix.keys.sorted())
    func cell(_ operation: String) async throws {
        let expected = try #require(Self.matrix[operation])
        let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
        let method = try #require(HTTPRequest.Method(parts[0]))
        try await ServerHarness.run { harness in
            let fixture = try await AccessFixture.seed(in: harness)
            let document = try #require(try await harness.request(.get, "/openapi.json").object)
            let documented = Self.operation(operation, in: document).map { Set(($0["responses"] as? [String: Any] ?? [:]).keys) }
            #expect(documented != nil, "\(operation) is not in the document, so none of its statuses is documented")
            let path = try fixture.path(parts[1]) + (Self.queries[operation] ?? "")
            // The admin asks last (Role order): their success may change or erase the target.
            for role in Role.allCases {
                guard let status = expected[role] else { continue }
                let body = Self.bodies[operation].map { fixture.fill($0, role: role) }
                let response = try await harness.request(method, path, token: fixture.token(role), raw: body)
                Self.check(response, operation, role, expected: status, documented: documented)
                // Someone refused must not learn how the body would have been judged.
                if body != nil, status == 401 || status == 403, !(Self.bodyNamesTarget[operation]?.contains(role) ?? false) {
                    let malformed = try await harness.request(method, path, token: fixture.token(role), raw: #"{"malformed": "#)
                    Self.check(malformed, operation, role, expected: status, documented: documented, note: " with a malformed body")
                }
            }
        }
    }

    static func check(
        _ response: HarnessResponse, _ operation: String, _ role: Role, expected: Int, documented: Set<String>?, note: String = ""
    ) {
        let status = response.status.code
        let said = "\(status) \(response.errorCode ?? "") \(response.errorMessage ?? "")"
        #expect(status == expected, "\(operation) as \(role)\(note): expected \(expected), got \(said)")
        #expect(status < 500, "\(operation) as \(role)\(note): a server error, \(said)")
        if let documented {
            #expect(documented.contains(String(status)), "\(operation) as \(role)\(note): \(status) is undocumented (only \(documented.sorted()))")
        }
    }

    /// `METHOD /path` as ``OpenAPIChecks/key(method:path:)`` writes it.
    static func normalized(_ operation: String) -> String {
        let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
        return OpenAPIChecks.key(method: parts[0], path: parts[1])
    }

    /// The document's operation object for `operation`.
    static func operation(_ operation: String, in document: [String: Any]) -> [String: Any]? {
        let key = normalized(operation)
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, object) in item where OpenAPIChecks.key(method: method, path: path) == key { return object as? [String: Any] }
        }
        return nil
    }

    /// Whether the document's operation needs credentials (`security: []` marks the public ones).
    static func needsLogin(_ operation: [String: Any]) -> Bool {
        (operation["security"] as? [Any])?.isEmpty != true
    }
}

/// What the matrix asks about, seeded in a fresh server for each operation: the
/// ``AdminWard`` and, all belonging to another sector or person than every non-admin
/// caller, a device token, an alert (raised by deteriorating vitals) and a flat with a
/// message of patient-02 (ICU; the flat's only carer is nurse2), a data item of the
/// wearable user `ana`, a wearable project, an issue after its round.
struct AccessFixture {
    let ward: AdminWard
    let now: Date
    /// What `{id}` names, by the path before it.
    let ids: [String: String]
    let tokenID: String
    let message: Int64
    let homeDevice: Int64
    let project: Int
    let fhir: String

    /// The flat of patient-02 that only nurse2 cares for.
    static let flat = #"""
        {"name": "Flat 9", "resident": "patient-02", "carers": ["nurse2"], "time_zone": "Europe/Lisbon",
         "rooms": [{"name": "Kitchen", "type": "kitchen", "polygon": [[0, 0], [4, 0], [4, 3], [0, 3]],
                    "devices": [{"name": "Kitchen motion", "kind": "motion", "x": 1, "y": 1}]}]}
        """#

    static func seed(in harness: ServerHarness) async throws -> AccessFixture {
        let ward = try await AdminWard.seed(in: harness)
        let system = harness.system
        let now = system.now()
        let tokenID = try await system.devices.issue(for: "patient-02", label: "monitor 2").token.id
        let vitals = try await harness.request(
            .post, "/api/v1/patients/patient-02/observations", token: ward.admin, json: AlertFlowTests.deteriorated(at: now))
        try #require(vitals.status == .created, "\(vitals.text)")
        await system.pipeline.settle()
        let alerts = try await harness.request(.get, "/api/v1/alerts?status=all&patient=patient-02", token: ward.admin)
        let alert = try #require((alerts.array?.first as? [String: Any])?["id"] as? String, "an alert of patient-02: \(alerts.text)")
        let nurse2 = try #require(try await system.accounts.account(username: "nurse2")).id

        let created = try await harness.request(.post, "/api/v1/homes", token: ward.admin, raw: flat)
        let flatID = try #require((created.object?["id"] as? NSNumber)?.int64Value, "\(created.text)")
        let homeDevice = try #require(try await system.home.store.flat(flatID).devices.first?.id)
        let draft = HomeMessageDraft(flat: flatID, severity: .warning, title: "Quiet", text: "no activity since noon", key: "quiet")
        let message = try await system.home.store.raise(draft, at: now).message.id

        let ana = try await harness.wearableUser("ana")
        let esp32 = String(decoding: WearableClientPayloads.esp32(bpm: 81, temperature: 36.8), as: UTF8.self)
        let posted = try await harness.request(.post, "/Api/DataItem", token: ana, raw: esp32)
        let item = try #require(posted.object?["id"] as? Int, "\(posted.text)")
        let study = try await harness.request(.post, "/Api/Project", token: ward.admin, json: ["name": "Study", "description": "A study"])
        let project = try #require(study.object?["id"] as? Int, "\(study.text)")

        try await IssueTrackRoutesTests.company(harness, admin: ward.admin)
        let issue = try await IssueTrackRoutesTests.register(harness, token: ward.admin)

        let phone = try WebPushSubscription(
            account: "nurse2", endpoint: "https://93.184.216.34/push/nurse2", keys: .init(p256dh: AccessMatrixTests.pushKey, auth: "BTBZMqHH6r4Tts7J_aSIgg"),
            device: "phone", createdAt: now)
        try await #require(system.push).subscriptions.save(phone)

        let patient = try #require(try await system.health.patient("patient-02"))
        let samples: [HealthSample] = [.quantity(.heartRate, 72, patient: patient.id, at: now.addingTimeInterval(-60))]
        let fhir = String(decoding: try FHIRExporter().json(patient: patient, samples: samples, prettyPrinted: false), as: UTF8.self)
        let ids = [
            "/api/v1/patients/": "patient-02", "/api/v1/alerts/": alert, "/api/v1/users/": nurse2, "/api/v1/hospitals/": "h1",
            "/api/v1/sectors/": "icu", "/api/v1/staff/": "nurse2", "/api/v1/homes/": "\(flatID)", "/api/v1/issues/": "\(issue)",
            "/api/v1/company/employees/": "robert", "/Api/DataItem/": "\(item)", "/Api/DataItem/getProjectDataWithUser/": "\(item)",
            "/Api/DataItem/getProjectData/": "\(project)", "/Api/Project/": "\(project)", "/Api/User/changeProject/": "\(project)",
            "/api/v1/push/subscriptions/": phone.id,
        ]
        return AccessFixture(
            ward: ward, now: now, ids: ids, tokenID: tokenID, message: message, homeDevice: homeDevice, project: project, fhir: fhir)
    }

    /// `template` with its parameters replaced by the targets.
    func path(_ template: String) throws -> String {
        var path = template.replacingOccurrences(of: "{tokenID}", with: tokenID).replacingOccurrences(of: "{message}", with: "\(message)")
            .replacingOccurrences(of: "{platform}", with: "monitoring").replacingOccurrences(of: "{agent}", with: "AlertAgent")
        if let range = path.range(of: "{id}") {
            let id = try #require(ids[String(path[..<range.lowerBound])], "no target for {id} in \(template)")
            path.replaceSubrange(range, with: id)
        }
        return path
    }

    /// `body` with `{now}`, `{deadline}`, `{project}`, `{homeDevice}`, `{fhir}` and `{role}` filled in.
    func fill(_ body: String, role: AccessMatrixTests.Role) -> String {
        [
            "{now}": now.formatted(.iso8601), "{deadline}": now.addingTimeInterval(3600).formatted(.iso8601), "{project}": "\(project)",
            "{homeDevice}": "\(homeDevice)", "{fhir}": fhir, "{role}": role.rawValue,
        ].reduce(body) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    /// The bearer token `role` sends.
    func token(_ role: AccessMatrixTests.Role) -> String? {
        switch role {
        case .anonymous: nil
        case .patient: ward.patient
        case .device: ward.device
        case .nurse: ward.nurse1
        case .doctor: ward.doctor1
        case .relative: ward.relative
        case .admin: ward.admin
        }
    }
}
