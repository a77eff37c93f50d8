import ArgumentParser
import Foundation
import SADEHealth
import SADEHealthSQLite

/// `sade fhir …`: a patient's health data in and out as HL7 FHIR R4 Bundles.
struct FhirCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fhir",
        abstract: "Exchange a patient's health data as HL7 FHIR R4 Bundles (vital-signs Observations).",
        subcommands: [FhirExportCommand.self, FhirImportCommand.self]
    )
}

/// `sade fhir export`: everything stored for a patient, as a Bundle on standard output.
struct FhirExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a patient and every sample stored for them as a FHIR Bundle (JSON).",
        discussion: "Exits 1 with 'error: …' when the store cannot be opened or holds nothing about the patient."
    )

    @Option(help: "The data directory holding health.sqlite.")
    var data = "sade-data"

    @Option(help: "The patient's identifier.")
    var patient: String

    @Flag(help: "Print the Bundle on one line instead of indented.")
    var compact = false

    func run() async throws {
        let store = try FhirStore.open(data)
        let id = PatientID(patient)
        var samples: [HealthSample] = []
        let registered: Patient?
        do {
            for type in HealthType.all {
                samples += try await store.samples(SampleQuery(type, patient: id), as: .system)
            }
            registered = try await store.patient(id)
        } catch {
            throw AclInput.fail("\(error)")
        }
        guard registered != nil || !samples.isEmpty else { throw AclInput.fail("no patient '\(patient)' in \(data)") }
        // A member type's query gives the members of correlations too; they travel inside them.
        let members = Set(samples.flatMap { sample -> [UUID] in
            guard case .correlation(let members) = sample.value else { return [] }
            return members.map(\.id)
        })
        samples = samples.filter { !members.contains($0.id) }
            .sorted { ($0.start, $0.type.identifier, $0.id.uuidString) < ($1.start, $1.type.identifier, $1.id.uuidString) }
        do {
            let json = try FHIRExporter().json(patient: registered ?? Patient(id: id, name: ""), samples: samples, prettyPrinted: !compact)
            print(String(decoding: json, as: UTF8.self))
        } catch {
            throw AclInput.fail("\(error)")
        }
    }
}

/// `sade fhir import`: a Bundle's patient into the clinical registry, its observations into the store.
struct FhirImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a FHIR Bundle: its Patient into the clinical registry, its Observations into the health store.",
        discussion: """
            Reads one Bundle holding one Patient and their Observations (as 'sade fhir export' writes them). \
            Nothing is stored unless every entry is good: on a bad entry prints \
            'error: FILE: entry N (fullUrl): what is wrong' and exits 1. A patient already registered keeps their sector and bed.
            """
    )

    @Option(help: "The data directory holding health.sqlite (created if needed).")
    var data = "sade-data"

    @Argument(help: "The Bundle, as FHIR JSON.")
    var file: String

    func run() async throws {
        guard let bytes = FileManager.default.contents(atPath: file) else { throw AclInput.fail("\(file): cannot read the file") }
        let record: PatientRecord
        do {
            record = try FHIRImporter().record(from: bytes)
        } catch {
            throw AclInput.fail("\(file): \(error)")
        }
        let store = try FhirStore.open(data)
        do {
            var patient = record.patient
            if let registered = try await store.patient(patient.id) {
                patient.sector = registered.sector
                patient.bed = registered.bed
            }
            // Samples first: they are saved all or none, so a refused batch leaves the registry as it was.
            try await store.save(record.samples, as: .system)
            try await store.save(patient)
        } catch {
            throw AclInput.fail("\(file): \(error)")
        }
        print("imported \(record.samples.count) observation(s) for patient \(record.patient.id)")
    }
}

/// Opening the store of a `fhir` command.
enum FhirStore {
    static func open(_ directory: String) throws -> SQLiteHealthStore {
        do {
            return try SQLiteHealthStore(directory: directory)
        } catch {
            throw AclInput.fail("\(error)")
        }
    }
}
