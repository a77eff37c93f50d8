import Foundation

/// The Python servers the notification and issue-track tests talk to, each in a fresh
/// directory: a real SMTP server (aiosmtpd) and a webhook receiver.
public struct TestServer: Sendable {
    /// The server's process.
    public let process: SadeProcess
    /// The loopback port it listens on.
    public let port: Int
    /// Where it saves what it receives, one JSON file per message.
    public let directory: URL

    /// A real SMTP server (aiosmtpd) saving what it receives in `directory`, on a
    /// loopback port of its own, or on `reserved` (a port the test held from the start).
    public static func smtp(
        on reserved: ReservedPort? = nil, user: String? = nil, password: String? = nil, startTLS: Bool = false
    ) async throws -> TestServer {
        let directory = try freshDirectory()
        var arguments = [directory.path]
        if reserved != nil { arguments += ["--socket-fd", "3"] }
        if let user, let password { arguments += ["--user", user, "--password", password] }
        if startTLS {
            let (certificate, key) = try await selfSignedCertificate(in: directory)
            arguments += ["--tls-cert", certificate, "--tls-key", key]
        }
        let (process, port) = try await SadeProcess.pythonServer(
            script("smtp_sink.py"), arguments, modules: ["aiosmtpd"], passing: reserved.map { [$0.descriptor] } ?? [])
        return TestServer(process: process, port: port, directory: directory)
    }

    /// A webhook receiver checking the signature with `secret`, answering `status`.
    public static func webhook(secret: String?, status: Int = 200) async throws -> TestServer {
        let directory = try freshDirectory()
        var arguments = [directory.path, "--status", "\(status)"]
        if let secret { arguments += ["--secret", secret] }
        let (process, port) = try await SadeProcess.pythonServer(script("webhook_sink.py"), arguments)
        return TestServer(process: process, port: port, directory: directory)
    }

    /// A Web Push service stand-in (push_service.py) over TLS with `authority`'s
    /// certificate, holding the keys of `subscribers` browsers (``pushSubscribers()``).
    public static func pushService(subscribers: Int, authority: TestCertificateAuthority) async throws -> TestServer {
        let directory = try freshDirectory()
        let arguments = [
            directory.path, "--cert", authority.serverCertificate, "--key", authority.serverKey, "--subscribers", "\(subscribers)",
        ]
        let (process, port) = try await SadeProcess.pythonServer(script("push_service.py"), arguments, modules: ["http_ece", "py_vapid"])
        return TestServer(process: process, port: port, directory: directory.appendingPathComponent("received"))
    }

    /// The push service stand-in's browsers: name, endpoint and keys (base64url).
    public func pushSubscribers() throws -> [(name: String, endpoint: String, p256dh: String, auth: String)] {
        let data = try Data(contentsOf: directory.deletingLastPathComponent().appendingPathComponent("subscribers.json"))
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: String]] ?? []
        return list.map { ($0["name"] ?? "", $0["endpoint"] ?? "", $0["p256dh"] ?? "", $0["auth"] ?? "") }
    }

    /// Makes the push service stand-in answer the next pushes to `subscriber` with
    /// `statuses` (and `Retry-After` where given), in order; 201 after them.
    public func answerPushes(to subscriber: String, with statuses: [(status: Int, retryAfter: String?)]) throws {
        let text = statuses.map { "\($0.status)" + ($0.retryAfter.map { " \($0)" } ?? "") + "\n" }.joined()
        try Data(text.utf8).write(to: directory.deletingLastPathComponent().appendingPathComponent("\(subscriber).status"))
    }

    /// A throw-away certificate for `localhost` made with the `openssl` command.
    public static func selfSignedCertificate(in directory: URL) async throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path, key = directory.appendingPathComponent("key.pem").path
        try TestTools.requireCommands(["openssl"])
        try await SadeProcess.check(URL(fileURLWithPath: "/usr/bin/env"), [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
        ])
        return (certificate, key)
    }

    /// The files saved so far, in order, decoded as JSON objects.
    public func received() throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted().map { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
    }

    /// Stops the server and waits until it has ended.
    public func stop() async {
        _ = await process.stopped()
    }

    public static func script(_ name: String) -> URL {
        Bundle.module.url(forResource: "Servers", withExtension: nil)!.appendingPathComponent(name)
    }

    public static func freshDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sade-notify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A loopback port held by the test: bound, not listening, so a connection to it is
/// refused, and no one else can take it while the test holds it (a port chosen, released
/// and used later could be anyone's by then). A server can be handed the socket
/// (``descriptor``) and listen on it. Closed when no one holds it any more.
public final class ReservedPort: Sendable {
    /// The port.
    public let port: Int
    /// The bound socket.
    public let descriptor: Int32

    /// Binds a TCP socket to `port` (0: one the system chooses) of `127.0.0.1`, or of
    /// `::1` when `ipv6`.
    public init(port: Int = 0, ipv6: Bool = false) throws {
        let family = ipv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestToolError("socket: \(String(cString: strerror(errno)))") }
        var storage = sockaddr_storage()
        var length: socklen_t
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            address.sin6_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        }
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TestToolError("bind: \(reason)")
        }
        self.descriptor = descriptor
        self.port = Int(withUnsafeBytes(of: storage) { bytes in
            UInt16(bigEndian: ipv6 ? bytes.load(as: sockaddr_in6.self).sin6_port : bytes.load(as: sockaddr_in.self).sin_port)
        })
    }

    deinit { close(descriptor) }
}

/// A server that must be told its port (PostgreSQL, Prosody, nginx, pyjabber) found it
/// taken: ``onFreePort(attempts:_:)`` tries another.
public struct PortTaken: Error, CustomStringConvertible {
    /// What the server said.
    public let description: String

    public init(_ description: String) { self.description = description }

    /// Whether `text` (a server's log or error output) says its address was in use.
    public static func isSaid(in text: String) -> Bool {
        text.localizedCaseInsensitiveContains("address already in use")
    }
}

/// Starts a server that binds a port it is told rather than one it picks: on a port that
/// was free a moment ago and, when `start` finds it taken meanwhile (it throws
/// ``PortTaken``), on another, up to `attempts` times.
public func onFreePort<T>(attempts: Int = 5, _ start: (Int) async throws -> T) async throws -> T {
    var attempt = 1
    while true {
        let port = try serverPort()
        do {
            return try await start(port)
        } catch is PortTaken where attempt < attempts {
            attempt += 1
        }
    }
}

/// A loopback port free a moment ago, below the range the system gives out for port 0 and
/// outgoing connections: only another server told its port can take it meanwhile (and
/// a server restarted on the same port finds it free).
public func serverPort() throws -> Int {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
        .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    let ephemeral = range?.first ?? 32_768
    let ports = 10_000..<max(ephemeral, 10_001)
    for _ in 0..<100 {
        if let reserved = try? ReservedPort(port: Int.random(in: ports)) { return reserved.port }
    }
    return try ReservedPort().port
}
