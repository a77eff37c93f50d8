import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade notify (the command)", .serialized, .timeLimit(.minutes(3)), .timed)
struct NotifyCommandTests {
    @Test("sends a test e-mail through a real SMTP server and says so")
    func emailDelivered() async throws {
        let server = try await TestServer.smtp(user: "ops", password: "pw")
        defer { server.process.terminate() }
        let result = try await SadeProcess.run([
            "notify", "--smtp", "127.0.0.1:\(server.port)", "--user", "ops", "--password", "pw", "--from", "sade@hospital.test",
            "--to", "ward@hospital.test", "--to", "head@hospital.test", "--subject", "Check", "--body", "Configured.",
        ])
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.hasPrefix("delivered by email"))
        let mails = try server.received()
        #expect(mails.first?["rcpt_tos"] as? [String] == ["ward@hospital.test", "head@hospital.test"])
    }

    @Test("serve and notify read the SMTP server alike: HOST:PORT or [IPv6]:PORT, the long and the short option names, an account needs a server")
    func smtpOptions() async throws {
        for bad in ["nohost", "host:0", "host:65536", ":25", "a b:25"] {
            let refused = try await SadeProcess.run(["notify", "--smtp", bad, "--to", "a@b.test"])
            #expect(refused.status != 0 && refused.error.contains("invalid for '--smtp"), "\(bad): \(refused.error)")
        }
        let refusedIPv6 = try ReservedPort(ipv6: true)
        defer { withExtendedLifetime(refusedIPv6) {} }
        let ipv6 = try await SadeProcess.run(["notify", "--smtp", "[::1]:\(refusedIPv6.port)", "--to", "a@b.test", "--timeout", "5"])
        #expect(ipv6.status == 1 && ipv6.error.contains("cannot connect to ::1:"), "\(ipv6.error)")
        let server = try await TestServer.smtp(user: "ops", password: "pw")
        defer { server.process.terminate() }
        let long = try await SadeProcess.run([
            "notify", "--smtp", "127.0.0.1:\(server.port)", "--smtp-user", "ops", "--smtp-password", "pw", "--smtp-from", "sade@hospital.test",
            "--to", "ward@hospital.test",
        ])
        #expect(long.status == 0, "\(long.error)")
        let orphan = try await SadeProcess.run(["serve", "--smtp-user", "ops", "--smtp-password", "pw", "--data", NSTemporaryDirectory() + "sade-orphan"])
        #expect(orphan.status != 0 && orphan.error.contains("need --smtp HOST:PORT"), "\(orphan.error)")
    }

    @Test("exits 1 with the reason when the server is down or refuses")
    func failures() async throws {
        let nobody = try ReservedPort()
        defer { withExtendedLifetime(nobody) {} }
        let down = try await SadeProcess.run(["notify", "--smtp", "127.0.0.1:\(nobody.port)", "--to", "a@b.test"])
        #expect(down.status == 1)
        #expect(down.error.contains("not delivered") && down.error.contains("cannot connect"))

        let hook = try await TestServer.webhook(secret: "right")
        defer { hook.process.terminate() }
        let refused = try await SadeProcess.run(["notify", "--webhook", "http://127.0.0.1:\(hook.port)/", "--secret", "wrong"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("401"))
        let signed = try await SadeProcess.run(["notify", "--webhook", "http://127.0.0.1:\(hook.port)/", "--secret", "right", "--severity", "alarm"])
        #expect(signed.status == 0, "stderr: \(signed.error)")
        #expect(try hook.received().first?["severity"] as? String == "alarm")

        let usage = try await SadeProcess.run(["notify", "--smtp", "nowhere"])
        #expect(usage.status == 64)
    }
}
