import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("AMS and DF answer fipa-agent-management requests", .timeLimit(.minutes(3)), .timed)
struct AgentManagementTests {
    /// A request to the platform's `df` or `ams` in FIPA-SL, as another agent would send it.
    static func request(_ action: String, to receiver: AgentIdentifier, id: String) -> ACLMessage {
        ACLMessage(
            .request, receivers: [receiver],
            content: "((action (agent-identifier :name \(receiver.name)) \(action)))",
            language: "fipa-sl0", ontology: "fipa-agent-management", interactionProtocol: "fipa-request",
            conversationID: id, replyWith: "\(id)-r")
    }

    static let description = """
        (df-agent-description :name (agent-identifier :name alice@home :addresses (sequence tcp://10.0.0.5:7000)) \
        :services (set (service-description :name fix-network :type network-support \
        :protocols (set fipa-contract-net) :properties (set (property :name sector :value ICU)))))
        """

    @Test("register, search, modify and deregister through the DF over ACL")
    func dfLifecycleOverACL() async throws {
        let platform = Environment(name: "home")
        let alice = Agent(name: "alice", environment: platform)
        var probe = await EventProbe(alice)
        try await alice.start()

        alice.send(Self.request("(register \(Self.description))", to: platform.dfIdentifier, id: "c1"))
        let done = try #require(await probe.nextMessage())
        #expect(done.performative == .inform)
        #expect(done.sender == platform.dfIdentifier)
        #expect(done.conversationID == "c1")
        #expect(done.inReplyTo == "c1-r")
        #expect(done.content?.hasPrefix("((done (action (agent-identifier :name df@home) (register (df-agent-description") == true)
        let entry = try #require(platform.directory.entry(of: "alice@home"))
        #expect(entry.agent.addresses == ["tcp://10.0.0.5:7000"])
        #expect(entry.services == [
            ServiceDescription(name: "fix-network", type: "network-support", protocols: ["fipa-contract-net"], properties: ["sector": "ICU"])
        ])

        alice.send(Self.request(
            "(search (df-agent-description :services (set (service-description :type network-support))) (search-constraints :max-results 5))",
            to: platform.dfIdentifier, id: "c2"))
        let result = try #require(await probe.nextMessage())
        #expect(result.performative == .inform)
        let content = try ACLExpression(parsing: try #require(result.content))
        let sequence = try #require(content.elements?.first?.elements?.last)
        #expect(sequence.head == "sequence")
        let found = try sequence.arguments.map(AgentManagementOntology.directoryEntry(from:))
        #expect(found == [entry])

        alice.send(Self.request("(register \(Self.description))", to: platform.dfIdentifier, id: "c3"))
        let twice = try #require(await probe.nextMessage())
        #expect(twice.performative == .failure)
        #expect(twice.content?.hasSuffix("(already-registered))") == true)

        let modified = Self.description.replacingOccurrences(of: "ICU", with: "COVID")
        alice.send(Self.request("(modify \(modified))", to: platform.dfIdentifier, id: "c4"))
        #expect(await probe.nextMessage()?.performative == .inform)
        #expect(platform.directory.entry(of: "alice@home")?.services.first?.properties == ["sector": "COVID"])

        alice.send(Self.request("(deregister \(modified))", to: platform.dfIdentifier, id: "c5"))
        #expect(await probe.nextMessage()?.performative == .inform)
        #expect(platform.directory.count == 0)
        alice.send(Self.request("(deregister \(modified))", to: platform.dfIdentifier, id: "c6"))
        let gone = try #require(await probe.nextMessage())
        #expect(gone.performative == .failure)
        #expect(gone.content?.hasSuffix("(not-registered))") == true)
    }

    @Test("the DF refuses entries for other agents and unknown functions, and does not understand bad content")
    func dfRefusals() async throws {
        let platform = Environment(name: "home")
        let mallory = Agent(name: "mallory", environment: platform)
        var probe = await EventProbe(mallory)
        try await mallory.start()

        mallory.send(Self.request("(register \(Self.description))", to: platform.dfIdentifier, id: "x1"))
        let refused = try #require(await probe.nextMessage())
        #expect(refused.performative == .refuse)
        #expect(refused.content?.hasSuffix("(unauthorised))") == true)
        #expect(platform.directory.count == 0)

        mallory.send(Self.request("(launch-missiles)", to: platform.dfIdentifier, id: "x2"))
        let unsupported = try #require(await probe.nextMessage())
        #expect(unsupported.performative == .refuse)
        #expect(unsupported.content?.hasSuffix("(unsupported-function launch-missiles))") == true)

        for (index, content) in ["((action", "(nonsense)", "((action (agent-identifier :name df@home) (register (df-agent-description :services 3))))"].enumerated() {
            var message = Self.request("", to: platform.dfIdentifier, id: "bad\(index)")
            message.content = content
            mallory.send(message)
            let answer = try #require(await probe.nextMessage())
            #expect(answer.performative == .notUnderstood, "content \(content)")
            #expect(answer.conversationID == "bad\(index)")
        }

        var wrongOntology = Self.request("(search (df-agent-description))", to: platform.dfIdentifier, id: "o1")
        wrongOntology.ontology = "recipes"
        mallory.send(wrongOntology)
        let answer = try #require(await probe.nextMessage())
        #expect(answer.performative == .notUnderstood)
        #expect(answer.content?.contains("fipa-agent-management") == true)
    }

    @Test("the AMS lists the platform's agents, itself and the DF included, and describes the platform")
    func amsSearch() async throws {
        let platform = Environment(name: "home")
        let bob = Agent(name: "bob", environment: platform)
        var probe = await EventProbe(bob)
        try await bob.start()

        bob.send(Self.request("(search (ams-agent-description) (search-constraints :max-results -1))", to: platform.amsIdentifier, id: "a1"))
        let result = try #require(await probe.nextMessage())
        #expect(result.performative == .inform)
        let content = try ACLExpression(parsing: try #require(result.content))
        let names = content.elements?.first?.elements?.last?.arguments.compactMap { $0.parameter(":name")?.parameter(":name")?.text }
        #expect(names == ["bob@home", "ams@home", "df@home"])

        bob.send(Self.request("(search (ams-agent-description :name (agent-identifier :name bob)))", to: platform.amsIdentifier, id: "a2"))
        let one = try #require(await probe.nextMessage())
        #expect(one.content?.contains("(ams-agent-description :name (agent-identifier :name bob@home) :state active)") == true)

        bob.send(Self.request("(register (ams-agent-description :name (agent-identifier :name eve@elsewhere)))", to: platform.amsIdentifier, id: "a3"))
        #expect(await probe.nextMessage()?.performative == .refuse)

        bob.send(Self.request("(get-description)", to: platform.amsIdentifier, id: "a4"))
        let description = try #require(await probe.nextMessage())
        #expect(description.content?.contains("(ap-description :name home") == true)
    }
}

@Suite("Platform shutdown", .timeLimit(.minutes(5)), .timed)
struct PlatformShutdownTests {
    @Test("a platform that is shut down is freed, with its agents and its ams and df")
    func shutdownFreesThePlatform() async throws {
        weak var released: Environment?
        weak var releasedAgent: Agent?
        do {
            let platform = Environment(name: "short-lived")
            let agent = Agent(name: "a", environment: platform)
            try await agent.start()
            released = platform
            releasedAgent = agent
            await platform.shutdown()
            #expect(await agent.state == .stopped)
            #expect(platform.agent(named: "ams") == nil)
        }
        #expect(released == nil)
        #expect(releasedAgent == nil)
    }
}
