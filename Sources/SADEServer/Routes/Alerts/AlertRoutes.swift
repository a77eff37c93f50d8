import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `GET /alerts?status=open|acknowledged|all&patient=` (the alerts of the caller's
    /// patients, newest first), `GET /alerts/{id}` and `POST /alerts/{id}/acknowledge`,
    /// where `id` is the alert's or that of one of its escalation notices (what a doctor
    /// it was escalated to got) while the alert is open.
    func addAlertRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("alerts") { request, context in
            let caller = try context.requireCaller()
            guard caller.role != .device else { throw APIError.forbidden("a device reads no alerts") }
            let parameters = request.uri.queryParameters
            let status = try parameters["status"].map { text in
                guard let status = AlertStatus(rawValue: String(text)) else {
                    throw APIError.invalid("status: must be open, acknowledged or all", code: "invalid-parameter")
                }
                return status
            } ?? .open
            var patients = try await system.access.readablePatients(for: caller)
            if let patient = parameters["patient"].map({ PatientID(String($0)) }) {
                guard patients?.contains(patient) ?? true else { throw APIError.forbidden("patient \(patient) is not one of your patients") }
                patients = [patient]
            }
            return try await alertBook().alerts(status: status, patients: patients)
        }

        api.get("alerts/:id") { _, context in
            try await visibleAlert(context)
        }

        api.post("alerts/:id/acknowledge") { _, context in
            let caller = try context.requireCaller()
            guard caller.role == .admin || caller.role.isCareWorker else {
                throw APIError.forbidden("only health-care workers acknowledge alerts")
            }
            let alert = try await visibleAlert(context)
            let acknowledged = try await alertBook().acknowledge(alert.id, by: caller.staffID ?? caller.username)
            return acknowledged
        }
    }

    /// The alert named in the path (by its id or an escalation notice's) if the caller
    /// may see its patient: 404 or 403 otherwise.
    func visibleAlert(_ context: MonitoringRequestContext) async throws -> AlertRecord {
        let caller = try context.requireCaller()
        let text = try context.pathParameter("id")
        guard let id = UUID(uuidString: text) else { throw APIError.notFound("no alert \(text)") }
        let book = try alertBook()
        var found = try await book.alert(id)
        if found == nil { found = try await book.alert(forNotice: id) }
        guard let alert = found else { throw APIError.notFound("no alert \(text)") }
        context.auditNote.note(patient: alert.patient)
        guard try await system.access.mayRead(alert.patient, as: caller) else {
            throw APIError.forbidden("alert \(text) is about a patient who is not yours")
        }
        return alert
    }

    func alertBook() throws -> AlertBook { system.pipeline.book }
}

extension APIError {
    /// The answer for an alert book error.
    init(_ error: AlertBookError) {
        switch error {
        case .unknownAlert: self = .notFound(error.description)
        case .alreadyAcknowledged: self = .conflict(error.description)
        case .storage: self = APIError(.internalServerError, code: "internal", message: "the server could not read or write alerts")
        case .unavailable: self = APIError(MonitoringError.unavailable(error.description))
        }
    }
}
