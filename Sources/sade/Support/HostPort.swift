import ArgumentParser

/// A server's address on the command line, `HOST:PORT` (`[::1]:25` for an IPv6 literal):
/// one parser for every command that takes one.
struct HostPort: Hashable, Sendable, CustomStringConvertible {
    /// The host name or address, without brackets.
    var host: String
    /// The port, 1–65535.
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; `nil` when it is not one.
    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]), (1...65_535).contains(port)
        else { return nil }
        var host = argument[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(" "), !host.contains("[") else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// Parses an option's value, naming the expected form when it is not one.
    static func parse(_ text: String) throws -> HostPort {
        guard let value = HostPort(argument: text) else { throw ValidationError("must be HOST:PORT with a port 1–65535, e.g. localhost:2525") }
        return value
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
