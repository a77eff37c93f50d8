import Foundation
import SADEHealth
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade fhir import / export (the commands, on a data directory)", .timeLimit(.minutes(3)), .timed)
struct FhirCommandTests {
    typealias F = FHIRFixtures

    /// A fresh temporary directory.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-fhir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `data` written to a file in `directory`.
    static func file(_ data: Data, in directory: URL, named name: String = "bundle.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// `record` with its samples in a fixed order, for comparing what a store gives back.
    static func sorted(_ record: PatientRecord) -> PatientRecord {
        PatientRecord(patient: record.patient, samples: record.samples.sorted { $0.id.uuidString < $1.id.uuidString })
    }

    @Test("import a bundle file, then export the patient: the same patient and samples, every type included")
    func importThenExport() async throws {
        let directory = try Self.directory()
        let data = directory.appendingPathComponent("data").path
        let bundle = try Self.file(FHIRExporter().json(patient: F.patient, samples: F.samples), in: directory)

        let imported = try await SadeProcess.run(["fhir", "import", "--data", data, bundle])
        #expect(imported.status == 0, "stderr: \(imported.error)")
        #expect(imported.output == "imported 13 observation(s) for patient p-1\n")

        let exported = try await SadeProcess.run(["fhir", "export", "--data", data, "--patient", "p-1"])
        #expect(exported.status == 0, "stderr: \(exported.error)")
        #expect(exported.output.contains("\n  \"resourceType\" : \"Bundle\""))  // pretty-printed
        let record = try FHIRImporter().record(from: Data(exported.output.utf8))
        #expect(Self.sorted(record) == Self.sorted(PatientRecord(patient: F.patient, samples: F.samples)))

        // Exporting the store again gives the same bytes; importing that export into a second store and exporting gives them too.
        let again = try await SadeProcess.run(["fhir", "export", "--data", data, "--patient", "p-1"])
        #expect(again.output == exported.output)
        let second = directory.appendingPathComponent("data2").path
        let copy = try Self.file(Data(exported.output.utf8), in: directory, named: "export.json")
        #expect(try await SadeProcess.run(["fhir", "import", "--data", second, copy]).status == 0)
        #expect(try await SadeProcess.run(["fhir", "export", "--data", second, "--patient", "p-1"]).output == exported.output)
    }

    @Test("a bad bundle is refused with exit 1, the error names the entry, and nothing is stored")
    func badBundle() async throws {
        let directory = try Self.directory()
        let data = directory.appendingPathComponent("data").path
        var bundle = try F.exported()
        guard case .observation(var observation) = bundle.entry?[2].resource else { Issue.record("no observation"); return }
        observation.valueQuantity = nil
        bundle.entry?[2].resource = .observation(observation)
        let file = try Self.file(FHIRExporter.json(bundle), in: directory)

        let result = try await SadeProcess.run(["fhir", "import", "--data", data, file])
        #expect(result.status == 1)
        #expect(result.output == "")
        #expect(result.error == "error: \(file): entry 2 (urn:uuid:\(F.id(2).uuidString.lowercased())): valueQuantity is missing\n")
        let export = try await SadeProcess.run(["fhir", "export", "--data", data, "--patient", "p-1"])
        #expect(export.status == 1)
        #expect(export.error == "error: no patient 'p-1' in \(data)\n")
    }

    @Test("importing the same bundle twice is refused: the samples exist already")
    func importTwice() async throws {
        let directory = try Self.directory()
        let data = directory.appendingPathComponent("data").path
        let file = try Self.file(FHIRExporter().json(patient: F.patient, samples: Array(F.samples.prefix(2))), in: directory)
        #expect(try await SadeProcess.run(["fhir", "import", "--data", data, file]).status == 0)
        let second = try await SadeProcess.run(["fhir", "import", "--data", data, file])
        #expect(second.status == 1)
        #expect(second.error.contains("already exists"), "stderr: \(second.error)")
    }

    @Test("a file that cannot be read, or is not JSON, is an error")
    func unreadable() async throws {
        let directory = try Self.directory()
        let data = directory.appendingPathComponent("data").path
        let missing = try await SadeProcess.run(["fhir", "import", "--data", data, directory.appendingPathComponent("nope.json").path])
        #expect(missing.status == 1)
        #expect(missing.error.hasSuffix("nope.json: cannot read the file\n"))
        let junk = try Self.file(Data("hello".utf8), in: directory)
        let result = try await SadeProcess.run(["fhir", "import", "--data", data, junk])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: \(junk): not a FHIR Bundle in JSON"), "stderr: \(result.error)")
    }

    /// SQLite reads bound text up to a NUL: `p-1\0x` was stored as `p-1`, over Ana's record.
    @Test("a bundle whose patient identifier holds a NUL is refused at the Patient entry and does not overwrite another patient")
    func nulPatientIdentifier() async throws {
        let directory = try Self.directory()
        let data = directory.appendingPathComponent("data").path
        let ana = try Self.file(FHIRExporter().json(patient: F.patient, samples: []), in: directory)
        #expect(try await SadeProcess.run(["fhir", "import", "--data", data, ana]).status == 0)

        let mallory = try Self.file(Data(#"""
            {"resourceType": "Bundle", "type": "collection", "entry": [{"fullUrl": "urn:m", "resource": {"resourceType": "Patient",
              "identifier": [{"system": "urn:sade:patient", "value": "p-1\u0000x"}], "name": [{"text": "Mallory"}], "gender": "male"}}]}
            """#.utf8), in: directory, named: "mallory.json")
        let result = try await SadeProcess.run(["fhir", "import", "--data", data, mallory])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: \(mallory): entry 0 (urn:m): invalid patient: invalid id:"), "stderr: \(result.error)")
        let export = try await SadeProcess.run(["fhir", "export", "--data", data, "--patient", "p-1"])
        #expect(try FHIRImporter().record(from: Data(export.output.utf8)).patient == F.patient)
    }
}
