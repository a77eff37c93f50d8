import Foundation
import HTTPTypes
import Hummingbird

/// Finds the client behind the proxies the server trusts (a load balancer before
/// several nodes): each proxy appends the address it received the request from to
/// `X-Forwarded-For`, so the client is the rightmost address that is not a trusted
/// proxy's. A request from anyone else keeps its peer's address, whatever its header
/// says: a client cannot pick the address it is rate-limited by.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext
    let trustedProxies: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let peer = context.remoteAddress, trustedProxies.contains(peer) {
            context.remoteAddress = Self.client(forwardedFor: request.headers[values: .forwardedFor], behind: trustedProxies) ?? peer
        }
        return try await next(request, context)
    }

    /// The rightmost address of the `X-Forwarded-For` values that is not a trusted
    /// proxy's; `nil` when there is none (no header, or only proxies).
    static func client(forwardedFor values: [String], behind proxies: Set<String>) -> String? {
        let hops = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !proxies.contains($0) }.map { String($0.prefix(64)) }
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request came through, the client first.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
