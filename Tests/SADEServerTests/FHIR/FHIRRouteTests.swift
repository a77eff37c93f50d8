import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("FHIR export and import", .timeLimit(.minutes(5)), .timed)
struct FHIRRouteTests {
    /// Three samples of `patient` an hour apart from the harness's epoch: heart rate, blood pressure, consciousness.
    static func samples(of patient: PatientID) -> [HealthSample] {
        let start = ServerHarness.epoch
        return [
            .quantity(.heartRate, 72, patient: patient, at: start, device: "monitor-1"),
            .bloodPressure(systolic: 120, diastolic: 80, patient: patient, at: start.addingTimeInterval(3600)),
            .category(.consciousnessLevel, 0, patient: patient, at: start.addingTimeInterval(7200)),
        ]
    }

    /// The resource types of a Bundle's entries, in order.
    static func resourceTypes(_ response: HarnessResponse) -> [String] {
        let entries = response.object?["entry"] as? [[String: Any]] ?? []
        return entries.compactMap { ($0["resource"] as? [String: Any])?["resourceType"] as? String }
    }

    @Test("the export is a Bundle of the patient and their samples, for whoever may read the patient")
    func export() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await harness.system.health.save(Self.samples(of: "patient-01"), as: .system)
            let path = "/api/v1/patients/patient-01/fhir"
            for token in [ward.admin, ward.nurse1, ward.doctor1, ward.patient] {
                let bundle = try await harness.request(.get, path, token: token)
                #expect(bundle.status == .ok)
                #expect(bundle.headers[.contentType]?.hasPrefix("application/fhir+json") == true)
                #expect(bundle.object?["resourceType"] as? String == "Bundle")
                #expect(Self.resourceTypes(bundle) == ["Patient", "Observation", "Observation", "Observation"])
            }
            let other = try await harness.request(.get, path, token: ward.nurse2)
            #expect(other.status == .forbidden && other.errorCode == "forbidden")
            #expect(try await harness.request(.get, path, token: ward.device).status == .forbidden)
            #expect(try await harness.request(.get, path).status == .unauthorized)
            #expect(try await harness.request(.get, "/api/v1/patients/ghost/fhir", token: ward.admin).status == .notFound)

            let window = try await harness.request(.get, path + "?from=2026-11-18T10:00:00Z&to=2026-11-18T11:00:00Z", token: ward.admin)
            #expect(window.status == .ok)
            let bad = try await harness.request(.get, path + "?from=last-week", token: ward.admin)
            #expect(bad.status == .badRequest && bad.errorMessage?.hasPrefix("from") == true)
        }
    }

    @Test("a from/to window exports only the samples that start in it")
    func window() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await harness.system.health.save(Self.samples(of: "patient-01"), as: .system)
            let from = FHIRDateTime.string(from: ServerHarness.epoch.addingTimeInterval(1800))
            let to = FHIRDateTime.string(from: ServerHarness.epoch.addingTimeInterval(5400))
            let bundle = try await harness.request(.get, "/api/v1/patients/patient-01/fhir?from=\(from)&to=\(to)", token: ward.nurse1)
            #expect(Self.resourceTypes(bundle) == ["Patient", "Observation"])
            let backwards = try await harness.request(.get, "/api/v1/patients/patient-01/fhir?from=\(to)&to=\(from)", token: ward.nurse1)
            #expect(backwards.status == .badRequest)
        }
    }

    @Test("an admin imports a new patient's Bundle and exports the same samples back; importing it again is 409")
    func importRoundTrip() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            var patient = Patient(id: "patient-77", name: "Ivo", sex: .male, usesSpO2Scale2: true)
            patient.rangeOverrides[.heartRate] = 45...95
            let samples = Self.samples(of: patient.id)
            let json = String(decoding: try FHIRExporter().json(patient: patient, samples: samples), as: UTF8.self)
            harness.clock.advance(by: .seconds(2 * 3600))  // the last sample is no longer in the future

            let imported = try await harness.request(.post, "/api/v1/fhir", token: ward.admin, raw: json)
            #expect(imported.status == .created)
            #expect(imported.object?["imported"] as? Int == 3 && imported.object?["created"] as? Bool == true)
            #expect(try await harness.system.health.patient("patient-77") == patient)

            let exported = try await harness.request(.get, "/api/v1/patients/patient-77/fhir", token: ward.admin)
            let record = try FHIRImporter().record(from: exported.body)
            #expect(record.patient == patient)
            #expect(Set(record.samples.map(\.id)) == Set(samples.map(\.id)))

            let again = try await harness.request(.post, "/api/v1/fhir", token: ward.admin, raw: json)
            #expect(again.status == .conflict)
        }
    }

    @Test("a nurse imports observations of her sector's patients only, without changing their record")
    func workerImport() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let renamed = Patient(id: "patient-01", name: "Someone Else")
            let json = String(decoding: try FHIRExporter().json(patient: renamed, samples: Self.samples(of: "patient-01")), as: UTF8.self)
            harness.clock.advance(by: .seconds(2 * 3600))
            #expect(try await harness.request(.post, "/api/v1/fhir", token: ward.nurse2, raw: json).status == .forbidden)
            let imported = try await harness.request(.post, "/api/v1/fhir", token: ward.nurse1, raw: json)
            #expect(imported.status == .created && imported.object?["created"] as? Bool == false)
            let stored = try #require(try await harness.system.health.patient("patient-01"))
            #expect(stored.name == "Paul" && stored.sector == "covid-ward")
            #expect(try await harness.system.health.samples(SampleQuery(.quantity(.heartRate), patient: "patient-01"), as: .system).count == 1)

            let stranger = String(decoding: try FHIRExporter().json(patient: Patient(id: "patient-88", name: "New"), samples: []), as: UTF8.self)
            #expect(try await harness.request(.post, "/api/v1/fhir", token: ward.nurse1, raw: stranger).status == .forbidden)
            for token in [ward.patient, ward.device] {
                #expect(try await harness.request(.post, "/api/v1/fhir", token: token, raw: json).status == .forbidden)
            }
            #expect(try await harness.request(.post, "/api/v1/fhir", raw: json).status == .unauthorized)
        }
    }

    @Test("a bad Bundle is 400 saying what is wrong, and nothing is stored")
    func badBundles() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let patientEntry = #"{"fullUrl": "urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427", "resource": {"resourceType": "Patient", "id": "patient-66"}}"#
            let noValue = """
                {"fullUrl": "urn:uuid:6f1c2a4e-0000-4000-8000-000000000001", "resource": {"resourceType": "Observation", "status": "final",
                 "code": {"coding": [{"system": "http://loinc.org", "code": "8867-4"}]},
                 "subject": {"reference": "urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427"}, "effectiveDateTime": "2026-11-18T10:00:00Z"}}
                """
            let cases: [(String, String)] = [
                ("not json", "not a FHIR Bundle"),
                (#"{"resourceType": "Patient", "id": "x"}"#, "Patient, not a Bundle"),
                (#"{"resourceType": "Bundle", "type": "collection", "entry": []}"#, "no Patient"),
                (#"{"resourceType": "Bundle", "type": "collection", "entry": [\#(patientEntry), \#(noValue)]}"#, "entry 1"),
            ]
            for (body, words) in cases {
                let response = try await harness.request(.post, "/api/v1/fhir", token: ward.admin, raw: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid-fhir")
                #expect(response.errorMessage?.contains(words) == true, "\(response.errorMessage ?? "")")
            }
            #expect(try await harness.request(.post, "/api/v1/fhir", token: ward.admin).status == .badRequest)
            #expect(try await harness.system.health.patient("patient-66") == nil)
        }
    }

    @Test("an import is refused, naming the entry, when a sample starts or ends more than five minutes after the server's time")
    func futureSamples() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let now = harness.system.now()
            let patient = Patient(id: "patient-55", name: "Fay")
            func importing(_ samples: [HealthSample]) async throws -> HarnessResponse {
                let json = String(decoding: try FHIRExporter().json(patient: patient, samples: samples), as: UTF8.self)
                return try await harness.request(.post, "/api/v1/fhir", token: ward.admin, raw: json)
            }
            let late = try await importing([
                .quantity(.heartRate, 70, patient: patient.id, at: now),
                .quantity(.heartRate, 71, patient: patient.id, at: now.addingTimeInterval(301)),
            ])
            #expect(late.status == .badRequest && late.errorCode == "invalid-fhir")
            #expect(late.errorMessage?.hasPrefix("entry 2 ") == true && late.errorMessage?.contains("start is in the future") == true, "\(late.errorMessage ?? "")")
            let endsLate = try await importing([
                .quantity(.heartRate, 70, patient: patient.id, at: now, end: now.addingTimeInterval(3600))
            ])
            #expect(endsLate.status == .badRequest)
            #expect(endsLate.errorMessage?.hasPrefix("entry 1 ") == true && endsLate.errorMessage?.contains("end is in the future") == true, "\(endsLate.errorMessage ?? "")")
            #expect(try await harness.system.health.patient(patient.id) == nil, "nothing is stored")

            let skewed = try await importing([.quantity(.heartRate, 72, patient: patient.id, at: now.addingTimeInterval(300))])
            #expect(skewed.status == .created, "a device clock may run five minutes ahead")
        }
    }

    @Test("an admin's import of a new patient whose id is not ASCII letters, digits and . _ - is refused")
    func importedIdentifier() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let json = String(decoding: try FHIRExporter().json(patient: Patient(id: "josé", name: "José"), samples: []), as: UTF8.self)
            let response = try await harness.request(.post, "/api/v1/fhir", token: ward.admin, raw: json)
            #expect(response.status == .badRequest && response.errorMessage?.hasPrefix("Patient.id") == true, "\(response.text)")
            #expect(try await harness.system.health.patient("josé") == nil)
        }
    }

    @Test("without from the export covers the last 7 days; a window longer than 366 days is 400")
    func defaultWindow() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let now = harness.system.now()
            let old = HealthSample.quantity(.heartRate, 60, patient: "patient-01", at: now.addingTimeInterval(-8 * 86_400))
            let recent = HealthSample.quantity(.heartRate, 80, patient: "patient-01", at: now.addingTimeInterval(-86_400))
            try await harness.system.health.save([old, recent], as: .system)
            let path = "/api/v1/patients/patient-01/fhir"

            let recentOnly = try await harness.request(.get, path, token: ward.nurse1)
            #expect(recentOnly.status == .ok)
            #expect(try FHIRImporter().record(from: recentOnly.body).samples.map(\.id) == [recent.id])

            // Without from, 7 days before the given to.
            let to = FHIRDateTime.string(from: now.addingTimeInterval(-2 * 86_400))
            let before = try await harness.request(.get, path + "?to=\(to)", token: ward.nurse1)
            #expect(try FHIRImporter().record(from: before.body).samples.map(\.id) == [old.id])

            let from = FHIRDateTime.string(from: now.addingTimeInterval(-10 * 86_400))
            let both = try await harness.request(.get, path + "?from=\(from)", token: ward.nurse1)
            #expect(try FHIRImporter().record(from: both.body).samples.count == 2)

            let yearAgo = FHIRDateTime.string(from: now.addingTimeInterval(-367 * 86_400))
            let tooLong = try await harness.request(.get, path + "?from=\(yearAgo)", token: ward.nurse1)
            #expect(tooLong.status == .badRequest && tooLong.errorMessage?.contains("366 days") == true, "\(tooLong.text)")
            let nowText = FHIRDateTime.string(from: now)
            let tooLongTo = try await harness.request(.get, path + "?from=\(yearAgo)&to=\(nowText)", token: ward.nurse1)
            #expect(tooLongTo.status == .badRequest)
            let fullYear = FHIRDateTime.string(from: now.addingTimeInterval(-366 * 86_400))
            #expect(try await harness.request(.get, path + "?from=\(fullYear)&to=\(nowText)", token: ward.nurse1).status == .ok)
        }
    }
}
