import Foundation
import Hummingbird
import SADEMonitoring

extension MonitoringServer {
    /// `POST register`, `POST login` and `PUT changeProject/{id}` of the thesis's User controller.
    func addWearableUserRoutes(to users: RouterGroup<MonitoringRequestContext>) {
        // Anyone may register; they become a "User" (a patient with a record of their own) in "No Project".
        users.post("register") { request, context -> Response in
            try limitLoginAttempts(context)
            let input = try await JSONBody.decode(WearableRegistration.self, from: request, limit: configuration.maxBodyBytes)
            let account = try await system.wearable.register(
                username: input.username, password: input.password, name: input.name, location: input.location, at: system.now())
            return try JSONBody.response(WearableUserView(account), status: .created)
        }

        // The thesis's answer to wrong credentials is a 400 with its own body, which its clients expect.
        users.post("login") { request, context -> Response in
            try limitLoginAttempts(context)
            let input = try await JSONBody.decode(WearableCredentials.self, from: request, limit: configuration.maxBodyBytes)
            guard let account = try await system.accounts.authenticate(username: input.username, password: input.password) else {
                return try JSONBody.response(["message": "Username or password is incorrect"], status: .badRequest)
            }
            let (token, expiresAt) = try await tokens.issue(for: account)
            return try JSONBody.response(WearableLoginView(account, token: token, expiresAt: expiresAt))
        }

        // As in the thesis, an admin moves themself; `PUT /Api/Project/assign` moves someone else.
        users.put("changeProject/:id") { _, context -> Response in
            let admin = try context.requireAdmin()
            try await system.wearable.changeProject(of: admin, to: try wearableNumber("id", in: context))
            return Response(status: .noContent)
        }
    }
}
