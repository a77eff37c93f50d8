import Foundation
import SADENet

/// An XMPP server the interop tests start and stop, on a free loopback port, for
/// `localhost`: Debian's Prosody, or SPADE's own (pyjabber, what `spade run` starts).
public struct XMPPTestServer: Sendable, CustomStringConvertible {
    /// Which server.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case prosody
        case spade
        public var description: String { self == .prosody ? "Prosody" : "SPADE's pyjabber" }
    }

    public let kind: Kind
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
        let configuration = ProsodyConfiguration.text(
            directory: directory.path, port: port, certificate: authority.serverCertificate, key: authority.serverKey)
        let file = directory.appendingPathComponent("prosody.cfg.lua")
        try Data(configuration.utf8).write(to: file)
        let process = try SadeProcess(["-F", "--config", file.path], executable: URL(fileURLWithPath: TestTools.locate("prosody")!))
        guard await process.line(containing: ProsodyConfiguration.readyLine(port: port)) != nil else {
            throw SadeProcessError.notListening(await process.finish().output)
        }
        return XMPPTestServer(kind: .prosody, process: process, port: port, directory: directory, certificateAuthority: authority.certificateAuthority)
    }

    /// SPADE's embedded server (pyjabber, SPADE 4.1.4's dependency), as `spade run`
    /// starts it but for three patches of the launcher (`Servers/spade_server.py`: no
    /// admin page on port 9090, password hashing in threads, bytes arriving during the
    /// TLS upgrade held instead of lost): registration open, accounts in a fresh file in
    /// the server's directory, its own self-signed certificate (SPADE agents do not
    /// check it; our side accepts any, as SPADE's default).
    public static func spade() async throws -> XMPPTestServer {
        try TestTools.requirePython(modules: ["spade", "pyjabber"])
        let directory = try TestServer.freshDirectory()
        let (port, serverPort) = (try closedPort(), try closedPort())
        let process = try SadeProcess(
            [TestServer.script("spade_server.py").path, "\(port)", "\(serverPort)"], executable: TestTools.python, directory: directory)
        guard await process.line(containing: "listening \(port)") != nil else {
            process.signalGroup(SIGKILL)
            throw SadeProcessError.notListening(await process.finish().error)
        }
        return XMPPTestServer(kind: .spade, process: process, port: port, directory: directory, certificateAuthority: nil)
    }

    /// The server of `kind`, started.
    public static func start(_ kind: Kind) async throws -> XMPPTestServer {
        switch kind {
        case .prosody: try await prosody()
        case .spade: try await spade()
        }
    }

    public var description: String { kind.description }

    /// `HOST:PORT` for `--xmpp-server`.
    public var address: String { "127.0.0.1:\(port)" }

    /// The `sade` options that trust this server's certificate.
    public var trustOptions: [String] {
        certificateAuthority.map { ["--xmpp-ca-file", $0] } ?? ["--xmpp-accept-any-certificate"]
    }

    /// Stops the server and waits for it (SIGKILL: Prosody inherits the test process's
    /// blocked SIGTERM; pyjabber's worker processes go with their group).
    public func stop() async {
        if kind == .spade { process.signalGroup(SIGKILL) } else { process.signal(SIGKILL) }
        _ = await process.finish()
        try? FileManager.default.removeItem(at: directory)
    }
}
