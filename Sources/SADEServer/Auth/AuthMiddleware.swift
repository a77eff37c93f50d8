import Hummingbird
import SADEMonitoring

/// Finds who is calling: a bearer token in the `Authorization` header (or, for
/// browsers' `EventSource`, the `access_token` query parameter) is either a login JWT
/// or a device token. A request with a bad or expired token is refused with 401; one
/// without a token goes on anonymous and routes that need a caller refuse it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext

    let tokens: TokenIssuer
    let accounts: AccountStore
    let devices: DeviceTokens

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Self.bearerToken(of: request) else { return try await next(request, context) }
        var context = context
        if token.hasPrefix(DeviceTokens.secretPrefix) {
            guard let device = try devices.token(secret: token) else {
                throw APIError.unauthenticated("the device token is not valid or was revoked")
            }
            context.caller = device.account
        } else {
            let (id, expiresAt) = try await tokens.verify(token)
            guard let account = try accounts.account(id: id) else {
                throw APIError.unauthenticated("the account of this token no longer exists")
            }
            context.caller = account
            context.credentialsExpireAt = expiresAt
        }
        return try await next(request, context)
    }

    static func bearerToken(of request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]).trimmingCharacters(in: .whitespaces) }
            return nil
        }
        return request.uri.queryParameters["access_token"].map(String.init)
    }
}
