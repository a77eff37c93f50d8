import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Patient administration", .timeLimit(.minutes(5)), .timed)
struct PatientAdminTests {
    @Test("registering, changing, admitting, moving and discharging patients is for admins only")
    func adminOnly() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await ward.expectAdminOnly(harness, .post, "/api/v1/patients", json: ["id": "patient-09", "name": "X"])
            try await ward.expectAdminOnly(harness, .put, "/api/v1/patients/patient-01", json: ["name": "X"])
            try await ward.expectAdminOnly(harness, .post, "/api/v1/patients/patient-01/admit", json: ["sector": "icu"])
            try await ward.expectAdminOnly(harness, .post, "/api/v1/patients/patient-01/discharge")
            try await ward.expectAdminOnly(harness, .put, "/api/v1/patients/patient-01/thresholds", json: ["heartRate": ["lower": 40, "upper": 100]])
            let patient = try #require(try await harness.system.health.patient("patient-01"))
            #expect(patient == Patient(id: "patient-01", name: "Paul", sector: "covid-ward", bed: "3"))
            #expect(try await harness.system.health.patient("patient-09") == nil)
        }
    }

    @Test("an admin registers a patient in a sector, sets respirator and SpO2 scale 2, moves and discharges them")
    func lifecycle() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let created = try await harness.request(
                .post, "/api/v1/patients", token: ward.admin,
                raw: #"{"id": "patient-09", "name": "Quinn", "dateOfBirth": "1950-03-01", "sex": "female", "sector": "covid-ward", "bed": "7", "onRespirator": true}"#)
            #expect(created.status == .created)
            #expect(created.object?["sector"] as? String == "covid-ward" && created.object?["bed"] as? String == "7")
            #expect(created.object?["dateOfBirth"] as? String == "1950-03-01" && created.object?["onRespirator"] as? Bool == true)
            let stored = try #require(try await harness.system.health.patient("patient-09"))
            #expect(COVID19Patient(stored).onRespirator && stored.sex == .female)

            let changed = try await harness.request(
                .put, "/api/v1/patients/patient-09", token: ward.admin, raw: #"{"onRespirator": false, "usesSpO2Scale2": true, "bloodType": "oPositive"}"#)
            #expect(changed.status == .ok)
            #expect(changed.object?["onRespirator"] as? Bool == false && changed.object?["usesSpO2Scale2"] as? Bool == true)
            #expect(changed.object?["name"] as? String == "Quinn")

            let moved = try await harness.request(.post, "/api/v1/patients/patient-09/admit", token: ward.admin, json: ["sector": "icu", "bed": "2"])
            #expect(moved.status == .ok && moved.object?["sector"] as? String == "icu" && moved.object?["bed"] as? String == "2")
            #expect(try await harness.request(.get, "/api/v1/patients/patient-09/thresholds", token: ward.nurse2).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/patient-09/thresholds", token: ward.nurse1).status == .forbidden)

            let discharged = try await harness.request(.post, "/api/v1/patients/patient-09/discharge", token: ward.admin)
            #expect(discharged.status == .ok && discharged.object?["sector"] == nil && discharged.object?["bed"] == nil)
            #expect(try await harness.system.health.patient("patient-09")?.sector == nil)
        }
    }

    @Test("bad patient fields are 400 naming the field; a taken id is 409; an unknown one 404")
    func validation() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let cases: [(String, String)] = [
                (#"{"name": "No Id"}"#, "id"),
                (#"{"id": "p\u0001x", "name": "Control"}"#, "id"),
                (#"{"id": "patient-09"}"#, "name"),
                (#"{"id": "patient-09", "name": "Q", "sector": "nowhere"}"#, "sector"),
                (#"{"id": "patient-09", "name": "Q", "dateOfBirth": "yesterday"}"#, "dateOfBirth"),
                (#"{"id": "patient-09", "name": "Q", "sex": "unknown-sex"}"#, "sex"),
                (#"{"id": "patient-09", "name": "Q", "thresholds": {"heartRate": {"lower": 120, "upper": 60}}}"#, "thresholds.heartRate"),
            ]
            for (json, field) in cases {
                let response = try await harness.request(.post, "/api/v1/patients", token: ward.admin, raw: json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(json): \(response.errorMessage ?? "")")
            }
            #expect(try await harness.system.health.patient("patient-09") == nil)
            let taken = try await harness.request(.post, "/api/v1/patients", token: ward.admin, json: ["id": "patient-01", "name": "Twin"])
            #expect(taken.status == .conflict && taken.errorCode == "conflict")
            #expect(try await harness.request(.put, "/api/v1/patients/ghost", token: ward.admin, json: ["name": "X"]).status == .notFound)
            #expect(try await harness.request(.post, "/api/v1/patients/ghost/discharge", token: ward.admin).status == .notFound)
            let admitNowhere = try await harness.request(.post, "/api/v1/patients/patient-01/admit", token: ward.admin, json: ["sector": "mars"])
            #expect(admitNowhere.status == .badRequest && admitNowhere.errorMessage?.hasPrefix("sector") == true)
            let sectorByPut = try await harness.request(.put, "/api/v1/patients/patient-01", token: ward.admin, json: ["sector": "icu"])
            #expect(sectorByPut.status == .badRequest && sectorByPut.errorMessage?.hasPrefix("sector") == true)
        }
    }

    @Test("per-patient thresholds are validated, stored in canonical units and replace the standard ranges")
    func thresholds() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let path = "/api/v1/patients/patient-01/thresholds"
            let set = try await harness.request(
                .put, path, token: ward.admin,
                raw: #"{"oxygenSaturation": {"lower": 88, "upper": 92}, "bodyTemperature": {"lower": 97, "upper": 100.4, "unit": "degF"}}"#)
            #expect(set.status == .ok)
            let stored = try #require(try await harness.system.health.patient("patient-01")).rangeOverrides
            #expect(stored[.oxygenSaturation] == 88...92)
            let temperature = try #require(stored[.bodyTemperature])
            #expect(abs(temperature.lowerBound - 36.111) < 0.001 && abs(temperature.upperBound - 38.0) < 0.001)

            let read = try await harness.request(.get, path, token: ward.nurse1)
            let effective = try #require(read.object?["effective"] as? [String: [String: Any]])
            #expect(effective["oxygenSaturation"]?["lower"] as? Double == 88)
            #expect(effective["heartRate"]?["upper"] as? Double == 90)  // the standard range
            #expect(effective["bodyTemperature"]?["unit"] as? String == "degC")
            #expect((read.object?["overrides"] as? [String: Any])?.count == 2)
            #expect(try await harness.request(.get, path, token: ward.nurse2).status == .forbidden)
            #expect(try await harness.request(.get, path, token: ward.patient).status == .ok)

            let bad: [(String, String)] = [
                (#"{"heartRate": {"lower": 100, "upper": 100}}"#, "thresholds.heartRate"),
                (#"{"pulse": {"lower": 40, "upper": 100}}"#, "thresholds.pulse"),
                (#"{"heartRate": {"lower": -5, "upper": 100}}"#, "thresholds.heartRate"),
                (#"{"heartRate": {"lower": 40, "upper": 100, "unit": "mmHg"}}"#, "thresholds.heartRate.unit"),
                (#"{"heartRate": {"lower": 40}}"#, "heartRate.upper"),
            ]
            for (json, field) in bad {
                let response = try await harness.request(.put, path, token: ward.admin, raw: json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(json): \(response.errorMessage ?? "")")
            }
            let cleared = try await harness.request(.put, path, token: ward.admin, raw: "{}")
            #expect((cleared.object?["overrides"] as? [String: Any])?.isEmpty == true)
        }
    }
}
