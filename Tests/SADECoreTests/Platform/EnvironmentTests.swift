import InMemoryLogging
import Logging
import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("Platforms", .timeLimit(.minutes(3)), .timed)
struct EnvironmentTests {
    @Test("two platforms in one process keep their agents, pages and messages apart")
    func platformsAreIsolated() async throws {
        let north = Environment(name: "north")
        let south = Environment(name: "south")
        let northAlice = Agent(name: "Alice", environment: north)
        let southAlice = Agent(name: "Alice", environment: south)
        let bob = Agent(name: "Bob", environment: north)
        let carol = Agent(name: "Carol", environment: south)
        var northProbe = await EventProbe(northAlice)
        var southProbe = await EventProbe(southAlice)
        var bobProbe = await EventProbe(bob)
        for agent in [northAlice, southAlice, bob, carol] { try await agent.start() }
        try north.directory.register(DirectoryEntry(agent: bob.identifier, services: [ServiceDescription(name: "s", type: "t")]))

        #expect(north.agents.map(\.identifier.name) == ["Alice@north", "Bob@north"])
        #expect(south.agents.map(\.identifier.name) == ["Alice@south", "Carol@south"])
        #expect(south.directory.search(ServiceTemplate(type: "t")).isEmpty)

        bob.send(ACLMessage(.inform, receivers: ["Alice"], content: "from bob"))
        carol.send(ACLMessage(.inform, receivers: ["Alice"], content: "from carol"))
        #expect(await northProbe.nextMessage()?.content == "from bob")
        #expect(await southProbe.nextMessage()?.content == "from carol", "south's Alice got nothing from the north")

        bob.send(ACLMessage(.inform, receivers: ["Carol"], content: "hello?"))
        let unknown = await bobProbe.nextMessage()
        #expect(unknown?.userDefined["X-failure-reason"] == "unknown-agent")

        bob.send(ACLMessage(.inform, receivers: ["Carol@south"], content: "hello?"))
        let unreachable = await bobProbe.nextMessage()
        #expect(unreachable?.performative == .failure)
        #expect(unreachable?.userDefined["X-failure-reason"] == "unreachable")
    }

    @Test("a message with several receivers reaches each; each unknown one is reported")
    func multicast() async throws {
        let platform = Environment(name: "p")
        let sender = Agent(name: "Sender", environment: platform)
        let first = Agent(name: "First", environment: platform)
        let second = Agent(name: "Second", environment: platform)
        var senderProbe = await EventProbe(sender)
        var firstProbe = await EventProbe(first)
        var secondProbe = await EventProbe(second)
        for agent in [sender, first, second] { try await agent.start() }

        sender.send(ACLMessage(.cfp, receivers: ["First", "Nobody", "Second"], content: "(task)"))

        #expect(await firstProbe.nextMessage()?.content == "(task)")
        #expect(await secondProbe.nextMessage()?.content == "(task)")
        let failure = await senderProbe.nextMessage()
        #expect(failure?.userDefined["X-undelivered-to"] == "Nobody")

        sender.send(ACLMessage(.inform))
        #expect(await senderProbe.nextMessage()?.userDefined["X-failure-reason"] == "no-receiver")
    }

    @Test("an undeliverable message without a sender is logged, never bounced in a loop")
    func undeliverableWithoutSender() async throws {
        let log = InMemoryLogHandler()
        let platform = Environment(name: "p", logger: Logger(label: "test") { _ in log })
        platform.route(ACLMessage(.inform, receivers: ["Nobody"]))
        platform.route(ACLMessage(.failure, sender: platform.amsIdentifier, receivers: ["Nobody"]))
        let warnings = log.entries.filter { $0.message == "undeliverable message dropped: nobody to tell" }
        #expect(warnings.map { $0.metadata["performative"] } == ["inform", "failure"])
    }

    @Test("an agent that answers the AMS's failure does not start an endless exchange")
    func answeringTheAMSEnds() async throws {
        let log = InMemoryLogHandler()
        let platform = Environment(name: "p", logger: Logger(label: "test") { _ in log })
        let answers = Recorder<Performative>()
        let stubborn = Agent("Stubborn", on: platform) {
            MessageHandler { agent, message in  // answers everything it does not expect
                answers.append(message.performative)
                agent.send(message.makeReply(.notUnderstood))
            }
        }
        var probe = await EventProbe(stubborn)
        let ams = try #require(platform.agent(named: "ams"))
        var amsProbe = await EventProbe(ams)
        try await stubborn.start()

        stubborn.send(ACLMessage(.request, receivers: ["Ghost"], replyWith: "r1"))
        #expect(await probe.nextMessage()?.performative == .failure)
        stubborn.send(ACLMessage(.request, receivers: [platform.amsIdentifier], content: "(register)"))
        #expect(await probe.nextMessage()?.performative == .notUnderstood)
        _ = await stubborn.state
        #expect(answers.all == [.failure, .notUnderstood], "one failure, one not-understood, then silence")
        let toAMS = [
            await amsProbe.nextMessage(), await amsProbe.nextMessage(), await amsProbe.nextMessage(),
        ].compactMap { $0?.performative.rawValue }
        #expect(toAMS.sorted() == ["not-understood", "not-understood", "request"])
        _ = await ams.state
        #expect(log.entries.filter { $0.message == "message to the platform ignored" }.count == 2)
    }
}
