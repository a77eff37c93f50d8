import Foundation

/// A throw-away certificate authority and a server certificate it signed for
/// `localhost` and `127.0.0.1`, made with the `openssl` command in a folder of their
/// own: what a deployment's TLS looks like, for tests that make real handshakes.
public struct TestCertificateAuthority: Sendable {
    /// The folder holding the files.
    public let directory: URL

    /// The CA's certificate (what a client trusts).
    public var certificateAuthority: String { path("ca.pem") }
    /// The server's certificate (for `localhost`), signed by the CA.
    public var serverCertificate: String { path("localhost.pem") }
    /// The server certificate's private key.
    public var serverKey: String { path("localhost-key.pem") }
    /// A key of no certificate here.
    public var unrelatedKey: String { path("unrelated-key.pem") }

    /// Makes the CA, the server's key and certificate, and an unrelated key (P-256 keys: quick to make).
    public static func make() async throws -> TestCertificateAuthority {
        try TestTools.requireCommands(["openssl"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let authority = TestCertificateAuthority(directory: directory)
        try await authority.openssl(["req", "-x509"] + Self.newKey + ["-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2", "-subj", "/CN=SADE test CA"])
        _ = try await authority.issue(commonName: "localhost")
        try await authority.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "unrelated-key.pem"])
        return authority
    }

    /// A certificate for `commonName` (e.g. a platform's name) signed by this CA, valid
    /// for `127.0.0.1` and `localhost`; returns its and its key's file.
    public func issue(commonName: String) async throws -> (certificate: String, key: String) {
        try await openssl(["req"] + Self.newKey + ["-keyout", "\(commonName)-key.pem", "-out", "\(commonName).csr", "-subj", "/CN=\(commonName)"])
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("\(commonName).ext"))
        try await openssl([
            "x509", "-req", "-in", "\(commonName).csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
            "-out", "\(commonName).pem", "-days", "2", "-extfile", "\(commonName).ext",
        ])
        return (path("\(commonName).pem"), path("\(commonName)-key.pem"))
    }

    /// The base64 SHA-256 of the server certificate's public key (its SPKI), as
    /// Chromium's `--ignore-certificate-errors-spki-list` takes it.
    public func serverKeyHash() async throws -> String {
        let pipeline = "openssl x509 -in localhost.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64 -A"
        let (status, output, _) = try await run("/bin/sh", ["-c", pipeline])
        let hash = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, hash.count == 44 else { throw TestToolError("the server key's hash could not be made: \(hash)") }
        return hash
    }

    /// Removes the files.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new P-256 key, unencrypted.
    private static let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) async throws {
        let (status, _, errors) = try await run("/usr/bin/env", ["openssl"] + arguments)
        guard status == 0 else { throw TestToolError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(errors)") }
    }

    /// Runs `executable` in the folder; its exit status, output and errors.
    private func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await SadeProcess(arguments, executable: URL(fileURLWithPath: executable), directory: directory).finish()
    }
}

/// A tool a test needed did not do its work.
public struct TestToolError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
