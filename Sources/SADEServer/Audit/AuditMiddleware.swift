import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// Writes an audit entry for every call of the API (`/api/…` and the wearable facade's
/// `/Api/…`), answered or refused: who (the caller, or the username a login tried), what
/// (the method and path, without the query), which patient (named in the path, or noted
/// by the route), when, from where, and the status. Requests refused for their rate (429)
/// are not entries. The answer waits until the entry is stored; a read whose entry cannot
/// be stored is answered 503 rather than with data nobody would know was seen.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext

    let trail: AuditTrail
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router skips empty segments (`//api/v1/…` is `/api/v1/…`): so does the audit.
        let path = Self.normalized(request.uri.path)
        guard Self.isAudited(path) else { return try await next(request, context) }
        do {
            let response = try await next(request, context)
            try await record(request, path: path, context: context, status: response.status)
            return response
        } catch {
            let status = ErrorMiddleware.apiError(error, request: request, context: context).status
            try? await record(request, path: path, context: context, status: status)
            throw error
        }
    }

    /// Stores the request's entry; throws only when a successful read's cannot be stored.
    private func record(_ request: Request, path: String, context: Context, status: HTTPResponse.Status) async throws {
        let note = context.auditNote.current
        // Requests refused for their rate are no entries — but a login refused by its
        // account's back-off is a failed login: a guessing attack leaves its trace.
        guard status != .tooManyRequests || note.action == .login else { return }
        var action = note.action ?? Self.action(of: request.method, path: path)
        if action == .login && status.code >= 400 { action = .loginFailed }
        let event = AuditEvent(
            at: now(), actor: note.caller?.username ?? note.actor, role: note.caller?.role, action: action,
            patient: note.patient ?? Self.patient(inPath: path), target: "\(request.method.rawValue) \(path)", status: status.code,
            address: context.remoteAddress, detail: note.detail)
        do {
            try await trail.record(event)
        } catch {
            context.logger.error("the audit trail cannot be written: \(error)")
            if action == .read || action == .export, status.code < 400 {
                throw MonitoringError.unavailable("the access cannot be recorded in the audit trail now: try again")
            }
        }
    }

    /// `path` without empty segments or a trailing slash, as the router matches it.
    static func normalized(_ path: String) -> String {
        guard path.contains("//") || (path.count > 1 && path.hasSuffix("/")) else { return path }
        return "/" + path.split(separator: "/").joined(separator: "/")
    }

    /// Whether calls of `path` (normalized) are audited.
    static func isAudited(_ path: String) -> Bool {
        path.utf8.count > 5 && path.prefix(5).lowercased() == "/api/"
    }

    /// A read for `GET`, an export for a patient's FHIR bundle or whole record, a change otherwise.
    static func action(of method: HTTPRequest.Method, path: String) -> AuditAction {
        guard method == .get || method == .head else { return .change }
        let segments = path.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        return segments.count == 6 && segments[3] == "patients" && (segments[5] == "fhir" || segments[5] == "export") ? .export : .read
    }

    /// The patient named in an `/api/v1/patients/{id}/…` path.
    static func patient(inPath path: String) -> PatientID? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 5, segments[1].lowercased() == "api", segments[3].lowercased() == "patients", !segments[4].isEmpty else {
            return nil
        }
        // As the router hands it to the route: percent-decoded (an unusable identifier is
        // refused there; the entry keeps it, its control characters made visible).
        return PatientID(rawValue: String(segments[4]).removingPercentEncoding ?? String(segments[4]))
    }
}
