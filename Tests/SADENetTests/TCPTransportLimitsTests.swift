import SADEACL
import SADECore
import SADETestTiming
import Testing

@testable import SADENet

/// Cases a review found broken: each test names what used to go wrong.
@Suite("TCP transport: names, limits and rejections", .timeLimit(.minutes(3)), .timed)
struct TCPTransportLimitsTests {
    @Test("an agent addressed without its platform at a tcp address answers requests and contract nets")
    func unqualifiedRemoteNames() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        let southTCP = try await TCPTransport.start(for: south, configuration: quickConfiguration)
        let echo = Agent("echo", on: south) {
            RequestResponder { _, _ in .proceed } perform: { _, request in request.content }
            ContractNetResponder { _, _ in .propose("7") } perform: { _, _ in "(done)" }
        }
        try await echo.start()
        let alice = try await Inbox("alice", on: north).agent

        let unqualified = AgentIdentifier(name: "echo", addresses: southTCP.addresses)  // as `sade send --to echo@tcp://…` names it
        let answer = try await alice.request(to: unqualified, content: "(ping)", timeout: .seconds(20))
        #expect(answer.content == "(ping)")
        #expect(answer.result.sender?.name == "echo@south")

        let outcome = try await alice.contractNet(
            ACLMessage(.cfp, content: "(job)"), participants: [unqualified], deadline: .seconds(20), resultTimeout: .seconds(20))
        #expect(outcome.proposals.count == 1)
        #expect(outcome.unanswered.isEmpty)
        #expect(outcome.results[unqualified] == outcome.informs.first.map { .inform($0) })
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a message above the size limit is returned to its sender as rejected, never lost")
    func oversizedMessageIsRejectedAtOnce() async throws {
        let north = Environment(name: "north")
        var configuration = quickConfiguration
        configuration.maxMessageBytes = 1000
        let northTCP = try await TCPTransport.start(for: north, configuration: configuration)
        let peer = try await RawPeer(acknowledging: true)
        var alice = try await Inbox("alice", on: north)

        alice.agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "bob", addresses: [peer.address])],
                                    content: String(repeating: "x", count: 2000), conversationID: "big"))
        let failure = try #require(await alice.next())
        #expect(failure.userDefined["X-failure-reason"] == "rejected")
        #expect(failure.conversationID == "big")
        #expect(peer.received.isEmpty)
        await peer.close()
        await northTCP.shutdown()
    }

    @Test("a frame the other platform refuses: its sender is told once, the messages around it arrive once")
    func refusedFrameBreaksNothing() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        var small = quickConfiguration
        small.maxFrameBytes = 2000
        let southTCP = try await TCPTransport.start(for: south, configuration: small)
        var bob = try await Inbox("bob", on: south)
        var alice = try await Inbox("alice", on: north)
        let bobThere = AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)

        for content in ["before", String(repeating: "y", count: 5000), "after"] {
            alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: content))
        }
        let failure = try #require(await alice.next())
        #expect(failure.userDefined["X-failure-reason"] == "rejected")
        #expect(failure.content?.contains("exceeds the limit") == true)
        let delivered = await bob.next(2).map(\.content)
        #expect(delivered == ["before", "after"])
        alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: "marker"))
        #expect(await bob.next()?.content == "marker", "nothing arrived twice before the marker")
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("a message the other platform cannot decode comes back as rejected")
    func undecodableMessageIsRejected() async throws {
        let north = Environment(name: "north"), south = Environment(name: "south")
        let northTCP = try await TCPTransport.start(for: north, configuration: quickConfiguration)
        var strict = quickConfiguration
        strict.codec = ACLStringCodec(limits: ACLParseLimits(maxMessageBytes: 300))
        let southTCP = try await TCPTransport.start(for: south, configuration: strict)
        var bob = try await Inbox("bob", on: south)
        var alice = try await Inbox("alice", on: north)
        let bobThere = AgentIdentifier(name: "bob@south", addresses: southTCP.addresses)

        alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: String(repeating: "z", count: 600), conversationID: "z"))
        alice.agent.send(ACLMessage(.inform, receivers: [bobThere], content: "fits"))
        let failure = try #require(await alice.next())
        #expect(failure.userDefined["X-failure-reason"] == "rejected")
        #expect(failure.conversationID == "z")
        #expect(await bob.next()?.content == "fits")
        await northTCP.shutdown()
        await southTCP.shutdown()
    }

    @Test("listening on every interface advertises a reachable host, not 0.0.0.0")
    func wildcardIsNotAdvertised() async throws {
        let platform = Environment(name: "any")
        let transport = try await TCPTransport.start(for: platform, configuration: TCPTransport.Configuration(host: "0.0.0.0", port: 0))
        #expect(transport.addresses.count == 1)
        #expect(!transport.addresses[0].contains("0.0.0.0"))
        await transport.shutdown()
        let named = try await TCPTransport.start(
            for: platform, configuration: TCPTransport.Configuration(host: "0.0.0.0", port: 0, advertisedHost: "ward.example"))
        #expect(named.addresses == ["tcp://ward.example:\(named.port)"])
        await named.shutdown()
    }

    @Test("a platform with the same name elsewhere cannot change the DF entries of agents here")
    func sameNameElsewhereCannotTouchEntries() async throws {
        let here = Environment(name: "hub"), impostor = Environment(name: "hub")
        let hereTCP = try await TCPTransport.start(for: here, configuration: quickConfiguration)
        let impostorTCP = try await TCPTransport.start(for: impostor, configuration: quickConfiguration)
        let tony = Agent(name: "tony", environment: here, services: [ServiceDescription(name: "fix", type: "infrastructure")])
        try await tony.start()
        let fakeTony = try await Inbox("tony", on: impostor).agent
        let df = AgentIdentifier(name: "df@hub", addresses: hereTCP.addresses)

        do {
            try await fakeTony.deregister(fromDirectory: df, timeout: .seconds(20))
            Issue.record("the impostor's deregistration must be refused")
        } catch {
            guard case .refused = error else { throw error }
        }
        #expect(here.directory.entry(of: tony.identifier) != nil)
        await hereTCP.shutdown()
        await impostorTCP.shutdown()
    }
}
