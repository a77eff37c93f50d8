import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring
import SADENotification

/// A notice as a person's export shows it.
struct NoticeView: Encodable {
    let id: UUID
    let severity: NotificationSeverity
    let title: String
    let body: String
    let recipients: [String]
    let createdAt: Date

    init(_ notice: Notice) {
        (id, severity, title, body) = (notice.id, notice.severity, notice.title, notice.body)
        recipients = notice.recipients.map(\.description)
        createdAt = notice.createdAt
    }
}

/// Everything but the FHIR bundle of a person's export.
private struct PersonalRecordView: Encodable {
    let exportedAt: Date
    let patient: PatientView
    let alerts: [AlertRecord]
    let notices: [NoticeView]
    let accounts: [AccountView]
    let deviceTokens: [DeviceTokenView]
    let wearableItems: [WearableDataItemView]
}

extension MonitoringServer {
    /// A person's rights over their data: `GET /patients/{id}/export` gives everything held
    /// about them (their FHIR R4 bundle with every sample, the alerts and notices about
    /// them, their accounts, device tokens and wearable items) to an admin or to the
    /// patient; `DELETE /patients/{id}` erases them from every store (an admin), leaving an
    /// audit entry that names them by identifier only.
    func addPrivacyRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("patients/:id/export") { _, context -> Response in
            let caller = try context.requireCaller()
            let patient = try await existingPatient(context)
            guard caller.role == .admin || (caller.role == .patient && caller.patientID == patient.id) else {
                throw APIError.forbidden("only an admin or the patient themself may export everything held about them")
            }
            let data = try await system.personalData(of: patient.id)
            let bundle = try FHIRExporter.json(try FHIRExporter().bundle(patient: data.patient, samples: data.samples), prettyPrinted: false)
            let record = PersonalRecordView(
                exportedAt: system.now(), patient: PatientView(data.patient), alerts: data.alerts, notices: data.notices.map(NoticeView.init),
                accounts: data.accounts.map(AccountView.init), deviceTokens: data.deviceTokens.map(DeviceTokenView.init),
                wearableItems: data.wearableItems.map { WearableDataItemView($0) })
            // One object: the bundle as the FHIR exporter wrote it under "fhir", then the rest.
            let rest = try APIResponseEncoder.encoder.encode(record)
            var body = Data(#"{"fhir":"#.utf8) + bundle + Data(",".utf8)
            body += rest.dropFirst()
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }

        api.delete("patients/:id") { _, context in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            context.auditNote.note(action: .erase, detail: "erased with their samples, alerts, notices, accounts, device tokens and wearable items")
            return try await system.erase(patient.id)
        }
    }
}

extension ErasureReport: ResponseEncodable {}
