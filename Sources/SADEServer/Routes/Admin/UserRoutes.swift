import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// The user administration, admin only: `GET /users` (`?role=`), `POST /users`,
    /// `GET`, `PUT` and `DELETE /users/{id}`, `POST /users/{id}/password`.
    ///
    /// Creating (or turning an account into) a doctor or nurse creates their
    /// health-care worker record, or links an existing one; deleting an account keeps
    /// the worker record, which the clinical history refers to, but takes the worker off
    /// duty, so that their care-worker agent bids for no more alerts.
    func addUserRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("users") { request, context -> Response in
            _ = try context.requireAdmin()
            var role: UserRole?
            if let text = request.uri.queryParameters["role"] {
                guard let parsed = UserRole(rawValue: String(text)) else {
                    let roles = UserRole.allCases.map(\.rawValue).joined(separator: ", ")
                    throw APIError.invalid("role: '\(text)' is not one of \(roles)", code: "invalid-parameter")
                }
                role = parsed
            }
            return try await JSONBody.response(try system.accounts.accounts(role: role).map(AccountView.init))
        }

        api.post("users") { request, context -> Response in
            _ = try context.requireAdmin()
            let input = try await JSONBody.decode(UserInput.self, from: request, limit: configuration.maxBodyBytes)
            guard let role = input.role else { throw APIError.invalid("role: is missing", code: "invalid-body") }
            guard let password = input.password else { throw APIError.invalid("password: is missing", code: "invalid-body") }
            var account = UserAccount(
                username: try AdminInput.requiredText(input.username, field: "username", limit: 64),
                name: try AdminInput.requiredText(input.name, field: "name"), role: role, createdAt: system.now())
            try input.apply(to: &account)
            let worker = try await linkRecords(of: &account, input: input)
            try await system.accounts.create(account, password: password)
            if let worker {
                do {
                    try await system.health.save(worker)
                } catch {
                    _ = try? await system.accounts.delete(account.id)  // all or nothing: no account without its worker
                    throw error
                }
                try await system.staffChanged()
            }
            return try JSONBody.response(AccountView(account), status: .created)
        }

        api.get("users/:id") { _, context -> Response in
            _ = try context.requireAdmin()
            return try await JSONBody.response(AccountView(try registeredAccount(context)))
        }

        api.put("users/:id") { request, context -> Response in
            let caller = try context.requireAdmin()
            let before = try await registeredAccount(context)
            let input = try await JSONBody.decode(UserInput.self, from: request, limit: configuration.maxBodyBytes)
            guard input.password == nil else {
                throw APIError.invalid("password: is changed by POST /api/v1/users/{id}/password", code: "invalid-field")
            }
            var account = before
            try input.apply(to: &account)
            if account.id == caller.id, account.role != .admin {
                throw APIError.conflict("you cannot take away your own admin role: another admin must do it")
            }
            let worker = try await linkRecords(of: &account, input: input)
            try await system.accounts.update(account)
            if let worker {
                do {
                    try await system.health.save(worker)
                } catch {
                    _ = try? await system.accounts.update(before)
                    throw error
                }
                try await system.staffChanged()
            }
            return try JSONBody.response(AccountView(account))
        }

        api.delete("users/:id") { _, context -> Response in
            let caller = try context.requireAdmin()
            let account = try await registeredAccount(context)
            guard account.id != caller.id else { throw APIError.conflict("you cannot delete your own account") }
            // Off duty first: should the deletion fail, the worker can go back on duty;
            // the other way round, a failure would leave an on-duty worker nobody can log in as.
            if account.role.isCareWorker, let staffID = account.staffID, var worker = try await system.health.worker(staffID), worker.onDuty {
                worker.onDuty = false
                try await system.health.save(worker)
                try await system.staffChanged()
            }
            try await system.wearable.deleteAccount(account.id)
            return AdminInput.noContent()
        }

        api.post("users/:id/password") { request, context -> Response in
            _ = try context.requireAdmin()
            struct NewPassword: Decodable { let password: String }
            let account = try await registeredAccount(context)
            let input = try await JSONBody.decode(NewPassword.self, from: request, limit: configuration.maxBodyBytes)
            try await system.accounts.changePassword(of: account.id, to: input.password)
            return AdminInput.noContent()
        }
    }
}
