import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("Agent life cycle", .timeLimit(.minutes(3)), .timed)
struct AgentLifecycleTests {
    @Test("suspend holds messages and cancels intentions; resume handles them and re-adopts goals")
    func suspendAndResume() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let (ticks, tick) = AsyncStream.makeStream(of: Void.self)
        let agent = Agent("Patroller", on: platform, runBDICycleOnStart: true) {
            Goal("patrol") { Plan("round") { CyclicAction(every: .seconds(1)) { _ in tick.yield() } } }
        }
        let sender = Agent(name: "Sender", environment: platform)
        try await sender.start()
        var probe = await EventProbe(agent)
        try await agent.start()
        await clock.waitForSleepers(1)

        try await agent.suspend()
        #expect(await agent.state == .suspended)
        #expect(platform.description(ofAgentNamed: "Patroller")?.state == .suspended)
        #expect(await agent.goal(named: "patrol")?.status == .suspended)
        #expect(clock.sleeperCount == 0, "the cyclic action's timer is cancelled")

        sender.send(ACLMessage(.inform, receivers: ["Patroller"], content: "while you slept"))
        try await agent.resume()

        let message = await probe.nextMessage()
        #expect(message?.content == "while you slept")
        let suspendedAt = try #require(probe.seen.firstIndex(of: .stateChanged(.suspended)))
        let resumedAt = try #require(probe.seen[suspendedAt...].firstIndex(of: .stateChanged(.active)))
        let receivedAt = try #require(probe.seen.firstIndex { if case .messageReceived = $0 { true } else { false } })
        #expect(resumedAt < receivedAt, "a suspended agent handles nothing")
        #expect(await agent.goal(named: "patrol")?.status == .executing)
        let goalEvents = probe.seen.filter { if case .goalStatusChanged = $0 { true } else { false } }
        #expect(goalEvents.suffix(3) == [
            .goalStatusChanged(goal: "patrol", status: .suspended),
            .goalStatusChanged(goal: "patrol", status: .waiting),
            .goalStatusChanged(goal: "patrol", status: .executing),
        ], "observers see the goal suspended, re-adopted and pursued again")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        var tickIterator = ticks.makeAsyncIterator()
        #expect(await tickIterator.next() != nil)
    }

    @Test("stop deregisters the agent; later messages come back as failure, queued ones too")
    func stopDeregistersAndBouncesMessages() async throws {
        let platform = Environment(name: "test")
        let sender = Agent(name: "Sender", environment: platform)
        let agent = Agent(name: "Leaver", environment: platform, services: [ServiceDescription(name: "x", type: "y")])
        var senderProbe = await EventProbe(sender)
        var agentProbe = await EventProbe(agent)
        try await sender.start()
        try await agent.start()
        #expect(platform.directory.count == 1)

        try await agent.suspend()
        sender.send(ACLMessage(.request, receivers: ["Leaver"], content: "queued", replyWith: "q1"))
        await agent.stop()

        #expect(await agent.state == .stopped)
        #expect(platform.agent(named: "Leaver") == nil)
        #expect(platform.directory.count == 0, "its services left the yellow pages")
        let queued = await senderProbe.nextMessage { $0.performative == .failure }
        #expect(queued?.inReplyTo == "q1")
        #expect(queued?.userDefined["X-failure-reason"] == "agent-stopped")

        sender.send(ACLMessage(.request, receivers: ["Leaver"], content: "late", replyWith: "q2"))
        let late = await senderProbe.nextMessage { $0.performative == .failure }
        #expect(late?.inReplyTo == "q2")
        #expect(late?.userDefined["X-failure-reason"] == "unknown-agent")

        #expect(await agentProbe.next { if case .messageReceived = $0 { true } else { false } } == nil,
                "the stopped agent handled nothing and its event stream ended")
    }

    @Test("invalid transitions and names are refused with a typed error")
    func invalidOperationsAreRefused() async throws {
        let platform = Environment(name: "test")
        let agent = Agent(name: "Once", environment: platform)
        await #expect(throws: AgentError.invalidTransition(operation: "suspend", state: .initiated)) {
            try await agent.suspend()
        }
        try await agent.start()
        await #expect(throws: AgentError.invalidTransition(operation: "start", state: .active)) {
            try await agent.start()
        }
        await #expect(throws: AgentError.invalidTransition(operation: "resume", state: .active)) {
            try await agent.resume()
        }
        await #expect(throws: AgentError.nameTaken("Once")) {
            try await Agent(name: "Once", environment: platform).start()
        }
        await #expect(throws: AgentError.nameTaken("ams")) {
            try await Agent(name: "ams", environment: platform).start()
        }
        for bad in ["", "a@b", "two words"] {
            await #expect(throws: AgentError.invalidName(bad)) {
                try await Agent(name: bad, environment: platform).start()
            }
        }
        let twins = Agent(
            name: "Twins", environment: platform,
            goals: [Goal("same", plans: []), Goal("same", plans: [])])
        await #expect(throws: AgentError.duplicateGoal("same")) { try await twins.start() }
        #expect(platform.agent(named: "Twins") == nil)
        await agent.stop()
        await agent.stop()
        #expect(await agent.state == .stopped)
    }

    /// The crowd's threads (they live as long as the process, as every scheduler's do).
    static let crowdThreads = AgentScheduler(threads: 2)

    @Test("10,000 agents start and stop without leaking")
    func manyAgentsStartAndStopWithoutLeaks() async throws {
        final class WeakAgent {
            weak var agent: Agent?
            init(_ agent: Agent) { self.agent = agent }
        }
        // Threads of their own: the crowd does not queue ahead of the agents of the tests running beside it.
        let platform = Environment(name: "crowd", clock: ContinuousClock(), scheduler: Self.crowdThreads)
        var agents = (0..<10_000).map { Agent(name: "agent-\($0)", environment: platform) }
        let watchers = agents.map(WeakAgent.init)
        // Started and stopped from a task on the crowd's threads, as bulk starts should be:
        // each of the 20,000 awaits then hops between those threads only, not through
        // Swift's shared pool, which the suites running beside this one keep busy.
        do {
            let crowd = agents
            try await Task(executorPreference: Self.crowdThreads) { for agent in crowd { try await agent.start() } }.value
            #expect(platform.agentCount == 10_000)
            #expect(platform.agent(named: "agent-9999") === agents.last)
            await Task(executorPreference: Self.crowdThreads) { for agent in crowd { await agent.stop() } }.value
        }
        #expect(platform.agentCount == 0)
        agents.removeAll()
        #expect(watchers.allSatisfy { $0.agent == nil }, "nothing keeps a stopped agent alive")
    }
}
