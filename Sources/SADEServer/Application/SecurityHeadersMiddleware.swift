import HTTPTypes
import Hummingbird

/// The security headers every answer carries, errors included (OWASP's secure headers):
/// no MIME sniffing, no referrer, never framed, its own browsing context group, a
/// content security policy that allows nothing to a JSON answer (the dashboard's pages
/// set their own), `Cache-Control: no-store` on the API's answers (they hold health
/// data and tokens) unless a route set one, and on a server that speaks only HTTPS,
/// `Strict-Transport-Security`. A header a route set is left as it is.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext
    /// The `Strict-Transport-Security` value, when the server speaks HTTPS.
    let strictTransportSecurity: String?

    static let always: [(HTTPField.Name, String)] = [
        (.init("X-Content-Type-Options")!, "nosniff"),
        (.init("Referrer-Policy")!, "no-referrer"),
        (.init("X-Frame-Options")!, "DENY"),
        (.init("Cross-Origin-Opener-Policy")!, "same-origin"),
        (.contentSecurityPolicy, "default-src 'none'; frame-ancestors 'none'"),
    ]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for (name, value) in Self.always where response.headers[name] == nil { response.headers[name] = value }
        if request.uri.path.hasPrefix("/api/"), response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        if let strictTransportSecurity { response.headers[.strictTransportSecurity] = strictTransportSecurity }
        return response
    }
}
