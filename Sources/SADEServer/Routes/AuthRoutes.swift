import Foundation
import Hummingbird
import SADEMonitoring

/// An account as the API shows it: never with a password.
struct AccountView: ResponseCodable, Sendable {
    let id: String
    let username: String
    let name: String
    let role: UserRole
    let email: String?
    let staffID: String?
    let patientID: String?
    /// A relative's patients (absent for other roles).
    let relativeOf: [String]?
    /// The wearable thesis's project the user works in (0: "No Project").
    let projectId: Int

    init(_ account: UserAccount) {
        id = account.id
        username = account.username
        name = account.name
        role = account.role
        email = account.email
        staffID = account.staffID
        patientID = account.patientID?.rawValue
        relativeOf = account.role == .relative ? account.relativeOf.map(\.rawValue) : nil
        projectId = account.projectID
    }
}

extension MonitoringServer {
    /// `POST /auth/login` → a bearer token; `GET /auth/me` → the caller.
    func addAuthRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        struct Login: Decodable {
            let username: String
            let password: String
        }
        struct LoginAnswer: ResponseEncodable {
            let token: String
            let expiresAt: Date
            let user: AccountView
        }
        api.post("auth/login") { request, context in
            try limitLoginAttempts(context)
            let login = try await request.decode(as: Login.self, context: context)
            context.auditNote.note(actor: login.username, action: .login)
            try loginBackOff.admit(login.username)
            guard let account = try await system.accounts.authenticate(username: login.username, password: login.password) else {
                loginBackOff.failed(login.username)
                throw APIError.unauthenticated("the username or password is incorrect")
            }
            loginBackOff.succeeded(login.username)
            context.auditNote.caller(account)
            let (token, expiresAt) = try await tokens.issue(for: account)
            return LoginAnswer(token: token, expiresAt: expiresAt, user: AccountView(account))
        }
        api.get("auth/me") { _, context in
            AccountView(try context.requireCaller())
        }
    }
}
