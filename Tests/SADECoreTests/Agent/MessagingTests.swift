import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("Messaging between agents", .timeLimit(.minutes(3)), .timed)
struct MessagingTests {
    @Test("a message to an unknown agent comes back to the sender as a FIPA failure")
    func unknownAgentYieldsFailure() async throws {
        let platform = Environment(name: "test")
        let sender = Agent(name: "Sender", environment: platform)
        var probe = await EventProbe(sender)
        try await sender.start()

        sender.send(
            ACLMessage(.request, receivers: ["Ghost"], content: "(do it)", interactionProtocol: "fipa-request",
                       conversationID: "c-1", replyWith: "r-1"))

        let failure = try #require(await probe.nextMessage())
        #expect(failure.performative == .failure)
        #expect(failure.sender == platform.amsIdentifier)
        #expect(failure.receivers == [sender.identifier])
        #expect(failure.conversationID == "c-1")
        #expect(failure.inReplyTo == "r-1")
        #expect(failure.interactionProtocol == "fipa-request")
        #expect(failure.userDefined["X-failure-reason"] == "unknown-agent")
        #expect(failure.userDefined["X-undelivered-to"] == "Ghost")
        #expect(failure.content?.contains("(agent-identifier :name Ghost)") == true)
    }

    @Test("messages between agents arrive in order and handlers can reply")
    func requestAndReplyInOrder() async throws {
        let platform = Environment(name: "test")
        let echo = Agent("Echo", on: platform) {
            MessageHandler.on(.request) { agent, message in
                agent.send(message.makeReply(.inform, content: message.content))
            }
        }
        let client = Agent(name: "Client", environment: platform)
        var probe = await EventProbe(client)
        try await echo.start()
        try await client.start()

        for number in 1...100 {
            client.send(ACLMessage(.request, receivers: ["Echo"], content: "\(number)", replyWith: "m\(number)"))
        }
        var replies: [String] = []
        while replies.count < 100, let reply = await probe.nextMessage() {
            #expect(reply.performative == .inform)
            #expect(reply.inReplyTo == "m\(reply.content ?? "")")
            replies.append(reply.content ?? "")
        }
        #expect(replies == (1...100).map(String.init))
    }

    @Test("a slow action does not block the agent's mailbox")
    func slowActionDoesNotBlockMailbox() async throws {
        let gate = Gate()
        let platform = Environment(name: "test")
        let agent = Agent("Busy", on: platform, runBDICycleOnStart: true) {
            Goal("long job") { Plan("work") { OneShotAction { _ in await gate.wait() } } }
            MessageHandler.on(.queryIf) { agent, message in
                agent.send(message.makeReply(.inform, content: "still here"))
            }
        }
        let asker = Agent(name: "Asker", environment: platform)
        var askerProbe = await EventProbe(asker)
        var probe = await EventProbe(agent)
        try await asker.start()
        try await agent.start()
        #expect(await probe.waitFor(.planStatusChanged(goal: "long job", plan: "work", status: .executing)))

        asker.send(ACLMessage(.queryIf, receivers: ["Busy"], content: "(alive)"))
        #expect(await askerProbe.nextMessage()?.content == "still here")
        #expect(await agent.goal(named: "long job")?.status == .executing)

        gate.open()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "long job", status: .achieved)))
    }

    @Test("a throwing handler is logged as a failure event; later messages are still handled")
    func throwingHandlerDoesNotStopTheAgent() async throws {
        struct Rejected: Error {}
        let platform = Environment(name: "test")
        let agent = Agent("Picky", on: platform) {
            MessageHandler.on(.inform) { _, message in
                if message.content == "bad" { throw Rejected() }
            }
        }
        var probe = await EventProbe(agent)
        try await agent.start()
        platform.route(ACLMessage(.inform, receivers: ["Picky"], content: "bad"))
        platform.route(ACLMessage(.inform, receivers: ["Picky"], content: "good"))

        let failure = await probe.next { if case .failed = $0 { true } else { false } }
        #expect(failure == .failed(activity: "handler for inform", reason: "Rejected()"))
        #expect(await probe.nextMessage()?.content == "good")
    }

    @Test("every received message runs the BDI cycle with the message as trigger")
    func messageTriggersReasoningCycle() async throws {
        struct TriggerRecorder: BeliefRevisionStrategy {
            let triggers: Recorder<ReasoningTrigger>
            func reviseBeliefs(_ state: inout MentalState) { triggers.append(state.trigger) }
        }
        let triggers = Recorder<ReasoningTrigger>()
        let platform = Environment(name: "test")
        let agent = Agent(
            name: "Listener", environment: platform,
            strategies: ReasoningStrategies(beliefRevision: TriggerRecorder(triggers: triggers)))
        var probe = await EventProbe(agent)
        try await agent.start()
        let message = ACLMessage(.inform, receivers: ["Listener"], content: "news")
        platform.route(message)
        _ = await probe.nextMessage()
        _ = await agent.state  // the event is emitted before the cycle: let the agent finish handling

        #expect(triggers.all == [.message(message)])
        await agent.setBelief("news", to: "heard")
        #expect(triggers.all == [.message(message), .beliefChange])
        await agent.setBelief("news", to: "heard")
        #expect(triggers.count == 2, "setting a belief to its current value changes nothing")
    }
}
