import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// A device token as the API lists it: never with its secret.
struct DeviceTokenView: ResponseEncodable {
    let id: String
    let patientID: PatientID
    let label: String
    let createdAt: Date
    let revokedAt: Date?

    init(_ token: DeviceToken) {
        id = token.id
        patientID = token.patientID
        label = token.label
        createdAt = token.createdAt
        revokedAt = token.revokedAt
    }
}

extension MonitoringServer {
    /// A patient's monitoring devices, admin only: `POST /patients/{id}/devices` issues
    /// a token (the secret is in this answer only; the body, `{"label": …}`, may be left out), `GET /patients/{id}/devices` lists
    /// them, revoked ones included, `DELETE /patients/{id}/devices/{tokenID}` revokes one.
    /// A device sends its secret as a bearer token and may then only write its
    /// patient's samples.
    func addDeviceTokenRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.post("patients/:id/devices") { request, context in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            let body = try await AdminInput.bodyData(of: request, context: context)
            let device = body.isEmpty ? DeviceInput(label: nil) : try context.requestDecoder.decode(DeviceInput.self, from: body)
            let (token, secret) = try await system.devices.issue(
                for: patient.id, label: device.label ?? "monitor of \(patient.id)", at: system.now())
            context.auditNote.note(action: .accessChange, detail: "device token \(token.id) issued")
            return EditedResponse(status: .created, response: IssuedDeviceToken(token: DeviceTokenView(token), secret: secret))
        }

        api.get("patients/:id/devices") { _, context in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            return try await system.devices.tokens(for: patient.id).map(DeviceTokenView.init)
        }

        api.delete("patients/:id/devices/:tokenID") { _, context in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            let id = try context.pathParameter("tokenID")
            guard let token = try await system.devices.tokens(for: patient.id).first(where: { $0.id == id }) else {
                throw APIError.notFound("patient \(patient.id) has no device token \(id)")
            }
            guard token.revokedAt == nil else { throw APIError.conflict("device token \(id) was revoked already") }
            try await system.devices.revoke(id, at: system.now())
            context.auditNote.note(action: .accessChange, detail: "device token \(id) revoked")
            return AdminInput.noContent()
        }
    }
}

/// The body of `POST /patients/{id}/devices`.
struct DeviceInput: Decodable {
    let label: String?
}

/// What `POST /patients/{id}/devices` answers.
struct IssuedDeviceToken: ResponseEncodable {
    let token: DeviceTokenView
    /// The bearer token the device sends; shown once.
    let secret: String
}
