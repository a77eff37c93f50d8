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
    /// it is. A bad Bundle is a 400 naming the entry and what is wrong; a sample that is
    /// stored already is a 409.
    func addFHIRImportRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct Imported: Encodable {
            let patient: PatientView
            /// How many observations were stored.
            let imported: Int
            /// Whether the patient was new.
            let created: Bool
        }

        api.post("fhir") { request, context -> Response in
            let caller = try context.requireStaff()
            let data = try await AdminInput.bodyData(of: request, limit: configuration.maxBodyBytes)
            guard !data.isEmpty else { throw APIError.invalid("the body is empty: a FHIR Bundle in JSON is needed", code: "invalid-body") }
            let record: PatientRecord
            do {
                record = try FHIRImporter().record(from: data)
            } catch {
                throw APIError.invalid("\(error)", code: "invalid-fhir")
            }
            let registered = try await system.health.patient(record.patient.id)
            var patient = record.patient
            if caller.role != .admin {
                guard let registered, try await system.access.mayWrite(registered.id, as: caller) else {
                    throw APIError.forbidden("you may import data only of registered patients of your sectors")
                }
                patient = registered
            } else if let registered {
                patient.sector = registered.sector
                patient.bed = registered.bed
            }
            // Samples first: they are saved all or none, so a refused batch leaves the registry as it was.
            try await system.health.save(record.samples, as: .system)
            if patient != registered { try await system.health.save(patient) }
            system.samplesAccepted()
            return try JSONBody.response(
                Imported(patient: PatientView(patient), imported: record.samples.count, created: registered == nil), status: .created)
        }
    }
}
