import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `GET /patients/{id}/fhir` (`?from=`, `?to=`: ISO 8601 date-times bounding the
    /// samples' start): the patient and their samples as a FHIR R4 `Bundle` of type
    /// `collection` (``FHIRExporter``), for whoever may read the patient.
    func addFHIRExportRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("patients/:id/fhir") { request, context -> Response in
            let patient = try await registeredPatient(context, readableBy: try context.requireCaller())
            let parameters = request.uri.queryParameters
            let from = try Self.dateParameter(parameters["from"].map(String.init), named: "from")
            let to = try Self.dateParameter(parameters["to"].map(String.init), named: "to")
            if let from, let to, to < from { throw APIError.invalid("to: is before from") }
            let samples = try await exportableSamples(of: patient.id, from: from, until: to)
            let json = try FHIRExporter.json(try FHIRExporter().bundle(patient: patient, samples: samples), prettyPrinted: false)
            return Response(
                status: .ok, headers: [.contentType: "application/fhir+json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        }
    }

    /// Every sample of `patient` starting in `from..<until`, oldest first; blood-pressure
    /// members travel inside their correlation, not on their own.
    func exportableSamples(of patient: PatientID, from: Date?, until: Date?) async throws -> [HealthSample] {
        var samples: [HealthSample] = []
        for type in HealthType.all {
            samples += try await system.health.samples(SampleQuery(type, patient: patient, from: from, until: until), as: .system)
        }
        let members = Set(
            samples.flatMap { sample -> [UUID] in
                guard case .correlation(let members) = sample.value else { return [] }
                return members.map(\.id)
            })
        return samples.filter { !members.contains($0.id) }
            .sorted { ($0.start, $0.type.identifier, $0.id.uuidString) < ($1.start, $1.type.identifier, $1.id.uuidString) }
    }

    /// The query parameter `name` as an ISO 8601 date-time, `nil` when absent, 400 when unreadable.
    static func dateParameter(_ text: String?, named name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = JSONBody.parseDate(text) else {
            throw APIError.invalid("\(name): '\(text)' is not an ISO 8601 date-time such as 2026-11-22T03:00:00Z")
        }
        return date
    }
}
