import SADEACL
import SADECore
import SADENet
import SADETestTiming
import Testing

/// The federated directory over real TCP between platforms in this process; which
/// platforms are known is told with `learn`/`forget`, as discovery does (its own tests,
/// across processes, are in DiscoveryProcessTests).
@Suite("Federated directory: this platform's DF and those of the platforms found", .timeLimit(.minutes(3)), .timed)
struct FederatedDirectoryTests {
    /// Long enough for a machine busy with the rest of the suite: a passing test does not wait for it.
    static let patience: Duration = .seconds(60)

    /// Three platforms on loopback: `alpha` (a nurse, offering `nursing`) knows `beta` and
    /// `gamma`, each running an `echo` offering `echo`.
    struct Neighbourhood {
        let alpha: Environment, beta: Environment, gamma: Environment
        let transports: [TCPTransport]
        let nurse: Agent

        init() async throws {
            alpha = Environment(name: "alpha")
            beta = Environment(name: "beta")
            gamma = Environment(name: "gamma")
            var transports: [TCPTransport] = []
            for platform in [alpha, beta, gamma] {
                transports.append(try await TCPTransport.start(for: platform, configuration: quickConfiguration))
            }
            self.transports = transports
            nurse = Agent(name: "nurse", environment: alpha, services: [ServiceDescription(name: "triage", type: "nursing")])
            try await nurse.start()
            for platform in [beta, gamma] {
                let echo = Agent(
                    name: "echo", environment: platform,
                    handlers: [MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.inform, content: message.content)) }],
                    services: [ServiceDescription(name: "echo", type: "echo", protocols: ["fipa-request"])])
                try await echo.start()
            }
            alpha.learn(transports[1].addresses, ofPlatform: "beta")
            alpha.learn(transports[2].addresses, ofPlatform: "gamma")
        }

        func shutdown() async {
            for transport in transports { await transport.shutdown() }
            for platform in [alpha, beta, gamma] { await platform.shutdown() }
        }
    }

    @Test("a search returns this platform's services and those of every platform found, each reachable by what was found")
    func localAndFound() async throws {
        let town = try await Neighbourhood()
        let echoes = await town.nurse.searchDirectories(for: ServiceTemplate(type: "echo"), timeout: Self.patience)
        #expect(echoes.entries.map(\.agent.name) == ["echo@beta", "echo@gamma"])
        #expect(echoes.entries.map(\.agent.addresses) == [town.transports[1].addresses, town.transports[2].addresses])
        #expect(echoes.answered == ["beta", "gamma"])
        #expect(echoes.unanswered.isEmpty)
        for entry in echoes.entries {
            let answer = try await town.nurse.request(to: entry.agent, content: "(ping)", timeout: Self.patience)
            #expect(answer.result.sender?.name == entry.agent.name)
        }

        let everything = await town.nurse.searchDirectories(for: ServiceTemplate(), timeout: Self.patience)
        #expect(everything.entries.map(\.agent.name) == ["nurse@alpha", "echo@beta", "echo@gamma"])
        let two = await town.nurse.searchDirectories(for: ServiceTemplate(), limit: 2, timeout: Self.patience)
        #expect(two.entries.map(\.agent.name) == ["nurse@alpha", "echo@beta"])
        await town.shutdown()
    }

    @Test("the DF's search goes on to the found platforms' DFs when asked with :max-depth, and only then")
    func dfSearchWithDepth() async throws {
        let town = try await Neighbourhood()
        let outsider = Environment(name: "outsider")
        let outsiderTCP = try await TCPTransport.start(for: outsider, configuration: quickConfiguration)
        let visitor = Agent(name: "visitor", environment: outsider)
        try await visitor.start()
        let df = AgentIdentifier(name: "df@alpha", addresses: town.transports[0].addresses)
        town.alpha.federatedSearchBound = Self.patience / 2

        let federated = try await visitor.searchDirectory(df, for: ServiceTemplate(type: "echo"), maxDepth: 1, timeout: Self.patience)
        #expect(federated.map(\.agent.name) == ["echo@beta", "echo@gamma"])
        #expect(federated.allSatisfy { !$0.agent.addresses.isEmpty })
        let alone = try await visitor.searchDirectory(df, for: ServiceTemplate(type: "echo"), timeout: Self.patience)
        #expect(alone.isEmpty)
        let everyone = try await visitor.searchDirectory(df, for: ServiceTemplate(), maxDepth: -1, timeout: Self.patience)
        #expect(everyone.map(\.agent.name) == ["nurse@alpha", "echo@beta", "echo@gamma"])

        await outsiderTCP.shutdown()
        await outsider.shutdown()
        await town.shutdown()
    }

    @Test("services vanish with their platform: a platform forgotten is not asked any more")
    func forgottenPlatform() async throws {
        let town = try await Neighbourhood()
        town.alpha.forget(platform: "gamma")
        let echoes = await town.nurse.searchDirectories(for: ServiceTemplate(type: "echo"), timeout: Self.patience)
        #expect(echoes.entries.map(\.agent.name) == ["echo@beta"])
        #expect(echoes.answered == ["beta"])
        await town.shutdown()
    }

    @Test("a platform that takes the request and never answers, and one that is gone, are given up after the bound; the others' services come back")
    func boundedWait() async throws {
        let town = try await Neighbourhood()
        let mute = try await RawPeer(acknowledging: true)  // takes every frame, answers nothing
        town.alpha.learn([mute.address], ofPlatform: "mute")
        let gone = Environment(name: "gone")
        let goneTCP = try await TCPTransport.start(for: gone, configuration: quickConfiguration)
        town.alpha.learn(goneTCP.addresses, ofPlatform: "gone")
        await goneTCP.shutdown()  // found a moment ago, not there any more

        let echoes = await town.nurse.searchDirectories(for: ServiceTemplate(type: "echo"), timeout: .seconds(1))
        #expect(echoes.entries.map(\.agent.name) == ["echo@beta", "echo@gamma"])
        #expect(echoes.answered == ["beta", "gamma"])
        // The search's own bound, not the transport's 20 s delivery time-out, ended the wait.
        #expect(echoes.unanswered["mute"] == .timedOut(after: .seconds(1)))
        if case .failed(let failure)? = echoes.unanswered["gone"] {
            #expect(failure.sender?.name == "ams@alpha" && failure.userDefined["X-failure-reason"] != nil)
        } else {
            Issue.record("the gone platform: \(String(describing: echoes.unanswered["gone"]))")
        }
        #expect(mute.received.contains { $0.contains("df@mute") })
        await town.shutdown()
    }
}
