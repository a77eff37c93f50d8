import Hummingbird
import SADEMonitoring

/// Finds who is calling: a bearer token in the `Authorization` header is either a login
/// JWT or a device token; for browsers' `EventSource`, which sends no headers, the live
/// streams (monitoring events, an agent's events, a platform's messages) take a one-time
/// `?ticket=` instead (never the token in the URL, where logs keep it). A request with a
/// bad or expired token or ticket is refused with 401; one without goes on anonymous and
/// routes that need a caller refuse it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext

    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let token = Self.bearerToken(of: request) {
            (context.caller, context.credentialsExpireAt) = try await authenticator.account(forToken: token)
        } else if let ticket = Self.streamTicket(of: request) {
            (context.caller, context.credentialsExpireAt) = try await authenticator.account(forTicket: ticket)
        }
        if let caller = context.caller { context.auditNote.caller(caller) }
        return try await next(request, context)
    }

    static func bearerToken(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// The ticket of a request for a live stream (paths match regardless of case): the
    /// monitoring events, an agent's events, a platform's messages.
    static func streamTicket(of request: Request) -> String? {
        guard request.method == .get, isLiveStream(request.uri.path.lowercased().split(separator: "/", omittingEmptySubsequences: false))
        else { return nil }
        return request.uri.queryParameters["ticket"].map(String.init)
    }

    /// `/api/v1/events`, `/api/v1/platforms/{id}/agents/{name}/events` or
    /// `/api/v1/platforms/{id}/messages`, split at `/`.
    private static func isLiveStream(_ path: [Substring]) -> Bool {
        guard path.count >= 4, path[0].isEmpty, path[1] == "api", path[2] == "v1" else { return false }
        guard !path.dropFirst(3).contains(where: \.isEmpty) else { return false }  // the router would read another route
        switch path.dropFirst(3).count {
        case 1: return path[3] == "events"
        case 3: return path[3] == "platforms" && path[5] == "messages"
        case 5: return path[3] == "platforms" && path[5] == "agents" && path[7] == "events"
        default: return false
        }
    }
}
