import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade demo issues", .serialized, .timeLimit(.minutes(3)), .timed)
struct DemoCommandTests {
    /// The story's lines that must appear, in this order.
    static let story = [
        "Company: 6 employees; Julia and Pedro are out of the office (not connected)",
        "Company: Tony, Maria, Lucas are connected",
        "Robert: registers critical issue \"Office network down\" for infrastructure, due in 24 h",
        "Robert's agent: step 1: found Maria, Tony offering infrastructure in the directory",
        "Robert's agent: step 2: offers issue #3 \"Office network down\" to Maria, Tony (Contract Net cfp)",
        "Tony's agent: step 3: confirms that Tony took issue #3 \"Office network down\"",
        "Tony's agent: step 4: reports issue #3 \"Office network down\" solved",
        "Robert's agent: does not offer issue #4 \"Typo on the pricing page\": medium priority issues are not offered",
        "Robert's agent: step 1: nobody connected offers prototyping (directory search)",
        "Robert's agent: nobody took issue #5 \"Prototype for the client demo\": e-mail to julia@acme.example, pedro@acme.example — delivered",
        "Demo: issue #3 \"Office network down\" taken and solved by Tony",
    ]

    /// Checks that every line of ``story`` is printed, in order, and the answers of the Contract Net.
    static func expectStory(_ output: String) {
        var rest = Substring(output)
        for line in story {
            guard let range = rest.range(of: line) else {
                Testing.Issue.record("missing, or out of order: \(line)\n--- output:\n\(output)")
                return
            }
            rest = rest[range.upperBound...]
        }
        #expect(output.contains("Tony's agent: can take it: is free — propose (free)"))
        #expect(output.contains("Maria's agent: refuses: is busy with critical issue #1 due "))
        #expect(output.contains("refuse (busy-with-urgent-issue :issue 1 :priority critical :deadline "))
    }

    @Test("by default each connected employee runs in a process of its own; the story is told and the mail printed")
    func storyAcrossProcesses() async throws {
        let (status, output, error) = try await SadeProcess.run(["demo", "issues"])
        #expect(status == 0, "stderr: \(error)")
        Self.expectStory(output)
        #expect(output.contains("one process per connected employee"))
        for id in ["tony", "maria", "lucas"] { #expect(output.contains("Company: \(id)'s phone: process ")) }
        #expect(!output.contains("julia's phone"))
        #expect(output.contains("Mail: (no --smtp: printed, not sent) to julia@acme.example, pedro@acme.example"))
    }

    @Test("""
        with --discover (iMobile's Bonjour) no address is given: the phones advertise themselves by mDNS, publish in \
        their own DFs, and Robert's agent finds Tony and Maria by a federated search; the same story (in a network namespace)
        """)
    func storyWithDiscovery() async throws {
        let host = try await NetworkNamespace()
        let demo: SadeProcess
        do {
            demo = try host.sade(["demo", "issues", "--discover"])
        } catch {
            await host.remove()
            throw error
        }
        let run = await demo.finish()
        await host.remove()
        #expect(run.status == 0, "stderr: \(run.error)")
        Self.expectStory(run.output)
        #expect(run.output.contains("company platform advertised on the network as company._sade._tcp.local"), "\(run.output)")
        for id in ["tony", "maria", "lucas"] {
            #expect(run.output.contains("Company: found phone-\(id) on the network at tcp://127.0.0.1:"), "\(run.output)")
        }
        #expect(run.output.contains("published their services on their own phones, found on the network with no address given"))
        #expect(!run.output.contains("--directory"))
    }

    @Test("in process with --smtp: the same story, and the mail reaches a real SMTP server")
    func storyInProcessWithSMTP() async throws {
        let server = try await TestServer.smtp()
        let (status, output, error) = try await SadeProcess.run(["demo", "issues", "--in-process", "--smtp", "127.0.0.1:\(server.port)"])
        await server.stop()
        #expect(status == 0, "stderr: \(error)")
        Self.expectStory(output)
        #expect(!output.contains("printed, not sent"))
        let mails = try server.received()
        try #require(mails.count == 1)
        #expect(mails[0]["rcpt_tos"] as? [String] == ["julia@acme.example", "pedro@acme.example"])
        #expect((mails[0]["data"] as? String)?.contains("Prototype for the client demo") == true)
    }

    @Test("a bad --smtp, or a --data directory that already holds a company, is a usage error")
    func usageErrors() async throws {
        let (status, _, error) = try await SadeProcess.run(["demo", "issues", "--smtp", "nowhere"])
        #expect(status == 64)
        #expect(error.contains("--smtp") && error.contains("must be HOST:PORT"), "\(error)")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-issues-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await SadeProcess.run(["demo", "issues", "--in-process", "--data", directory])
        #expect(first.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory + "/issuetrack.sqlite"))
        let second = try await SadeProcess.run(["demo", "issues", "--in-process", "--data", directory])
        #expect(second.status == 64)
        #expect(second.error.contains("--data must be a new directory"))
    }
}
