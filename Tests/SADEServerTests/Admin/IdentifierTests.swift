import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Identifiers in bodies and paths", .timeLimit(.minutes(5)), .timed)
struct IdentifierTests {
    @Test("a new patient, hospital, sector or staff id holds only ASCII letters, digits and . _ -, else 400 naming the field")
    func asciiIdentifiers() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let cases: [(String, String, String)] = [
                ("/api/v1/patients", #"{"id": "p 1", "name": "Space"}"#, "id"),
                ("/api/v1/patients", #"{"id": "josé", "name": "José"}"#, "id"),
                ("/api/v1/patients", #"{"id": "p/1", "name": "Slash"}"#, "id"),
                ("/api/v1/hospitals", #"{"id": "hôpital", "name": "Hôpital"}"#, "id"),
                ("/api/v1/sectors", #"{"id": "ward½", "hospital": "h1", "name": "Half"}"#, "id"),
                ("/api/v1/users", #"{"username": "n1", "name": "N", "role": "nurse", "password": "long-enough-1", "staffID": "nürse"}"#, "staffID"),
                ("/api/v1/users", #"{"username": "zoë", "name": "Zoë", "role": "nurse", "password": "long-enough-1"}"#, "staffID"),
            ]
            for (path, json, field) in cases {
                let response = try await harness.request(.post, path, token: ward.admin, raw: json)
                #expect(response.status == .badRequest, "\(path) \(json)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(json): \(response.errorMessage ?? "")")
            }
            #expect(try await harness.system.health.patient("josé") == nil)
            #expect(try await harness.system.health.worker("nürse") == nil)
            let fine = try await harness.request(.post, "/api/v1/patients", token: ward.admin, json: ["id": "Pat_2.b-3", "name": "Fine"])
            #expect(fine.status == .created)
            #expect(try await harness.request(.get, "/api/v1/patients/Pat_2.b-3", token: ward.admin).status == .ok)
        }
    }

    @Test("path ids are percent-decoded: a record whose id needs escaping is found by its escaped path; bad escapes are 400")
    func percentDecodedPaths() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            // Records made before identifiers were restricted, or by other means.
            try await harness.system.health.save(Patient(id: "p 1", name: "Space", sector: "covid-ward"))
            try await harness.system.health.save(Patient(id: "josé", name: "José", sector: "covid-ward"))
            try await harness.system.health.save(HealthCareWorker.nurse(id: "n 1", name: "Spacey", sectors: ["icu"]))
            try await harness.system.health.save(Hospital(id: "h 2", name: "Second"))
            try await harness.system.health.save(HospitalSector(id: "ward b", hospital: "h1", name: "Ward B"))

            let spaced = try await harness.request(.get, "/api/v1/patients/p%201", token: ward.nurse1)
            #expect(spaced.status == .ok, "\(spaced.text)")
            #expect(try await harness.request(.get, "/api/v1/patients/jos%C3%A9", token: ward.nurse1).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/patients/patient%2D01", token: ward.nurse1).status == .ok)
            let start = FHIRDateTime.string(from: harness.system.now().addingTimeInterval(-60))
            let posted = try await harness.request(
                .post, "/api/v1/patients/p%201/observations", token: ward.nurse1, raw: #"{"type": "heartRate", "value": 72, "start": "\#(start)"}"#)
            #expect(posted.status == .created, "\(posted.text)")
            let read = try await harness.request(.get, "/api/v1/patients/p%201/observations", token: ward.nurse1)
            #expect(read.array?.count == 1)
            #expect(try await harness.request(.get, "/api/v1/patients/p%201/fhir", token: ward.nurse1).status == .ok)
            let renamed = try await harness.request(.put, "/api/v1/patients/p%201", token: ward.admin, json: ["name": "Spaced Out"])
            #expect(renamed.status == .ok && renamed.id == "p 1")
            #expect(try await harness.request(.post, "/api/v1/patients/p%201/devices", token: ward.admin).status == .created)
            #expect(try await harness.request(.get, "/api/v1/staff/n%201", token: ward.nurse1).object?["id"] as? String == "n 1")
            #expect(try await harness.request(.get, "/api/v1/hospitals/h%202/sectors", token: ward.nurse1).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/sectors/ward%20b", token: ward.nurse1).object?["id"] as? String == "ward b")
        }
    }

    // AsyncHTTPClient cannot send a path that is not valid percent-encoded UTF-8 (Foundation's
    // URL drops it), so the refusal is checked on the decoding itself.
    @Test("a path parameter whose escapes do not spell UTF-8 is 400 naming the parameter")
    func badEscapes() throws {
        #expect(try MonitoringRequestContext.percentDecoded("jos%C3%A9", parameter: "id") == "josé")
        #expect(try MonitoringRequestContext.percentDecoded("p-1", parameter: "id") == "p-1")
        for raw in ["p%C3%28", "p%ZZ", "p%"] {
            #expect(throws: APIError.self, "\(raw)") {
                do {
                    _ = try MonitoringRequestContext.percentDecoded(raw, parameter: "id")
                } catch let error as APIError {
                    #expect(error.status == .badRequest && error.message.hasPrefix("id:"))
                    throw error
                }
            }
        }
    }
}
