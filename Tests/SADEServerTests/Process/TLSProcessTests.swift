import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
@testable import SADEServer
import SADETestSupport
import SADETestTiming
import Testing

/// `sade serve` over HTTPS with a certificate of a test CA, as separate processes:
/// real handshakes, HSTS, the redirect from a plain port, `sade simulate` trusting the CA.
@Suite("sade serve over TLS", .timeLimit(.minutes(3)), .timed)
struct TLSProcessTests {
    /// A client that trusts `authority`'s CA (and nothing else); redirects not followed.
    static func client(trusting authority: TestCertificateAuthority?) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let authority { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(authority.certificateAuthority)) }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
    }

    static func get(_ url: String, with client: HTTPClient) async throws -> HTTPClientResponse {
        try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(20))
    }

    @Test("""
        with a CA's certificate the server speaks HTTPS only: a client trusting the CA gets answers with HSTS, one that does not \
        fails the handshake, plain HTTP gets nothing; the plain port redirects to HTTPS; sade simulate posts over TLS
        """)
    func servesHTTPSOnly() async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-tls-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try SadeProcess([
            "serve", "--port", "0", "--demo", "--data", data, "--tls-cert", authority.serverCertificate, "--tls-key", authority.serverKey,
            "--http-redirect-port", "0",
        ])
        defer { server.terminate() }
        guard let listening = await server.line(containing: "listening on https://") else {
            Issue.record("serve did not listen: \(await server.finish().error)")
            return
        }
        let url = try #require(listening.split(separator: " ").last.map(String.init))
        let redirecting = try #require(await server.line(containing: "redirecting http://"))
        let plainPort = try #require(redirecting.split(separator: " ").first { $0.hasPrefix("http://") }?.split(separator: ":").last)
        let port = try #require(url.split(separator: ":").last)

        let trusting = try Self.client(trusting: authority)
        let health = try await Self.get(url + "/health", with: trusting)
        #expect(health.status == .ok)
        #expect(health.headers.first(name: "Strict-Transport-Security") == "max-age=31536000")
        let me = try await Self.get(url + "/api/v1/auth/me", with: trusting)
        #expect(me.status == .unauthorized, "the API itself answers over TLS")
        #expect(me.headers.first(name: "Strict-Transport-Security") == "max-age=31536000", "errors too")

        let untrusting = try Self.client(trusting: nil)
        await #expect(throws: (any Error).self, "the test CA is not among the system's roots") {
            _ = try await Self.get(url + "/health", with: untrusting)
        }
        await #expect(throws: (any Error).self, "no plain HTTP on the TLS port") {
            _ = try await Self.get("http://127.0.0.1:\(port)/health", with: untrusting)
        }

        let redirect = try await Self.get("http://127.0.0.1:\(plainPort)/api/v1/patients?sector=icu", with: untrusting)
        #expect(redirect.status == .permanentRedirect)
        #expect(redirect.headers.first(name: "Location") == "https://127.0.0.1:\(port)/api/v1/patients?sector=icu")

        let simulation = try await SadeProcess.run([
            "simulate", "--server", url, "--ca-file", authority.certificateAuthority, "--patients", "1", "--profile", "monitor",
            "--interval", "0.25", "--duration", "1", "--scenario", "normal", "--quiet",
        ])
        #expect(simulation.status == 0, "\(simulation.error)")
        let summary = try #require(simulation.output.split(separator: "\n").last { $0.hasPrefix("sent ") })
        #expect(summary.contains("rejected 0") && summary.contains("failed 0") && !summary.hasPrefix("sent 0,"), "\(summary)")
        try await trusting.shutdown()
        try await untrusting.shutdown()
    }

    @Test("the redirect keeps the request's host name, port dropped; a Host header that is no host name redirects to localhost")
    func redirectHost() {
        #expect(HTTPSRedirectResponder.host(of: "ward.example.org:80") == "ward.example.org")
        #expect(HTTPSRedirectResponder.host(of: "127.0.0.1:8080") == "127.0.0.1")
        #expect(HTTPSRedirectResponder.host(of: "[::1]:8080") == "[::1]")
        #expect(HTTPSRedirectResponder.host(of: "ward") == "ward")
        for hostile in ["evil.example/@ward", "a b", "", "x\r\nSet-Cookie: a=b", String(repeating: "a", count: 300)] {
            #expect(HTTPSRedirectResponder.host(of: hostile) == "localhost", "\(hostile.prefix(20))")
        }
    }

    @Test("a missing certificate, a key of another certificate, or half the pair: a clear error and a non-zero exit, before listening")
    func refusesBadFiles() async throws {
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let cases: [([String], String)] = [
            (["--tls-cert", authority.directory.appendingPathComponent("missing.pem").path, "--tls-key", authority.serverKey], "cannot read the certificate"),
            (["--tls-cert", authority.serverCertificate, "--tls-key", authority.unrelatedKey], "does not fit the certificate"),
            (["--tls-cert", authority.serverCertificate], "--tls-cert and --tls-key go together"),
            (["--http-redirect-port", "0"], "needs --tls-cert and --tls-key"),
        ]
        for (arguments, message) in cases {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-tls-bad-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: data) }
            let run = try await SadeProcess.run(["serve", "--port", "0", "--data", data] + arguments)
            #expect(run.status != 0, "\(arguments)")
            #expect(run.error.contains(message), "\(arguments): \(run.error)")
            #expect(!run.output.contains("listening on"), "\(arguments)")
        }
    }
}
