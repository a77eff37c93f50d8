import Foundation
import HTTPTypes
import Hummingbird
import SADEMonitoring

/// An error answered as JSON: `{"error": {"code": "…", "message": "…"}}` with its status.
public struct APIError: HTTPResponseError, Hashable, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable, machine-readable code, e.g. `invalid-body`.
    public let code: String
    /// What went wrong, for people; names the field at fault where there is one.
    public let message: String
    /// Extra headers, e.g. `Retry-After` or `WWW-Authenticate`.
    public var headers: HTTPFields = [:]

    /// An error with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// 400: the body or a parameter is wrong.
    public static func invalid(_ message: String, code: String = "invalid-request") -> APIError {
        APIError(.badRequest, code: code, message: message)
    }
    /// 401: no credentials or bad or expired ones.
    public static func unauthenticated(_ message: String) -> APIError {
        var error = APIError(.unauthorized, code: "unauthenticated", message: message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
    /// 403: not allowed for this caller.
    public static func forbidden(_ message: String) -> APIError { APIError(.forbidden, code: "forbidden", message: message) }
    /// 404: nothing with this identifier.
    public static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not-found", message: message) }
    /// 409: contradicts what exists.
    public static func conflict(_ message: String) -> APIError { APIError(.conflict, code: "conflict", message: message) }

    /// The answer for a monitoring error.
    public init(_ error: MonitoringError) {
        switch error {
        case .invalid(let field, let reason): self = .invalid("\(field): \(reason)", code: "invalid-field")
        case .unauthenticated(let message): self = .unauthenticated(message)
        case .forbidden(let message): self = .forbidden(message)
        case .notFound(let message): self = .notFound(message)
        case .conflict(let message): self = .conflict(message)
        case .storage: self = APIError(.internalServerError, code: "internal", message: "the server could not store or read data")
        case .unavailable:
            self = APIError(.serviceUnavailable, code: "unavailable", message: "the database is unavailable; try again shortly")
            headers[.retryAfter] = "5"
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONEncoder().encode(["error": ["code": code, "message": message]])
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
