import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// A health-care worker as the API shows them, sectors sorted.
struct StaffView: ResponseEncodable {
    let id: StaffID
    let name: String
    let role: HealthCareWorker.Role
    let licence: String?
    let email: String?
    let phone: String?
    let sectors: [SectorID]
    let onDuty: Bool

    init(_ worker: HealthCareWorker) {
        id = worker.id
        name = worker.name
        role = worker.role
        licence = worker.licence
        email = worker.email
        phone = worker.phone
        sectors = worker.sectors.sorted()
        onDuty = worker.onDuty
    }
}

extension MonitoringServer {
    /// The health-care workers: `GET /staff` (`?sector=`, `?onDuty=true|false`) and
    /// `GET /staff/{id}` for any staff member; `PUT /staff/{id}` changes a worker's
    /// details, sectors and duty status (an admin), or only one's own duty status (a
    /// doctor or nurse).
    func addStaffRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct StaffInput: Decodable {
            var name: String?
            var licence: String?
            var email: String?
            var phone: String?
            var sectors: [String]?
            var onDuty: Bool?

            var changesOnlyDuty: Bool { name == nil && licence == nil && email == nil && phone == nil && sectors == nil }
        }

        api.get("staff") { request, context in
            _ = try context.requireStaff()
            let parameters = request.uri.queryParameters
            var onDuty: Bool?
            if let text = parameters["onDuty"] {
                guard let value = Bool(String(text)) else {
                    throw APIError.invalid("onDuty: '\(text)' is not true or false", code: "invalid-parameter")
                }
                onDuty = value
            }
            let workers = try await system.health.workers(in: parameters["sector"].map(String.init))
            return workers.filter { onDuty == nil || $0.onDuty == onDuty }.map(StaffView.init)
        }

        api.get("staff/:id") { _, context in
            _ = try context.requireStaff()
            return StaffView(try await registeredWorker(try context.pathParameter("id")))
        }

        api.put("staff/:id") { request, context in
            let caller = try context.requireStaff()
            var worker = try await registeredWorker(try context.pathParameter("id"))
            // Another's record is refused before the body is read: nothing is learnt of how it would be judged.
            if caller.role != .admin, caller.staffID != worker.id { throw APIError.forbidden("you may change only your own duty status") }
            let input = try await request.decode(as: StaffInput.self, context: context)
            if caller.role != .admin, !input.changesOnlyDuty {
                throw APIError.forbidden("only an admin may change a worker's details or sectors")
            }
            if let name = input.name { worker.name = try AdminInput.requiredText(name, field: "name") }
            if let licence = input.licence { worker.licence = AdminInput.optionalText(licence) }
            if let email = input.email {
                let address = AdminInput.optionalText(email)
                if let address, !AdminInput.isEmailAddress(address) {
                    throw APIError.invalid("email: is not an e-mail address", code: "invalid-field")
                }
                worker.email = address
            }
            if let phone = input.phone { worker.phone = AdminInput.optionalText(phone) }
            let before = worker
            if let sectors = input.sectors { worker.sectors = Set(sectors) }  // 400 naming `sectors` for an unknown one
            if let onDuty = input.onDuty { worker.onDuty = onDuty }
            try await ClinicalAdministration(system: system).update(worker)
            var changes: [String] = []
            if worker.sectors != before.sectors {
                changes.append("sectors \(before.sectors.sorted().joined(separator: ",")) → \(worker.sectors.sorted().joined(separator: ","))")
            }
            if worker.onDuty != before.onDuty { changes.append(worker.onDuty ? "on duty" : "off duty") }
            if !changes.isEmpty {
                context.auditNote.note(action: .accessChange, detail: "worker \(worker.id): " + changes.joined(separator: "; "))
            }
            return StaffView(worker)
        }
    }
}
