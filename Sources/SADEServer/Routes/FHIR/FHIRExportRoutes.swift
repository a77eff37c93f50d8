import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `GET /patients/{id}/fhir` (`?from=`, `?to=`: ISO 8601 date-times bounding the
    /// samples' start): the patient and their samples as a FHIR R4 `Bundle` of type
    /// `collection` (``FHIRExporter``), for whoever may read the patient.
    ///
    /// Without `from` the window starts ``defaultFHIRExportSpan`` (7 days) before `to`,
    /// or before now when `to` is absent too; without `to` it has no end. A window longer
    /// than ``maximumFHIRExportSpan`` (366 days, counting to now when `to` is absent) is
    /// a 400: a patient's whole history is exported a year at a time.
    func addFHIRExportRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("patients/:id/fhir") { request, context -> Response in
            let patient = try await readablePatient(context, record: true)
            let parameters = request.uri.queryParameters
            let to = try ObservationQuery.date(parameters["to"], name: "to")
            let end = to ?? system.now()
            let from = try ObservationQuery.date(parameters["from"], name: "from") ?? end.addingTimeInterval(-Self.defaultFHIRExportSpan)
            if let to, from > to { throw APIError.invalid("from: must not be after to", code: "invalid-parameter") }
            guard end.timeIntervalSince(from) <= Self.maximumFHIRExportSpan else {
                throw APIError.invalid("from: the window may span at most 366 days", code: "invalid-parameter")
            }
            let samples = try await system.exportableSamples(of: patient.id, from: from, until: to)
            let json = try FHIRExporter.json(try FHIRExporter().bundle(patient: patient, samples: samples), prettyPrinted: false)
            return Response(
                status: .ok, headers: [.contentType: "application/fhir+json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
        }
    }

    /// How far back an export reaches when the request gives no `from`: 7 days.
    static let defaultFHIRExportSpan: TimeInterval = 7 * 86_400
    /// The longest window one export may span: 366 days.
    static let maximumFHIRExportSpan: TimeInterval = 366 * 86_400
}
