import Hummingbird
import SADEMonitoring

/// Finds who is calling: a bearer token in the `Authorization` header (or, for
/// browsers' `EventSource`, the `access_token` query parameter) is either a login JWT
/// or a device token. A request with a bad or expired token is refused with 401; one
/// without a token goes on anonymous and routes that need a caller refuse it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext

    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Self.bearerToken(of: request) else { return try await next(request, context) }
        var context = context
        (context.caller, context.credentialsExpireAt) = try await authenticator.account(forToken: token)
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
