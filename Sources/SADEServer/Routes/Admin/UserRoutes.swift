import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// The user administration, admin only: `GET /users` (`?role=`), `POST /users`,
    /// `GET`, `PUT` and `DELETE /users/{id}`, `POST /users/{id}/password`. The routes
    /// read and answer; what an account change involves (its health-care worker or
    /// patient record, all or nothing) is ``UserAdministration``'s.
    func addUserRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("users") { request, context in
            _ = try context.requireAdmin()
            var role: UserRole?
            if let text = request.uri.queryParameters["role"] {
                guard let parsed = UserRole(rawValue: String(text)) else {
                    let roles = UserRole.allCases.map(\.rawValue).joined(separator: ", ")
                    throw APIError.invalid("role: '\(text)' is not one of \(roles)", code: "invalid-parameter")
                }
                role = parsed
            }
            return try await system.accounts.accounts(role: role).map(AccountView.init)
        }

        api.post("users") { request, context in
            _ = try context.requireAdmin()
            let input = try await request.decode(as: UserInput.self, context: context)
            guard let role = input.role else { throw APIError.invalid("role: is missing", code: "invalid-body") }
            guard let password = input.password else { throw APIError.invalid("password: is missing", code: "invalid-body") }
            var account = UserAccount(
                username: try AdminInput.requiredText(input.username, field: "username", limit: 64),
                name: try AdminInput.requiredText(input.name, field: "name"), role: role, createdAt: system.now())
            try input.apply(to: &account)
            let created = try await UserAdministration(system: system).create(account, password: password, links: input.links)
            let relativeOf = created.relativeOf.isEmpty ? "" : ", relative of \(created.relativeOf.map(\.rawValue).joined(separator: ", "))"
            context.auditNote.note(
                action: .accessChange, patient: created.patientID ?? (created.relativeOf.count == 1 ? created.relativeOf[0] : nil),
                detail: "account \(created.username) made, role \(created.role.rawValue)\(relativeOf)")
            return EditedResponse(status: .created, response: AccountView(created))
        }

        api.get("users/:id") { _, context in
            _ = try context.requireAdmin()
            return AccountView(try await registeredAccount(context))
        }

        api.put("users/:id") { request, context in
            let caller = try context.requireAdmin()
            let before = try await registeredAccount(context)
            let input = try await request.decode(as: UserInput.self, context: context)
            guard input.password == nil else {
                throw APIError.invalid("password: is changed by POST /api/v1/users/{id}/password", code: "invalid-field")
            }
            var account = before
            try input.apply(to: &account)
            let updated = try await UserAdministration(system: system).update(account, was: before, by: caller, links: input.links)
            var changes: [String] = []
            if updated.role != before.role { changes.append("role \(before.role.rawValue) → \(updated.role.rawValue)") }
            if updated.username != before.username { changes.append("username \(before.username) → \(updated.username)") }
            if updated.staffID != before.staffID { changes.append("worker \(before.staffID ?? "none") → \(updated.staffID ?? "none")") }
            if updated.patientID != before.patientID {
                changes.append("patient \(before.patientID?.rawValue ?? "none") → \(updated.patientID?.rawValue ?? "none")")
            }
            let linked = Set(updated.relativeOf).symmetricDifference(before.relativeOf)
            if !linked.isEmpty {
                let list = { (patients: [PatientID]) in patients.isEmpty ? "none" : patients.map(\.rawValue).joined(separator: ", ") }
                changes.append("relative of \(list(before.relativeOf)) → \(list(updated.relativeOf))")
            }
            if !changes.isEmpty {
                // Whose data the account may read changed (named when it is one patient, for the audit's patient filter).
                context.auditNote.note(
                    action: .accessChange, patient: linked.count == 1 ? linked.first : nil,
                    detail: "account \(before.username): " + changes.joined(separator: "; "))
            }
            return AccountView(updated)
        }

        api.delete("users/:id") { _, context in
            let caller = try context.requireAdmin()
            let account = try await registeredAccount(context)
            try await UserAdministration(system: system).delete(account, by: caller)
            context.auditNote.note(action: .accessChange, detail: "account \(account.username) removed")
            return AdminInput.noContent()
        }

        api.post("users/:id/password") { request, context in
            _ = try context.requireAdmin()
            struct NewPassword: Decodable { let password: String }
            let account = try await registeredAccount(context)
            let input = try await request.decode(as: NewPassword.self, context: context)
            try await system.accounts.changePassword(of: account.id, to: input.password, at: system.now())
            context.auditNote.note(action: .accessChange, detail: "account \(account.username): password changed, sessions ended")
            return AdminInput.noContent()
        }
    }
}
