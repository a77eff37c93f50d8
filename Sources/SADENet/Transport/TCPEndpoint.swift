/// A host and port parsed from a `tcp://host:port` transport address.
public struct TCPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Host name or IP address (IPv6 without brackets).
    public let host: String
    /// TCP port.
    public let port: Int

    /// Creates an endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `tcp://host:port`, `tcp://[::1]:port`, with an optional trailing `/…`;
    /// `nil` for anything else.
    public init?(address: String) {
        guard address.hasPrefix("tcp://") else { return nil }
        var rest = address.dropFirst("tcp://".count)
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(close, offsetBy: 2)...]
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65_535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// The transport address, `tcp://host:port`.
    public var address: String { host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)" }

    /// The transport address.
    public var description: String { address }
}
