import Hummingbird
import Logging
import SADEHealth
import SADEIssueTrack
import SADEHome
import SADEMonitoring

/// Turns whatever a route throws into an ``APIError`` so that every error reaches the
/// client in the same JSON shape; unexpected errors are logged and answered 500
/// without their details.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            // Answered here rather than thrown on, so that the middleware in front
            // (Hummingbird's metrics) times error responses as it times the others.
            return try Self.apiError(error, request: request, context: context).response(from: request, context: context)
        }
    }

    /// The ``APIError`` that answers `error`, logging what an operator should know.
    static func apiError(_ error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as MonitoringError:
            if case .storage(let reason) = error { context.logger.error("storage failure: \(reason)") }
            return APIError(error)
        case let error as HealthError:
            if case .storage(let reason) = error { context.logger.error("health store failure: \(reason)") }
            if case .unavailable(let reason) = error { context.logger.warning("health store unavailable: \(reason)") }
            return APIError(MonitoringError(error))
        case let error as AlertBookError:
            if case .storage(let reason) = error { context.logger.error("alert book failure: \(reason)") }
            if case .unavailable(let reason) = error { context.logger.warning("alert book unavailable: \(reason)") }
            return APIError(error)
        case let error as IssueTrackError:
            if case .storage(let reason) = error { context.logger.error("issue track storage failure: \(reason)") }
            if case .agentNotStarted(_, let reason) = error { context.logger.error("issue agent not started: \(reason)") }
            return APIError(error)
        case let error as HomeError:
            if case .storage(let reason) = error { context.logger.error("home store failure: \(reason)") }
            if case .unavailable(let reason) = error { context.logger.warning("home store unavailable: \(reason)") }
            return APIError(error)
        case let error as HTTPError:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? error.status.reasonPhrase)
        default:
            context.logger.error("unexpected error on \(request.method) \(request.uri.path): \(error)")
            return APIError(.internalServerError, code: "internal", message: "the server failed to handle the request")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "invalid-request"
        case 401: "unauthenticated"
        case 403: "forbidden"
        case 404: "not-found"
        case 405: "method-not-allowed"
        case 409: "conflict"
        case 413: "body-too-large"
        case 429: "too-many-requests"
        default: status.code >= 500 ? "internal" : "http-\(status.code)"
        }
    }
}
