import Foundation

/// An XMPP server the interop tests start and stop: Debian's Prosody, on a free loopback
/// port, for `localhost`.
public struct XMPPTestServer: Sendable {
    /// The server's process.
    public let process: SadeProcess
    /// The port clients connect to.
    public let port: Int
    /// Its files (Prosody's configuration, data and certificate).
    public let directory: URL
    /// The PEM authority its certificate is signed by.
    public let certificateAuthority: String?

    /// Prosody with registration open, TLS required (a certificate from a test CA), SCRAM
    /// accounts, no offline storage (a message to someone offline bounces at once).
    public static func prosody() async throws -> XMPPTestServer {
        try TestTools.requireCommands(["prosody", "openssl"])
        let authority = try TestCertificateAuthority.make()
        let directory = authority.directory
        let port = try closedPort()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        let configuration = """
            pidfile = "\(directory.path)/prosody.pid"
            data_path = "\(directory.path)/data"
            run_as_root = true
            interfaces = { "127.0.0.1" }
            c2s_ports = { \(port) }
            s2s_ports = { }
            http_ports = { }
            https_ports = { }
            c2s_direct_tls_ports = { }
            modules_enabled = { "roster"; "saslauth"; "tls"; "disco"; "register"; "ping"; "posix" }
            modules_disabled = { "s2s"; "offline" }
            allow_registration = true
            min_seconds_between_registrations = 0
            c2s_require_encryption = true
            authentication = "internal_hashed"
            storage = "internal"
            certificates = "\(directory.path)"
            log = { info = "*console" }
            VirtualHost "localhost"
                ssl = { certificate = "\(authority.serverCertificate)"; key = "\(authority.serverKey)" }
            """
        let file = directory.appendingPathComponent("prosody.cfg.lua")
        try Data(configuration.utf8).write(to: file)
        let process = try SadeProcess(["-F", "--config", file.path], executable: URL(fileURLWithPath: TestTools.locate("prosody")!))
        guard await process.line(containing: "Activated service 'c2s' on [127.0.0.1]:\(port)") != nil else {
            throw SadeProcessError.notListening(await process.finish().output)
        }
        return XMPPTestServer(process: process, port: port, directory: directory, certificateAuthority: authority.certificateAuthority)
    }

    /// `HOST:PORT` for `--xmpp-server`.
    public var address: String { "127.0.0.1:\(port)" }

    /// The `sade` options that trust this server's certificate.
    public var trustOptions: [String] {
        certificateAuthority.map { ["--xmpp-ca-file", $0] } ?? ["--xmpp-accept-any-certificate"]
    }

    /// Stops the server and waits for it (SIGKILL: Prosody inherits the test process's
    /// blocked SIGTERM).
    public func stop() async {
        process.signal(SIGKILL)
        _ = await process.finish()
        if certificateAuthority != nil { try? FileManager.default.removeItem(at: directory) }
    }
}
