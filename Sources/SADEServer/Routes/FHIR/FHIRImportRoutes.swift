import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `POST /fhir`: imports a FHIR R4 `Bundle` holding one `Patient` and their
    /// `Observation`s (``FHIRImporter``); all or nothing.
    ///
    /// An admin may import any patient: a new one is registered (not admitted), a known
    /// one's record is replaced, keeping their sector and bed. A doctor or nurse may
    /// import observations of a patient of their sectors; the registered record stays as
    /// it is. A bad Bundle is a 400 naming the entry and what is wrong (as is a new
    /// patient whose id is not an identifier ``AdminInput/identifier(_:field:limit:)``
    /// accepts, and a sample starting or ending more than
    /// ``ObservationInput/allowedClockSkew`` after the server's time); a sample that is
    /// stored already is a 409.
    func addFHIRImportRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct Imported: ResponseEncodable {
            let patient: PatientView
            /// How many observations were stored.
            let imported: Int
            /// Whether the patient was new.
            let created: Bool
        }

        api.post("fhir") { request, context in
            let caller = try context.requireStaff()
            let data = try await AdminInput.bodyData(of: request, context: context)
            guard !data.isEmpty else { throw APIError.invalid("the body is empty: a FHIR Bundle in JSON is needed", code: "invalid-body") }
            let record: PatientRecord
            do {
                record = try FHIRImporter().record(from: data)
            } catch {
                throw APIError.invalid("\(error)", code: "invalid-fhir")
            }
            try Self.refuseFutureSamples(of: record, in: data, now: system.now())
            let imported = try await ClinicalAdministration(system: system).importRecord(record, by: caller)
            return EditedResponse(
                status: .created, response: Imported(patient: PatientView(imported.patient), imported: imported.samples, created: imported.created))
        }
    }

    /// A 400 naming the Bundle entry of the first sample of `record` that starts or ends
    /// later than `now` plus the clock skew a device is allowed: a sample from the future
    /// would stand as the patient's latest reading until real time caught up with it.
    static func refuseFutureSamples(of record: PatientRecord, in json: Data, now: Date) throws {
        let latest = now.addingTimeInterval(ObservationInput.allowedClockSkew)
        guard let position = record.samples.firstIndex(where: { $0.start > latest || $0.end > latest }) else { return }
        let sample = record.samples[position]
        // The samples follow the Bundle's order, one per entry other than the Patient's.
        let entries = (try? JSONDecoder().decode(FHIRBundle.self, from: json))?.entry ?? []
        let observations = entries.enumerated().filter { _, entry in
            if case .patient = entry.resource { return false }
            return true
        }
        var place = "the sample \(sample.id)"
        if position < observations.count {
            let (index, entry) = observations[position]
            place = "\(FHIRImportError.Entry(index: index, fullUrl: entry.fullUrl))"
        }
        let field = sample.start > latest ? "start" : "end"
        throw APIError.invalid(
            "\(place): the observation's \(field) is in the future (the server's time is \(now.formatted(.iso8601)))",
            code: "invalid-fhir")
    }
}

