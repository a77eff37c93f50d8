import Foundation
import Hummingbird
import NIOCore
import SADEMonitoring

/// What a route knows about a request besides the request itself: who is calling
/// (set by ``AuthMiddleware``) and from where.
public struct MonitoringRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The authenticated caller, if the request carried a valid token.
    public var caller: UserAccount?
    /// When the caller's login token expires (`nil` for device tokens).
    public var credentialsExpireAt: Date?
    /// The client's IP address, for rate limiting: the peer's, or the one a trusted
    /// proxy forwarded for (``ClientAddressMiddleware``).
    public internal(set) var remoteAddress: String?
    /// What the request's audit entry says beyond its method, path and status (see ``AuditMiddleware``).
    let auditNote = AuditNote()

    /// The largest body a route decodes (413 beyond), set from the server's
    /// configuration by ``UploadLimitMiddleware``.
    public var maxUploadSize = ServerConfiguration.defaultMaxBodyBytes
    /// Bodies are read as JSON, with errors that name the field at fault.
    public var requestDecoder: APIRequestDecoder { APIRequestDecoder() }
    /// What routes return is written as JSON.
    public var responseEncoder: APIResponseEncoder { APIResponseEncoder() }

    /// The connection the request came on (closed when a body is far too large).
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The caller, or a 401 when the request is anonymous.
    public func requireCaller() throws -> UserAccount {
        guard let caller else { throw APIError.unauthenticated("this needs a bearer token: log in first") }
        return caller
    }

    /// The caller if they are an admin; 401 or 403 otherwise.
    public func requireAdmin() throws -> UserAccount {
        let caller = try requireCaller()
        guard caller.role == .admin else { throw APIError.forbidden("only an admin may do this") }
        return caller
    }
}

/// Puts the server's body limit (`ServerConfiguration.maxBodyBytes`) into every request's context.
struct UploadLimitMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
