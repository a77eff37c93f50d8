import Foundation
import SADETestSupport
import Testing

/// SADE agents and SPADE 4.1.4 agents (real SPADE, Python) talking over a real XMPP
/// server, Debian's Prosody (TLS checked against a test CA, SCRAM accounts). SPADE's own
/// server (pyjabber) is not here yet: started from a script, it stalled our sessions.
@Suite("XMPP: SADE and SPADE agents talk on a real XMPP server", .serialized, .timeLimit(.minutes(3)))
struct XMPPInteropTests {
    static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/spade_peer.py").path

    /// A SPADE agent, `mode` echo or request, on `server`.
    static func spade(_ server: XMPPTestServer, _ arguments: [String]) throws -> SadeProcess {
        try TestTools.requirePython(modules: ["spade"])
        return try SadeProcess([peer, "\(server.port)"] + arguments, executable: TestTools.python)
    }

    @Test("a SADE agent asks a SPADE agent on Prosody and gets its inform, conversation and ontology kept")
    func sadeAsksSpade() async throws {
        let server = try await XMPPTestServer.prosody()
        var processes: [SadeProcess] = []
        defer { for process in processes { process.terminate() } }
        let alice = try Self.spade(server, ["echo", "alice@localhost", "alice-pw"])
        processes.append(alice)
        #expect(await alice.line(containing: "ready") != nil)

        let sent = try await SadeProcess([
            "send", "--xmpp-server", server.address, "--jid", "nurse@localhost", "--password", "nurse-pw", "--register",
            "--to", "alice@localhost", "--content", "(blood-pressure 140 90)", "--ontology", "vitals", "--timeout", "30",
        ] + server.trustOptions).finish()
        #expect(sent.status == 0, "\(sent.error)")
        #expect(sent.output.hasPrefix("(inform :sender (agent-identifier :name alice@localhost"), "\(sent.output)")
        #expect(sent.output.contains(#":content "(blood-pressure 140 90)""#) && sent.output.contains(":ontology vitals"))
        #expect(sent.output.contains(":conversation-id send-"), "SPADE kept the thread")
        alice.signal(SIGTERM)
        _ = await alice.finish()
        await server.stop()
    }

    @Test("a SPADE agent asks a SADE platform's agent on Prosody and gets an inform in reply to its request")
    func spadeAsksSade() async throws {
        let server = try await XMPPTestServer.prosody()
        var processes: [SadeProcess] = []
        defer { for process in processes { process.terminate() } }
        let platform = try SadeProcess([
            "platform", "--name", "ward", "--port", "0", "--participants", "2", "--xmpp-server", server.address,
            "--xmpp-domain", "localhost", "--password", "ward-pw", "--register",
        ] + server.trustOptions)
        processes.append(platform)
        #expect(await platform.line(containing: "on XMPP as echo@localhost, bidder-1@localhost, bidder-2@localhost") != nil)

        let asked = try await Self.spade(server, ["request", "bob@localhost", "bob-pw", "echo@localhost", "(ping from spade)", "30"]).finish()
        #expect(asked.status == 0, "\(asked.output)\(asked.error)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(asked.output.utf8)) as? [String: Any], "\(asked.output)")
        let metadata = try #require(reply["metadata"] as? [String: String])
        #expect(reply["body"] as? String == "(ping from spade)")
        #expect(metadata["performative"] == "inform" && metadata["in-reply-to"] == "spade-r1" && metadata["ontology"] == "interop")
        #expect(reply["thread"] as? String == "spade-asks-1")
        #expect((reply["sender"] as? String)?.hasPrefix("echo@localhost") == true)
        platform.signal(SIGTERM)
        #expect(await platform.finish().status == 0)
        await server.stop()
    }

    @Test("on Prosody: a wrong password is refused by name; a message to an agent that is not online fails at once instead of hanging")
    func failures() async throws {
        let server = try await XMPPTestServer.prosody()
        let register = try await SadeProcess([
            "send", "--xmpp-server", server.address, "--jid", "nurse@localhost", "--password", "right", "--register",
            "--to", "gone@localhost", "--content", "(anyone?)", "--timeout", "30",
        ] + server.trustOptions).finish()
        #expect(register.status == 1)
        #expect(register.output.hasPrefix("(failure :sender (agent-identifier :name ams@"), "\(register.output)")
        #expect(register.error.contains("gone@localhost: service-unavailable"), "\(register.error)")

        let wrong = try await SadeProcess([
            "send", "--xmpp-server", server.address, "--jid", "nurse@localhost", "--password", "wrong",
            "--to", "gone@localhost", "--content", "(x)", "--timeout", "30",
        ] + server.trustOptions).finish()
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("XMPP login refused: not-authorized"), "\(wrong.error)")

        let untrusted = try await SadeProcess([
            "send", "--xmpp-server", server.address, "--jid", "nurse@localhost", "--password", "right",
            "--to", "gone@localhost", "--content", "(x)", "--timeout", "30",
        ]).finish()
        #expect(untrusted.status == 1)
        #expect(untrusted.error.contains("XMPP"), "a certificate from an unknown CA is refused: \(untrusted.error)")
        await server.stop()
    }
}
