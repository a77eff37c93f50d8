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
        let authority = try await TestCertificateAuthority.make()
        let directory = authority.directory
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("prosody.cfg.lua")
        return try await onFreePort { port in
            let configuration = ProsodyConfiguration.text(
                directory: directory.path, port: port, certificate: authority.serverCertificate, key: authority.serverKey)
            try Data(configuration.utf8).write(to: file)
            let process = try SadeProcess(["-F", "--config", file.path], executable: URL(fileURLWithPath: TestTools.locate("prosody")!))
            let ready = ProsodyConfiguration.readyLine(port: port), taken = "Failed to open server port"
            let line = await process.line(containingAny: [ready, taken])
            guard let line, line.contains(ready) else {
                let printed = await process.stopped().output
                if line != nil { throw PortTaken(printed) }
                throw SadeProcessError.notListening(printed)
            }
            return XMPPTestServer(kind: .prosody, process: process, port: port, directory: directory, certificateAuthority: authority.certificateAuthority)
        }
    }

    /// SPADE's embedded server (pyjabber, SPADE 4.1.4's dependency), as `spade run`
    /// starts it but for three patches of the launcher (`Servers/spade_server.py`: no
    /// admin page on port 9090, password hashing in threads, bytes arriving during the
    /// TLS upgrade held instead of lost): registration open, accounts in a fresh file in
    /// the server's directory, its own self-signed certificate (SPADE agents do not
    /// check it; our side accepts any, as SPADE's default).
    public static func spade() async throws -> XMPPTestServer {
        try await TestTools.requirePython(modules: ["spade", "pyjabber"])
        let directory = try TestServer.freshDirectory()
        return try await onFreePort { port in
            let federation = try serverPort()  // for servers of other domains: no test connects to it
            let process = try SadeProcess(
                [TestServer.script("spade_server.py").path, "\(port)", "\(federation)"], executable: TestTools.python, directory: directory)
            guard await process.line(containing: "listening \(port)") != nil else {
                let error = await process.stopped().error
                if PortTaken.isSaid(in: error) { throw PortTaken(error) }
                throw SadeProcessError.notListening(error)
            }
            return XMPPTestServer(kind: .spade, process: process, port: port, directory: directory, certificateAuthority: nil)
        }
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

    /// Stops the server and waits for it, with its group (pyjabber's worker processes).
    public func stop() async {
        _ = await process.stopped()
        try? FileManager.default.removeItem(at: directory)
    }
}
