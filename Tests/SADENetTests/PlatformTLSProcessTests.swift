import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade platform and sade send over mutual TLS, as processes", .timeLimit(.minutes(3)), .timed)
struct PlatformTLSProcessTests {
    @Test("""
        a platform started with its certificate answers sade send holding one of the same CA; without a certificate sade send \
        gets no answer but a failure; a platform named otherwise than its certificate does not start
        """)
    func requestOverMutualTLS() async throws {
        let deployment = try await TestCertificateAuthority.make()
        defer { deployment.remove() }
        let north = try await deployment.issue(commonName: "north"), desk = try await deployment.issue(commonName: "desk")
        let tls = { (pair: (certificate: String, key: String)) in
            ["--tls-cert", pair.certificate, "--tls-key", pair.key, "--tls-ca", deployment.certificateAuthority]
        }
        let (platform, address) = try await SadeProcess.platform(name: "north", arguments: tls(north))
        defer { platform.terminate() }

        let answered = try await SadeProcess.run(
            ["send", "--to", "echo@north@\(address)", "--performative", "request", "--content", "(ping 7)", "--timeout", "20"] + tls(desk))
        #expect(answered.status == 0, "\(answered.error)")
        #expect(answered.output.contains("(ping 7)") && answered.output.contains(":sender (agent-identifier :name echo@north"), "\(answered.output)")

        let refused = try await SadeProcess.run(
            ["send", "--to", "echo@north@\(address)", "--performative", "request", "--content", "(ping 8)", "--timeout", "20"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("unreachable"), "\(refused.error)")

        let misnamed = try await SadeProcess.run(["platform", "--name", "south", "--port", "0"] + tls(north))
        #expect(misnamed.status != 0)
        #expect(misnamed.error.contains("is platform north's, not south's"), "\(misnamed.error)")
    }
}
