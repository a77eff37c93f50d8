import Foundation
import SADEACL
import SADECore
import SADENet
import SADETestSupport
import SADETestTiming
import Testing

/// SADE agents and SPADE 4.1.4 agents (real SPADE, Python processes) talking over real
/// XMPP servers: Debian's Prosody (TLS checked against a test CA, SCRAM accounts) and
/// SPADE's own server, pyjabber, as `spade run` starts it.
@Suite("XMPP: SADE and SPADE agents talk on a real XMPP server", .serialized, .timeLimit(.minutes(3)), .timed)
struct XMPPInteropTests {
    static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/spade_peer.py").path

    /// A SPADE agent (see `spade_peer.py` for the modes) on `server`.
    static func spade(_ server: XMPPTestServer, _ arguments: [String]) async throws -> SadeProcess {
        try await TestTools.requirePython(modules: ["spade"])
        return try SadeProcess([peer, "\(server.port)"] + arguments, executable: TestTools.python)
    }

    /// SPADE agents that run until stopped, each online once this returns.
    static func spadeAgents(_ server: XMPPTestServer, _ agents: [[String]]) async throws -> [SadeProcess] {
        var started: [SadeProcess] = []
        for arguments in agents {
            let agent = try await spade(server, arguments)
            started.append(agent)
            guard await agent.line(containing: "ready") != nil else {
                for process in started { process.terminate() }
                throw SadeProcessError.notListening(await agent.finish().output)
            }
        }
        return started
    }

    /// Runs `body` with a server of `kind`, stopped afterwards however `body` ends.
    static func on(_ kind: XMPPTestServer.Kind, _ body: (XMPPTestServer) async throws -> Void) async throws {
        let server = try await XMPPTestServer.start(kind)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Runs `body` with a platform of this process whose `agents` (started here) are on
    /// `server`'s XMPP, peers pinged every second; all stopped afterwards however `body` ends.
    static func onXMPP(
        _ server: XMPPTestServer, platform name: String, agents: [String: [any AgentPart]],
        _ body: (Environment, XMPPTransport, [String: Agent]) async throws -> Void
    ) async throws {
        let platform = Environment(name: name)
        let trust: XMPPConnection.Configuration.Trust = server.certificateAuthority.map { .authorities(file: $0) } ?? .anyCertificate
        let transport = try await XMPPTransport.start(
            for: platform,
            configuration: .init(
                host: "127.0.0.1", port: server.port, domain: "localhost", password: "\(name)-pw", register: true, trust: trust,
                livenessInterval: .seconds(1)),
            agents: agents.keys.sorted())
        var started: [String: Agent] = [:]
        do {
            for (agentName, parts) in agents {
                let agent = Agent(agentName, on: platform) { for part in parts { part } }
                started[agentName] = agent
                try await agent.start()
            }
            try await body(platform, transport, started)
        } catch {
            for agent in started.values { await agent.stop() }
            await transport.shutdown(from: platform)
            throw error
        }
        for agent in started.values { await agent.stop() }
        await transport.shutdown(from: platform)
    }

    /// `sade platform` with its echo and `participants` bidders on `server`'s XMPP.
    static func sadePlatform(_ server: XMPPTestServer, participants: Int) async throws -> SadeProcess {
        let platform = try SadeProcess([
            "platform", "--name", "ward", "--port", "0", "--participants", "\(participants)", "--xmpp-server", server.address,
            "--xmpp-domain", "localhost", "--password", "ward-pw", "--register",
        ] + server.trustOptions)
        guard await platform.line(containing: "on XMPP as echo@localhost") != nil else {
            platform.terminate()
            throw SadeProcessError.notListening(await platform.finish().error)
        }
        return platform
    }

    /// An agent elsewhere on XMPP.
    static func jid(_ name: String) -> AgentIdentifier {
        AgentIdentifier(name: "\(name)@localhost", addresses: ["xmpp://\(name)@localhost"])
    }

    /// The JSON object on the last line of `output`.
    static func lastObject(_ output: String) throws -> [String: Any] {
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(output)")
    }

    /// Waits, with a patience no passing run uses up, until `condition` holds.
    static func until(_ condition: () -> Bool) async throws {
        let patience = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < patience else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("a SADE agent asks a SPADE agent and gets its inform, conversation and ontology kept", arguments: XMPPTestServer.Kind.allCases)
    func sadeAsksSpade(_ kind: XMPPTestServer.Kind) async throws {
        try await Self.on(kind) { server in try await Self.sadeAsksSpade(server) }
    }

    static func sadeAsksSpade(_ server: XMPPTestServer) async throws {
        let agents = try await Self.spadeAgents(server, [["echo", "alice@localhost", "alice-pw"]])
        defer { for agent in agents { agent.terminate() } }

        let sent = try await SadeProcess([
            "send", "--xmpp-server", server.address, "--jid", "nurse@localhost", "--password", "nurse-pw", "--register",
            "--to", "alice@localhost", "--content", "(blood-pressure 140 90)", "--ontology", "vitals", "--timeout", "30",
        ] + server.trustOptions).finish()
        #expect(sent.status == 0, "\(sent.error)")
        #expect(sent.output.hasPrefix("(inform :sender (agent-identifier :name alice@localhost"), "\(sent.output)")
        #expect(sent.output.contains(#":content "(blood-pressure 140 90)""#) && sent.output.contains(":ontology vitals"))
        #expect(sent.output.contains(":conversation-id send-"), "SPADE kept the thread")
        agents[0].signal(SIGTERM)
        _ = await agents[0].finish()
    }

    @Test("a SPADE agent asks a SADE platform's agent and gets an inform in reply to its request", arguments: XMPPTestServer.Kind.allCases)
    func spadeAsksSade(_ kind: XMPPTestServer.Kind) async throws {
        try await Self.on(kind) { server in try await Self.spadeAsksSade(server) }
    }

    static func spadeAsksSade(_ server: XMPPTestServer) async throws {
        let platform = try await Self.sadePlatform(server, participants: 2)
        defer { platform.terminate() }

        let asked = try await Self.spade(server, ["request", "bob@localhost", "bob-pw", "echo@localhost", "(ping from spade)", "30"]).finish()
        #expect(asked.status == 0, "\(asked.output)\(asked.error)")
        let reply = try Self.lastObject(asked.output)
        let metadata = try #require(reply["metadata"] as? [String: String])
        #expect(reply["body"] as? String == "(ping from spade)")
        #expect(metadata["performative"] == "inform" && metadata["in-reply-to"] == "spade-r1" && metadata["ontology"] == "interop")
        #expect(reply["thread"] as? String == "spade-asks-1")
        #expect((reply["sender"] as? String)?.hasPrefix("echo@localhost") == true)
        platform.signal(SIGTERM)
        #expect(await platform.finish().status == 0)
    }

    @Test("a SADE initiator runs a Contract Net with three SPADE and three SADE bidders, a SPADE one winning", arguments: XMPPTestServer.Kind.allCases)
    func contractNetFromSade(_ kind: XMPPTestServer.Kind) async throws {
        try await Self.on(kind) { server in
            let bidders = try await Self.spadeAgents(server, [
                ["bidder", "spade-1@localhost", "pw", "15"], ["bidder", "spade-2@localhost", "pw", "5"], ["bidder", "spade-3@localhost", "pw", "25"],
            ])
            defer { for bidder in bidders { bidder.terminate() } }
            // bidder-1 proposes 10, bidder-2 20, bidder-3 refuses
            let ward = try await Self.sadePlatform(server, participants: 3)
            defer { ward.terminate() }
            try await Self.onXMPP(server, platform: "office", agents: ["manager": []]) { _, _, agents in
                let participants = ["spade-1", "spade-2", "spade-3", "bidder-1", "bidder-2", "bidder-3"].map(Self.jid)
                let outcome = try await agents["manager"]!.contractNet(
                    ACLMessage(.cfp, content: "(job)", ontology: "interop"), participants: participants, deadline: .seconds(60),
                    resultTimeout: .seconds(60))

                #expect(
                    Set(outcome.proposals.compactMap { $0.sender?.name })
                        == ["spade-1@localhost", "spade-2@localhost", "spade-3@localhost", "bidder-1@localhost", "bidder-2@localhost"])
                #expect(outcome.refusals.map { $0.sender?.name } == ["bidder-3@localhost"] && outcome.refusals.first?.content == "(busy)")
                #expect(outcome.unanswered.isEmpty)
                #expect(outcome.accepted.map { $0.sender?.name } == ["spade-2@localhost"] && outcome.accepted.first?.content == "5")
                guard case .inform(let done)? = outcome.results[participants[1]] else {
                    Issue.record("spade-2's result: \(String(describing: outcome.results[participants[1]]))")
                    return
                }
                #expect(done.content == "(done :price 5)" && done.conversationID == outcome.conversationID)
                // What the SPADE bidders were told, in their own words.
                for (bidder, expected) in zip(bidders, ["reject-proposal", "accept-proposal", "reject-proposal"]) {
                    let line = try #require(await bidder.line(containing: expected))
                    #expect(line.contains(outcome.conversationID), "the thread is the conversation: \(line)")
                }
            }
        }
    }

    @Test("a SPADE initiator runs a Contract Net with SADE bidders and gets the winner's result", arguments: XMPPTestServer.Kind.allCases)
    func contractNetFromSpade(_ kind: XMPPTestServer.Kind) async throws {
        try await Self.on(kind) { server in
            let ward = try await Self.sadePlatform(server, participants: 3)
            defer { ward.terminate() }

            let initiated = try await Self.spade(
                server, ["initiator", "boss@localhost", "boss-pw", "30", "bidder-1@localhost", "bidder-2@localhost", "bidder-3@localhost"]
            ).finish()
            #expect(initiated.status == 0, "\(initiated.output)\(initiated.error)")
            let run = try Self.lastObject(initiated.output)
            #expect(run["proposals"] as? [String: String] == ["bidder-1@localhost": "10", "bidder-2@localhost": "20"])
            #expect(run["refusals"] as? [String] == ["bidder-3@localhost"] && (run["unanswered"] as? [String])?.isEmpty == true)
            #expect(run["winner"] as? String == "bidder-1@localhost")
            let result = try #require(run["result"] as? [String: Any], "\(initiated.output)")
            #expect(result["performative"] as? String == "inform" && result["body"] as? String == "(done :price 10)")
            #expect(result["thread"] as? String == "spade-cnet-1")
        }
    }

    @Test("FIPA Subscribe both ways: SADE subscribes to a SPADE publisher, a SPADE agent to a SADE one", arguments: XMPPTestServer.Kind.allCases)
    func subscribe(_ kind: XMPPTestServer.Kind) async throws {
        try await Self.on(kind) { server in
            let publishers = try await Self.spadeAgents(server, [["publisher", "clock@localhost", "pw", "3"]])
            defer { for publisher in publishers { publisher.terminate() } }
            let ticks = SubscriptionResponder()
            try await Self.onXMPP(server, platform: "office", agents: ["manager": [], "ticker": [ticks]]) { _, _, agents in
                // SADE → SPADE: agree, three informs, then our cancel reaches it.
                let subscription = try await agents["manager"]!.subscribe(
                    ACLMessage(.subscribe, receivers: [Self.jid("clock")], content: "(ticks)"), timeout: .seconds(60))
                #expect(subscription.agreement?.performative == .agree)
                var informs: [String] = []
                for try await inform in subscription {
                    informs.append(inform.content ?? "")
                    if informs.count == 3 { break }
                }
                #expect(informs == ["(tick 1)", "(tick 2)", "(tick 3)"])
                await subscription.cancel()
                #expect(await publishers[0].line(containing: #""got": "cancel""#)?.contains(subscription.conversationID) == true)

                // SPADE → SADE: the SPADE agent subscribes, we publish twice, it cancels.
                let subscriber = try await Self.spade(server, ["subscriber", "watcher@localhost", "pw", "ticker@localhost", "2", "60"])
                defer { subscriber.terminate() }
                try await Self.until { ticks.subscriptions.count == 1 }
                #expect(ticks.publish("(tick 1)") == 1 && ticks.publish("(tick 2)") == 1)
                let watched = await subscriber.finish()
                #expect(watched.status == 0, "\(watched.output)\(watched.error)")
                let lines = watched.output.split(separator: "\n").dropFirst().map(String.init)  // after "ready"
                let received = try lines.dropLast().map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any?]) }
                #expect(received.map { $0["performative"] as? String } == ["agree", "inform", "inform"], "\(watched.output)")
                #expect(received.dropFirst().map { $0["body"] as? String } == ["(tick 1)", "(tick 2)"])
                #expect(received.allSatisfy { $0["thread"] as? String == "spade-sub-1" })
                let cancelled = try #require(try Self.lastObject(watched.output)["cancelled"] as? [String: Any], "\(watched.output)")
                #expect(cancelled["performative"] as? String == "inform")
                try await Self.until { ticks.subscriptions.isEmpty }
            }
        }
    }

    @Test("on Prosody, SPADE agents that disappear give failures, not hangs: by their presence, and by a liveness ping")
    func disappearing() async throws {
        try await Self.on(.prosody) { server in
            let peers = try await Self.spadeAgents(server, [
                ["hold", "quiet@localhost", "pw"], ["bidder", "vanisher@localhost", "pw", "1", "--private", "--vanish"],
                ["echo", "steady@localhost", "pw"],
            ])
            defer { for peer in peers { peer.terminate() } }
            try await Self.onXMPP(server, platform: "office", agents: ["manager": [], "second": []]) { office, transport, agents in
                let manager = agents["manager"]!
                // Its presence: our agent asks for it when it first writes, SPADE approves, the DF lists the contact.
                let asking = Task { try await manager.request(to: Self.jid("quiet"), content: "(take-your-time)", timeout: .seconds(120)) }
                #expect(await peers[0].line(containing: #""got": "request""#) != nil)
                let contacts = ServiceTemplate(type: "xmpp-contact")
                try await Self.until { office.directory.search(contacts).map(\.agent.name) == ["quiet@localhost"] }
                #expect(transport.presence(of: "quiet@localhost") == .available)
                #expect(office.directory.search(contacts).first?.services.first?.properties == ["presence": "available", "show": "chat"], "SPADE shows chat")
                // A second agent of ours writes to it, so asks for its presence too: Prosody
                // acknowledges that subscription with a bare "unavailable", which must not make
                // it gone. (The request after it is answered on the same session, so the
                // acknowledgement has been read by then.)
                let second = agents["second"]!
                second.send(ACLMessage(.inform, receivers: [Self.jid("quiet")], content: "(hello)"))
                _ = try await second.request(to: Self.jid("steady"), content: "(after)", timeout: .seconds(60))
                #expect(transport.presence(of: "quiet@localhost") == .available)
                peers[0].signal(SIGKILL)
                do {
                    let answer = try await asking.value
                    Issue.record("an answer from a killed agent: \(answer)")
                } catch let error as InteractionError {
                    #expect(error.deliveryFailureCode == "unreachable", "\(error)")
                    #expect("\(error)".contains("quiet@localhost is gone: its presence is unavailable"), "\(error)")
                }
                #expect(transport.presence(of: "quiet@localhost") == .unavailable)
                #expect(!office.directory.search(contacts).contains { $0.agent.name == "quiet@localhost" }, "the contact left the directory")

                // No presence to see (it approves no subscription): the session that proposed
                // answered our first ping, so the server's bounce of a later one says it left.
                let vanisher = Self.jid("vanisher")
                let outcome = try await manager.contractNet(
                    ACLMessage(.cfp, content: "(job)"), participants: [vanisher], deadline: .seconds(60), resultTimeout: .seconds(120))
                #expect(outcome.accepted.count == 1 && outcome.resultTimeouts.isEmpty)
                guard case .failure(let failure)? = outcome.results[vanisher] else {
                    Issue.record("the vanished bidder's result: \(String(describing: outcome.results[vanisher]))")
                    return
                }
                #expect(
                    failure.sender?.localName == "ams" && failure.userDefined["X-failure-reason"] == "unreachable"
                        && failure.content?.contains("vanisher@localhost is gone: service-unavailable") == true, "\(failure)")
                #expect(transport.presence(of: "vanisher@localhost") == nil, "it never showed its presence")
            }
        }
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
