import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

/// The document matches the implementation beyond its paths: real answers of every
/// operation (successes and typical errors) validate against the documented
/// statuses, media types and schemas, with no undocumented field.
@Suite("The OpenAPI document describes the real answers", .timeLimit(.minutes(3)), .timed)
struct OpenAPIConformanceTests {
    @Test("the answers of every route validate against the documented schemas")
    func answersConform() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            var log = AnswerLog(harness)
            try await Self.operations(&log, ward: ward)
            try await Self.clinical(&log, ward: ward)
            try await Self.administration(&log, ward: ward)
            try await Self.wearable(&log, ward: ward)
            try await Self.issueTrack(&log, ward: ward)
            try await Self.homes(&log, ward: ward)
            try await Self.privacy(&log, ward: ward)
            try await Self.agents(&log, ward: ward)
            try await Self.push(&log, ward: ward)
            let document = try await harness.request(.get, "/openapi.json").body
            let run = try await OpenAPIChecks.python(
                ["-c", OpenAPIChecks.conformanceScript, "$openapi.json", "$answers.json"],
                files: ["openapi.json": document, "answers.json": try log.data()], modules: ["jsonschema"])
            #expect(run.status == 0, "\(run.output)")
            // Every operation answered at least once; the live streams' answers are their events, checked above.
            let answered = Set(log.entries.compactMap { entry in
                (entry["method"] as? String).map { OpenAPIChecks.key(method: $0, path: entry["path"] as? String ?? "") }
            })
            let documented = OpenAPIChecks.operations(of: try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any]))
            #expect(
                documented.subtracting(answered) == [
                    "GET /api/v1/events", "GET /api/v1/platforms/{platform}/agents/{agent}/events", "GET /api/v1/platforms/{platform}/messages",
                ])
        }
    }

    static func operations(_ log: inout AnswerLog, ward: AdminWard) async throws {
        try await log.call(.get, "/health")
        try await log.call(.get, "/metrics")
        try await log.call(.get, "/openapi.json")
        try await log.call(.post, "/api/v1/auth/login", json: ["username": "admin", "password": ServerHarness.password])
        try await log.call(.post, "/api/v1/auth/login", json: ["username": "admin", "password": "wrong-password"])
        try await log.call(.post, "/api/v1/auth/login", raw: #"{"username": "admin"}"#)
        try await log.call(.get, "/api/v1/auth/me", token: ward.nurse1)
        try await log.call(.get, "/api/v1/auth/me", token: "not-a-token")
        try await log.call(.post, "/api/v1/events/tickets", token: ward.nurse1)
        try await log.call(.post, "/api/v1/events/tickets", token: ward.device)
        try await log.call(.post, "/api/v1/events/tickets")
    }

    /// Observations in and out, the live events they cause, the alert and its acknowledgement.
    static func clinical(_ log: inout AnswerLog, ward: AdminWard) async throws {
        let harness = log.harness
        let now = harness.system.now()
        let events = try await EventStream.open(harness, token: ward.admin)
        var stream = events.events.makeAsyncIterator()
        let observations = "/api/v1/patients/{id}/observations", own = "/api/v1/patients/patient-01/observations"
        try await log.call(.post, observations, own, token: ward.device, json: AlertFlowTests.deteriorated(at: now))
        try await log.call(.post, observations, own, token: ward.nurse1, json: Observation("heartRate", 80, at: now))
        try await log.call(.post, observations, own, token: ward.device, json: [Observation("heartRate", -4, at: now)])
        let heartRate = [Observation("heartRate", 70, at: now)]
        try await log.call(.post, observations, "/api/v1/patients/patient-02/observations", token: ward.device, json: heartRate)
        try await log.call(.post, observations, "/api/v1/patients/ghost/observations", token: ward.admin, json: heartRate)
        await harness.system.pipeline.settle()
        for name in ["samples", "news2", "alert"] {
            let event = try #require(await stream.next { $0.name == name }, "a \(name) event")
            try log.record(event.json, as: "MonitoringEvent")
        }
        events.close()
        try await log.call(.get, observations, own, token: ward.nurse1)
        try await log.call(.get, observations, own + "?type=heartRate,oxygenSaturation&bucket=1h", token: ward.patient)
        try await log.call(.get, observations, own + "?bucket=never", token: ward.patient)
        try await log.call(.get, "/api/v1/patients", token: ward.nurse1)
        try await log.call(.get, "/api/v1/patients/{id}", "/api/v1/patients/patient-01", token: ward.doctor1)
        try await log.call(.get, "/api/v1/patients/{id}", "/api/v1/patients/patient-02", token: ward.nurse1)
        try await log.call(.get, "/api/v1/patients/{id}/thresholds", "/api/v1/patients/patient-01/thresholds", token: ward.nurse1)
        try await log.call(
            .put, "/api/v1/patients/{id}/thresholds", "/api/v1/patients/patient-01/thresholds", token: ward.admin,
            json: ["oxygenSaturation": Threshold(lower: 88, upper: 92, unit: "%")])
        try await log.call(.get, "/api/v1/patients/{id}/fhir", "/api/v1/patients/patient-01/fhir", token: ward.nurse1)

        let alerts = try await log.call(.get, "/api/v1/alerts?status=all", token: ward.nurse1)
        let alert = try #require((alerts.array?.first as? [String: Any])?["id"] as? String, "\(alerts.text)")
        try await log.call(.get, "/api/v1/alerts", token: ward.device)
        try await log.call(.get, "/api/v1/alerts/{id}", "/api/v1/alerts/\(alert)", token: ward.doctor1)
        try await log.call(.get, "/api/v1/alerts/{id}", "/api/v1/alerts/\(UUID())", token: ward.doctor1)
        try await log.call(.post, "/api/v1/alerts/{id}/acknowledge", "/api/v1/alerts/\(alert)/acknowledge", token: ward.nurse1)
        try await log.call(.post, "/api/v1/alerts/{id}/acknowledge", "/api/v1/alerts/\(alert)/acknowledge", token: ward.nurse1)
        try await log.call(.post, "/api/v1/alerts/{id}/acknowledge", "/api/v1/alerts/\(alert)/acknowledge", token: ward.patient)
    }

    /// Patients' stays, devices, users, hospitals, sectors, staff and the FHIR import.
    static func administration(_ log: inout AnswerLog, ward: AdminWard) async throws {
        let admin = ward.admin
        let newPatient: [String: AnyEncodable] = [
            "id": "patient-03", "name": "Rui", "sector": "icu", "bed": "4", "dateOfBirth": "1950-03-01", "sex": "male",
            "thresholds": AnyEncodable(["heartRate": Threshold(lower: 45, upper: 95, unit: nil)]),
        ]
        try await log.call(.post, "/api/v1/patients", token: admin, json: newPatient)
        try await log.call(.post, "/api/v1/patients", token: admin, json: newPatient)
        try await log.call(.post, "/api/v1/patients", token: ward.nurse1, json: newPatient)
        try await log.call(.put, "/api/v1/patients/{id}", "/api/v1/patients/patient-03", token: admin, json: ["onRespirator": true])
        try await log.call(
            .post, "/api/v1/patients/{id}/admit", "/api/v1/patients/patient-03/admit", token: admin, json: ["sector": "covid-ward"])
        try await log.call(.post, "/api/v1/patients/{id}/discharge", "/api/v1/patients/patient-03/discharge", token: admin)

        let devices = "/api/v1/patients/patient-03/devices"
        let issued = try await log.call(.post, "/api/v1/patients/{id}/devices", devices, token: admin)
        let token = try #require((issued.object?["token"] as? [String: Any])?["id"] as? String, "\(issued.text)")
        try await log.call(.get, "/api/v1/patients/{id}/devices", devices, token: admin)
        try await log.call(.delete, "/api/v1/patients/{id}/devices/{tokenID}", "\(devices)/\(token)", token: admin)
        try await log.call(.delete, "/api/v1/patients/{id}/devices/{tokenID}", "\(devices)/\(token)", token: admin)

        try await log.call(.get, "/api/v1/users?role=nurse", token: admin)
        let newUser: [String: AnyEncodable] = [
            "username": "nurse3", "name": "Nia", "role": "nurse", "password": "long-enough", "sectors": AnyEncodable(["icu"]),
        ]
        let created = try await log.call(.post, "/api/v1/users", token: admin, json: newUser)
        let user = try #require(created.id, "\(created.text)")
        try await log.call(.post, "/api/v1/users", token: admin, json: newUser)
        try await log.call(.get, "/api/v1/users/{id}", "/api/v1/users/\(user)", token: admin)
        try await log.call(.get, "/api/v1/users/{id}", "/api/v1/users/ghost", token: admin)
        try await log.call(.put, "/api/v1/users/{id}", "/api/v1/users/\(user)", token: admin, json: ["email": "nia@example.org"])
        for password in ["short", "longer-still"] {
            try await log.call(.post, "/api/v1/users/{id}/password", "/api/v1/users/\(user)/password", token: admin, json: ["password": password])
        }
        try await log.call(.delete, "/api/v1/users/{id}", "/api/v1/users/\(user)", token: admin)

        try await log.call(.get, "/api/v1/hospitals", token: ward.nurse1)
        try await log.call(.post, "/api/v1/hospitals", token: admin, json: ["id": "h2", "name": "North"])
        try await log.call(.put, "/api/v1/hospitals/{id}", "/api/v1/hospitals/h2", token: admin, json: ["address": "1 North Road"])
        try await log.call(.get, "/api/v1/hospitals/{id}/sectors", "/api/v1/hospitals/h1/sectors", token: ward.doctor1)
        try await log.call(.get, "/api/v1/sectors", token: ward.doctor1)
        let sector: [String: AnyEncodable] = ["id": "er", "hospital": "h2", "name": "ER", "mailingList": AnyEncodable(["er@example.org"])]
        try await log.call(.post, "/api/v1/sectors", token: admin, json: sector)
        try await log.call(.get, "/api/v1/sectors/{id}", "/api/v1/sectors/er", token: ward.nurse2)
        try await log.call(.put, "/api/v1/sectors/{id}", "/api/v1/sectors/er", token: admin, json: ["name": "Emergency"])
        try await log.call(.get, "/api/v1/staff?onDuty=false", token: ward.nurse1)
        try await log.call(.get, "/api/v1/staff/{id}", "/api/v1/staff/nurse1", token: ward.nurse1)
        try await log.call(.put, "/api/v1/staff/{id}", "/api/v1/staff/nurse1", token: ward.nurse1, json: ["onDuty": true])
        try await log.call(.put, "/api/v1/staff/{id}", "/api/v1/staff/nurse2", token: ward.nurse1, json: ["onDuty": true])

        let patient = Patient(id: "patient-77", name: "Ivo", sex: .male)
        let samples: [HealthSample] = [.quantity(.heartRate, 72, patient: patient.id, at: ServerHarness.epoch)]
        let bundle = String(decoding: try FHIRExporter().json(patient: patient, samples: samples), as: UTF8.self)
        try await log.call(.post, "/api/v1/fhir", token: admin, raw: bundle)
        try await log.call(.post, "/api/v1/fhir", token: admin, raw: bundle)
        try await log.call(.post, "/api/v1/fhir", token: admin, raw: #"{"resourceType": "Patient"}"#)
    }

    /// The thesis's routes, with its clients' bodies.
    static func wearable(_ log: inout AnswerLog, ward: AdminWard) async throws {
        let registration = ["username": "ana", "password": ServerHarness.password, "name": "Ana", "location": "Cluj-Napoca"]
        try await log.call(.post, "/Api/User/register", json: registration)
        try await log.call(.post, "/Api/User/register", json: registration)
        let login = try await log.call(.post, "/Api/User/login", json: ["username": "ana", "password": ServerHarness.password])
        let token = try #require(login.object?["token"] as? String, "\(login.text)")
        try await log.call(.post, "/Api/User/login", json: ["username": "ana", "password": "wrong-password"])
        let esp32 = String(decoding: WearableClientPayloads.esp32(bpm: 81, temperature: 36.8), as: UTF8.self)
        let posted = try await log.call(.post, "/Api/DataItem", token: token, raw: esp32)
        let item = try #require(posted.object?["id"] as? Int, "\(posted.text)")
        let watch = WearableClientPayloads.watch(heartBpm: 72, latitude: 46.75, longitude: 23.56, steps: 120, distance: 88.8)
        try await log.call(.post, "/Api/DataItem", token: token, raw: String(decoding: watch, as: UTF8.self))
        try await log.call(.post, "/Api/DataItem", token: token, raw: #"{"heartBpm": "fast"}"#)
        try await log.call(.get, "/Api/DataItem", token: token)
        try await log.call(.get, "/Api/DataItem/{id}", "/Api/DataItem/\(item)", token: token)
        try await log.call(.get, "/Api/DataItem/{id}", "/Api/DataItem/\(item)", token: ward.patient)
        let withUser = "/Api/DataItem/getProjectDataWithUser/{id}"
        try await log.call(.get, withUser, withUser.replacingOccurrences(of: "{id}", with: "\(item)"), token: ward.admin)
        try await log.call(.get, "/Api/DataItem/getProjectData/{id}", "/Api/DataItem/getProjectData/0", token: ward.admin)
        try await log.call(.get, "/Api/Project", token: token)
        let project = try await log.call(.post, "/Api/Project", token: ward.admin, json: ["name": "Study", "description": "A study"])
        let projectID = try #require(project.object?["id"] as? Int, "\(project.text)")
        try await log.call(.get, "/Api/Project/{id}", "/Api/Project/\(projectID)", token: token)
        try await log.call(.get, "/Api/Project/{id}", "/Api/Project/999", token: token)
        let assignment: [String: AnyEncodable] = ["username": "ana", "projectId": AnyEncodable(projectID)]
        try await log.call(.put, "/Api/Project/assign", token: ward.admin, json: assignment)
        try await log.call(.put, "/Api/User/changeProject/{id}", "/Api/User/changeProject/\(projectID)", token: ward.admin)
        try await log.call(.put, "/Api/User/changeProject/{id}", "/Api/User/changeProject/\(projectID)", token: token)
        try await log.call(.delete, "/Api/DataItem/{id}", "/Api/DataItem/\(item)", token: token)
        try await log.call(.get, "/Api/General/hour")
    }
}

/// A JSON value of any encodable type, for mixed dictionaries.
struct AnyEncodable: Encodable, Sendable, ExpressibleByStringLiteral {
    let value: any Encodable & Sendable

    init(_ value: any Encodable & Sendable) { self.value = value }
    init(stringLiteral value: String) { self.value = value }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
