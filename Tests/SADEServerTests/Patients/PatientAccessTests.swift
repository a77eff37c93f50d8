import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring

@Suite("Who sees and writes which patient", .timeLimit(.minutes(5)), .timed)
struct PatientAccessTests {
    @Test("a nurse or doctor sees only the patients of their sectors; an admin sees all; a patient only themself")
    func listing() async throws {
        try await ServerHarness.run { harness in
            _ = try await Ward.seed(harness)
            func ids(_ username: String) async throws -> [String] {
                let response = try await harness.request(.get, "/api/v1/patients", token: try await harness.login(username))
                #expect(response.status == .ok)
                return (response.array as? [[String: Any]] ?? []).compactMap { ($0["patient"] as? [String: Any])?["id"] as? String }
            }
            #expect(try await ids("nurse-a") == ["p-a"])
            #expect(try await ids("doctor-a") == ["p-a"])
            #expect(try await ids("nurse-b") == ["p-b"])
            #expect(Set(try await ids("admin")) == ["p-a", "p-b"])
            #expect(try await ids("patient-a") == ["p-a"])
            #expect(try await harness.request(.get, "/api/v1/patients").status == .unauthorized)
        }
    }

    @Test("reading and writing another sector's patient is forbidden; unknown patients are 404")
    func perPatient() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let nurseB = try await harness.login("nurse-b")
            let patientA = try await harness.login("patient-a")
            let sample = Observation("heartRate", 80, at: harness.system.now())
            #expect(try await harness.request(.get, "/api/v1/patients/p-a", token: nurseB).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/patients/p-a/observations", token: nurseB).status == .forbidden)
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: nurseB, json: sample).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/patients/p-b", token: patientA).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/patients/p-a", token: patientA).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/nobody", token: nurseB).status == .notFound)
            // A device writes its own patient's samples and nothing else, and reads nothing.
            #expect(try await harness.request(.post, "/api/v1/patients/p-b/observations", token: ward.deviceSecret, json: sample).status == .forbidden)
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: sample).status == .created)
            #expect(try await harness.request(.get, "/api/v1/patients/p-a", token: ward.deviceSecret).status == .forbidden)
            #expect(try await harness.request(.get, "/api/v1/patients", token: ward.deviceSecret).array?.isEmpty == true)
            // A revoked device token no longer works.
            let token = try #require(try await harness.system.devices.tokens(for: "p-a").first)
            try await harness.system.devices.revoke(token.id)
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: sample).status == .unauthorized)
        }
    }

    @Test("the list carries the latest vitals and NEWS2 and puts the riskiest patient first")
    func overview() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            try await harness.system.health.save(Patient(id: "p-a2", name: "Aaron", sector: "ward-a", bed: "3"))
            let now = harness.system.now().addingTimeInterval(-10)
            let sick: [Observation] = [
                Observation("respiratoryRate", 26, at: now), Observation("oxygenSaturation", 91, at: now),
                Observation("bloodPressureSystolic", 95, at: now), Observation("heartRate", 125, at: now),
                Observation("bodyTemperature", 39.5, at: now), Observation("consciousnessLevel", 0, at: now),
                Observation("supplementalOxygen", 0, at: now),
            ]
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: sick).status == .created)
            let list = try await harness.request(.get, "/api/v1/patients", token: try await harness.login("nurse-a"))
            let rows = try #require(list.array as? [[String: Any]])
            #expect(rows.compactMap { ($0["patient"] as? [String: Any])?["id"] as? String } == ["p-a", "p-a2"])
            let news2 = try #require(rows[0]["news2"] as? [String: Any])
            // RR 26 → 3, SpO2 91 → 3, air → 0, SBP 95 → 2, pulse 125 → 2, alert → 0, 39.5 °C → 2.
            #expect(news2["total"] as? Int == 12)
            #expect(news2["band"] as? String == "high")
            let vitals = try #require(rows[0]["vitals"] as? [String: [String: Any]])
            #expect(vitals["heartRate"]?["value"] as? Double == 125)
            #expect(rows[0]["secondsSinceLastReading"] as? Double == 10)
            #expect(rows[1]["news2"] == nil && rows[1]["lastReadingAt"] == nil)
        }
    }

    @Test("a single parameter scoring 3 (low-medium) ranks above a total of 4 (low), as the RCP response does")
    func bandBeforeTotal() async throws {
        try await ServerHarness.run { harness in
            _ = try await Ward.seed(harness)
            try await harness.system.health.save(Patient(id: "p-a2", name: "Aaron", sector: "ward-a", bed: "3"))
            let now = harness.system.now().addingTimeInterval(-10)
            let admin = try await harness.login("admin")
            let redFlag = [Observation("respiratoryRate", 25, at: now)]  // 3: low-medium
            let four = [Observation("heartRate", 95, at: now), Observation("respiratoryRate", 22, at: now), Observation("bodyTemperature", 38.5, at: now)]
            #expect(try await harness.request(.post, "/api/v1/patients/p-a/observations", token: admin, json: redFlag).status == .created)
            #expect(try await harness.request(.post, "/api/v1/patients/p-a2/observations", token: admin, json: four).status == .created)
            let rows = try #require(try await harness.request(.get, "/api/v1/patients", token: admin).array as? [[String: Any]])
            let order = rows.map { (($0["patient"] as? [String: Any])?["id"] as? String ?? "", ($0["news2"] as? [String: Any])?["total"] as? Int) }
            #expect(order.prefix(2).map(\.0) == ["p-a", "p-a2"], "\(order)")
            #expect(order.prefix(2).map(\.1) == [3, 4])
        }
    }
}
