import Foundation
import HTTPTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird

/// Finds the client behind the proxies the server trusts (a load balancer before
/// several nodes): each proxy appends the address it received the request from to
/// `X-Forwarded-For`, so the client is the rightmost address that is not a trusted
/// proxy's. A request from anyone else keeps its peer's address, whatever its header
/// says: a client cannot pick the address it is rate-limited by.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext
    let trustedProxies: Set<String>

    /// A middleware trusting `proxies` (IP addresses, compared as ``normalized(_:)`` spells them).
    init(trustedProxies proxies: Set<String>) {
        trustedProxies = Set(proxies.map(Self.normalized))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let peer = context.remoteAddress.map(Self.normalized), trustedProxies.contains(peer) {
            context.remoteAddress = Self.client(forwardedFor: request.headers[values: .forwardedFor], behind: trustedProxies) ?? peer
        }
        return try await next(request, context)
    }

    /// The rightmost address of the `X-Forwarded-For` values that is not a trusted
    /// proxy's; `nil` when there is none (no header, or only proxies).
    static func client(forwardedFor values: [String], behind proxies: Set<String>) -> String? {
        let hops = values.flatMap { $0.split(separator: ",") }.map { normalized($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        return hops.last { !proxies.contains($0) }.map { String($0.prefix(64)) }
    }

    /// One spelling per address: lower case, and an IPv4 address as itself when a
    /// dual-stack socket shows it IPv4-mapped (`::ffff:10.0.0.10`).
    static func normalized(_ address: String) -> String {
        let lower = address.lowercased()
        if lower.hasPrefix("::ffff:"), lower.dropFirst(7).contains(".") { return String(lower.dropFirst(7)) }
        return lower
    }

    /// Whether `address` is an IPv4 or IPv6 address (what `--trusted-proxy` takes).
    static func isIPAddress(_ address: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request came through, the client first.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
}
