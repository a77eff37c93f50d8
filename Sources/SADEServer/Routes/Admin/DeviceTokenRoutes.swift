import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// A device token as the API lists it: never with its secret.
struct DeviceTokenView: Encodable {
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
        api.post("patients/:id/devices") { request, context -> Response in
            _ = try context.requireAdmin()
            struct Device: Decodable { let label: String? }
            struct Issued: Encodable {
                let token: DeviceTokenView
                /// The bearer token the device sends; shown once.
                let secret: String
            }
            let patient = try await existingPatient(context)
            let body = try await AdminInput.bodyData(of: request, limit: configuration.maxBodyBytes)
            let device = body.isEmpty ? Device(label: nil) : try JSONBody.decode(Device.self, from: body)
            let (token, secret) = try await system.devices.issue(
                for: patient.id, label: device.label ?? "monitor of \(patient.id)", at: system.now())
            return try JSONBody.response(Issued(token: DeviceTokenView(token), secret: secret), status: .created)
        }

        api.get("patients/:id/devices") { _, context -> Response in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            return try await JSONBody.response(try system.devices.tokens(for: patient.id).map(DeviceTokenView.init))
        }

        api.delete("patients/:id/devices/:tokenID") { _, context -> Response in
            _ = try context.requireAdmin()
            let patient = try await existingPatient(context)
            let id = try context.pathParameter("tokenID")
            guard let token = try await system.devices.tokens(for: patient.id).first(where: { $0.id == id }) else {
                throw APIError.notFound("patient \(patient.id) has no device token \(id)")
            }
            guard token.revokedAt == nil else { throw APIError.conflict("device token \(id) was revoked already") }
            try await system.devices.revoke(id, at: system.now())
            return AdminInput.noContent()
        }
    }
}
