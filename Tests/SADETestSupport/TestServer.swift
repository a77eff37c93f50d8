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

    /// A real SMTP server (aiosmtpd) saving what it receives in `directory`.
    public static func smtp(port: Int = 0, user: String? = nil, password: String? = nil, startTLS: Bool = false) async throws -> TestServer {
        let directory = try freshDirectory()
        var arguments = [directory.path, "--port", "\(port)"]
        if let user, let password { arguments += ["--user", user, "--password", password] }
        if startTLS {
            let (certificate, key) = try selfSignedCertificate(in: directory)
            arguments += ["--tls-cert", certificate, "--tls-key", key]
        }
        let (process, port) = try await SadeProcess.pythonServer(script("smtp_sink.py"), arguments, modules: ["aiosmtpd"])
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

    /// A throw-away certificate for `localhost` made with the `openssl` command.
    public static func selfSignedCertificate(in directory: URL) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path, key = directory.appendingPathComponent("key.pem").path
        try TestTools.requireCommands(["openssl"])
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                             "-days", "1", "-subj", "/CN=localhost"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
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
        process.signal(SIGKILL)
        _ = await process.finish()
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

/// A port nothing listens on (bound and released at once).
public func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
