import Foundation
import Hummingbird
import SADEMonitoring

extension MonitoringServer {
    /// `POST register`, `POST login` and `PUT changeProject/{id}` of the thesis's User controller.
    func addWearableUserRoutes(to users: RouterGroup<MonitoringRequestContext>) {
        // Anyone may register; they become a "User" (a patient with a record of their own) in "No Project".
        users.post("register") { request, context in
            try limitLoginAttempts(context)
            let input = try await request.decode(as: WearableRegistration.self, context: context)
            let account = try await system.wearable.register(
                username: input.username, password: input.password, name: input.name, location: input.location, at: system.now())
            return EditedResponse(status: .created, response: WearableUserView(account))
        }

        // The thesis's answer to wrong credentials is a 400 with its own body, which its clients expect.
        users.post("login") { request, context -> Response in
            try limitLoginAttempts(context)
            let input = try await request.decode(as: WearableCredentials.self, context: context)
            context.auditNote.note(actor: input.username, action: .login)
            try loginBackOff.admit(input.username)  // one count per account, whichever login route
            guard let account = try await system.accounts.authenticate(username: input.username, password: input.password) else {
                loginBackOff.failed(input.username)
                return try EditedResponse(status: .badRequest, response: ["message": "Username or password is incorrect"])
                    .response(from: request, context: context)
            }
            loginBackOff.succeeded(input.username)
            context.auditNote.caller(account)
            let (token, expiresAt) = try await tokens.issue(for: account)
            return try WearableLoginView(account, token: token, expiresAt: expiresAt).response(from: request, context: context)
        }

        // As in the thesis, an admin moves themself; `PUT /Api/Project/assign` moves someone else.
        users.put("changeProject/:id") { _, context -> Response in
            let admin = try context.requireAdmin()
            try await system.wearable.changeProject(of: admin, to: try wearableNumber("id", in: context))
            return Response(status: .noContent)
        }
    }
}
