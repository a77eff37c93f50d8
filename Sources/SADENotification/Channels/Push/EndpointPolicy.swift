import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which push endpoints the server will POST to: `https` only, and only to public
/// addresses — otherwise anyone who can subscribe could point the server at its own
/// network's loopback, private or link-local services.
public struct EndpointPolicy: Sendable {
    /// Whether endpoints on loopback, private and link-local addresses are allowed
    /// (a push service inside the network; the tests).
    public var allowsPrivateAddresses: Bool

    /// A policy; private addresses are refused unless `allowsPrivateAddresses`.
    public init(allowsPrivateAddresses: Bool = false) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    /// Checks `endpoint`: an `https` URL with a host whose every address is public
    /// (unless private ones are allowed). Resolves the host, blocking: call it off the
    /// cooperative pool (``checkOffThePool(_:)``).
    public func check(_ endpoint: String) throws(WebPushError) {
        guard let url = URL(string: endpoint), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil
        else { throw .endpointNotHTTPS(endpoint) }
        guard !allowsPrivateAddresses else { return }
        let trimmed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = Self.addresses(of: trimmed)
        guard !addresses.isEmpty else { throw .endpointNotResolved(host: host) }
        guard addresses.allSatisfy(Self.isPublic) else { throw .endpointNotPublic(host: host) }
    }

    /// ``check(_:)`` on NIO's thread pool, so that a slow name server holds no task's thread.
    public func checkOffThePool(_ endpoint: String) async throws(WebPushError) {
        let policy = self
        let outcome: Result<Void, WebPushError>
        do {
            outcome = try await NIOThreadPool.singleton.runIfActive { () -> Result<Void, WebPushError> in
                do throws(WebPushError) { try policy.check(endpoint) } catch { return .failure(error) }
                return .success(())
            }
        } catch {
            outcome = .failure(.endpointNotResolved(host: URL(string: endpoint)?.host ?? endpoint))
        }
        try outcome.get()
    }

    /// The IPv4 (4 bytes) and IPv6 (16 bytes) addresses `host` resolves to.
    static func addresses(of host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr else { continue }
            switch Int32(entry.pointee.ai_family) {
            case AF_INET:
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(withUnsafeBytes(of: ipv4, Array.init))
            case AF_INET6:
                let ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                addresses.append(withUnsafeBytes(of: ipv6, Array.init))
            default: continue
            }
        }
        return addresses
    }

    /// Whether an address is routable on the internet: not unspecified, loopback, private
    /// (RFC 1918, RFC 4193), shared (RFC 6598), link-local, multicast or reserved.
    static func isPublic(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return isPublicIPv4(address) }
        guard address.count == 16 else { return false }
        if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
            return isPublicIPv4(Array(address[12..<16]))  // IPv4-mapped
        }
        if address[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1 and IPv4-compatible ::a.b.c.d
        if address[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return false }  // 64:ff9b::/96 NAT64
        if address[0] == 0x20 && address[1] == 0x02 { return false }  // 2002::/16 6to4
        if address[0] == 0xFE && address[1] & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local
        if address[0] & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if address[0] == 0xFF { return false }  // multicast
        if address[0] == 0x20 && address[1] == 0x01 && address[2] == 0x0D && address[3] == 0xB8 { return false }  // documentation
        return true
    }

    private static func isPublicIPv4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): false
        case (100, 64...127): false  // shared address space
        case (169, 254): false  // link-local
        case (172, 16...31), (192, 168): false
        case (192, 0) where a[2] == 0 || a[2] == 2: false  // IETF protocol assignments, documentation
        case (198, 18...19): false  // benchmarking
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: false  // documentation
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }
}
